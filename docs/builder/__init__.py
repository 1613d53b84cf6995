"""The documentation build, one module per job; ``docs/build.py`` is its command line.

- :mod:`builder.site`: ``make html`` from start to end, in the order of the data flow of
  ``CONTRIBUTING.md``: examples, then the languages, then the root files.
- :mod:`builder.examples`: the examples pass (sphinx-gallery runs the tutorial scripts
  once into ``docs/tutorial/``).
- :mod:`builder.languages`: one ``python -m sphinx`` per language, all at once.
- :mod:`builder.stamps`: what is up to date (content hashes under ``_build/stamps/``).
- :mod:`builder.catalogs`: the translation catalogs (checks, extraction, merging, stats).
- :mod:`builder.root`: the files at the site's root (``index.html``, ``404.html``,
  ``sitemap.xml``), from the templates in ``docs/_templates/root/``.
- :mod:`builder.lite`: the in-browser runtime, one self-hosted JupyterLite for every
  language in ``_build/html/lite/``, from the inputs of :mod:`builder.lite_inputs`
  (pinned in ``docs/lite/``) and Pyodide's lock file of :mod:`builder.pyodide_lock`.

What Sphinx does inside each build is configured in ``docs/conf.py`` and ``docs/_ext/``
(the speed-ups live there too, in ``agentmsg_speedups.py``, so that plain ``sphinx-build``
is as fast as ``make html`` and writes the same pages).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

__all__ = ["BUILD", "DOCS", "LOCALES", "ROOT", "BuildError", "child_env", "shown"]

DOCS = Path(__file__).resolve().parent.parent
ROOT = DOCS.parent
BUILD = ROOT / "_build"
LOCALES = ROOT / "locales"


class BuildError(Exception):
    """A step of the build failed; the message says which and where."""


def shown(path: Path) -> str:
    """*path* relative to the repository when it is inside it, for messages."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def child_env() -> dict[str, str]:
    """The environment of every child process: ours, plus ``docs/`` and ``docs/_ext``
    on the import path and the commit's time as ``SOURCE_DATE_EPOCH`` (the catalogs'
    POT-Creation-Date)."""
    env = dict(os.environ)
    paths = [str(DOCS), str(DOCS / "_ext"), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(path for path in paths if path)
    env.setdefault("SOURCE_DATE_EPOCH", _source_date_epoch())
    return env


def _source_date_epoch() -> str:
    """The time of the checked-out commit, or 0 outside git."""
    try:
        result = subprocess.run(
            ["git", "-C", str(ROOT), "log", "-1", "--format=%ct"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return "0"
    value = result.stdout.strip()
    return value if result.returncode == 0 and value.isdigit() else "0"
