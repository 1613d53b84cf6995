"""The command line of the documentation build; every ``make`` docs target ends up here.

Usage (from the repository root; ``make html``, ``make gettext``, ... call these)::

    python docs/build.py html [--langs "en zh_CN es"]   # the site, into _build/html/
    python docs/build.py examples                       # run the tutorial scripts only
    python docs/build.py gettext [--outdir DIR]         # extract messages into _build/gettext/
    python docs/build.py update-po                      # ... and merge them into locales/
    python docs/build.py stats                          # translation progress per catalog

Each job lives in a module of ``docs/builder/`` named after it (its ``__init__.py`` lists
them); what Sphinx does inside a build lives in ``docs/conf.py`` and ``docs/_ext/``. After
``python docs/build.py examples``, a plain ``python -m sphinx -b html docs OUT -D
language=es`` writes the same pages as ``make html`` writes for es. Any failure exits
non-zero with a message that says where.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path[:0] = [str(DOCS), str(DOCS / "_ext")]

from builder import BuildError  # noqa: E402
from builder.catalogs import build_gettext, print_stats, update_po  # noqa: E402
from builder.examples import run_examples  # noqa: E402
from builder.site import ALL_LANGS, build_html  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    html = sub.add_parser("html", help="build the site into _build/html/")
    html.add_argument("--langs", default=" ".join(ALL_LANGS), help='e.g. "en zh_CN es"')
    sub.add_parser("examples", help="run the tutorial scripts once into docs/tutorial/")
    gettext = sub.add_parser("gettext", help="extract messages into _build/gettext/")
    gettext.add_argument("--outdir", type=Path, help="write the .pot files here instead")
    sub.add_parser("update-po", help="merge extracted messages into locales/ (sphinx-intl)")
    sub.add_parser("stats", help="translation progress per catalog (sphinx-intl stat)")
    args = parser.parse_args(argv)
    try:
        if args.command == "html":
            build_html(args.langs.split())
        elif args.command == "examples":
            run_examples()
        elif args.command == "gettext":
            build_gettext(args.outdir) if args.outdir else build_gettext()
        elif args.command == "update-po":
            update_po()
        elif args.command == "stats":
            print_stats()
    except BuildError as error:
        print(f"\ndocs/build.py {args.command}: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
