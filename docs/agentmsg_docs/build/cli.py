"""The command line of the documentation build; every ``make`` docs target ends up here.

Usage (from the repository root, with ``docs/`` on the import path, as the Makefile runs
it: ``PYTHONPATH=docs python -m agentmsg_docs ...``)::

    python -m agentmsg_docs html [--langs "LANG ..."]  # the site, into _build/html/
    python -m agentmsg_docs examples                   # run the tutorial scripts only
    python -m agentmsg_docs gettext [--outdir DIR]     # extract messages into _build/gettext/
    python -m agentmsg_docs update-po                  # ... and merge them into locales/
    python -m agentmsg_docs stats                      # translation progress per catalog
    python -m agentmsg_docs add-language --lang xx     # a new language, in progress

Each job lives in a module of :mod:`agentmsg_docs.build` named after it; what Sphinx does
inside a build lives in ``docs/conf.py`` and the extension, :mod:`agentmsg_docs`. After
``python -m agentmsg_docs examples``, a plain ``python -m sphinx -b html docs OUT -D
language=LANG`` writes the same pages as ``make html`` writes for LANG. Any failure exits
non-zero with a message that says where.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from agentmsg_docs.build import BuildError
from agentmsg_docs.build.examples import run_examples
from agentmsg_docs.build.html import ALL_LANGS, build_html
from agentmsg_docs.i18n.catalogs import build_gettext, print_stats, update_po


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    html = sub.add_parser("html", help="build the site into _build/html/")
    every = " ".join(ALL_LANGS)
    html.add_argument("--langs", default=every, help=f'some of "{every}" (locales/languages.toml)')
    sub.add_parser("examples", help="run the tutorial scripts once into docs/tutorial/")
    gettext = sub.add_parser("gettext", help="extract messages into _build/gettext/")
    gettext.add_argument("--outdir", type=Path, help="write the .pot files here instead")
    sub.add_parser("update-po", help="merge extracted messages into locales/ (sphinx-intl)")
    sub.add_parser("stats", help="translation progress per catalog (sphinx-intl stat)")
    new = sub.add_parser("add-language", help="a new language, in progress (see new_language)")
    new.add_argument("--lang", required=True, help="its gettext code: fr, ja, pt_BR")
    new.add_argument("--name", help="its name in its own script (default: from Babel)")
    new.add_argument("--tag", help="its BCP 47 tag (default: the code with a hyphen)")
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
        elif args.command == "add-language":
            from agentmsg_docs.i18n.new_language import add_language

            add_language(args.lang, args.name or None, args.tag or None)
    except BuildError as error:
        print(f"\nagentmsg_docs {args.command}: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
