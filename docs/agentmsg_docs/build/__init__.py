"""The documentation build around Sphinx, one module per job (:mod:`agentmsg_docs.build.cli` is
its command line, ``python -m agentmsg_docs``).

- :mod:`~agentmsg_docs.build.html`: ``make html`` from start to end, in the order of the
  data flow: examples, then the languages, then the root files.
- :mod:`~agentmsg_docs.build.examples`: the examples pass (sphinx-gallery runs the
  tutorial scripts once into ``docs/tutorial/``).
- :mod:`~agentmsg_docs.build.sphinx_runs`: one ``python -m sphinx`` per language, all at
  once.
- :mod:`~agentmsg_docs.build.stamps`: what is up to date (content hashes under
  ``_build/stamps/``).
- :mod:`~agentmsg_docs.build.cli`: the command line, every ``make`` docs target's.

The steps it drives that belong to a job live with that job: the catalogs' checks,
extraction, merging and stats in :mod:`agentmsg_docs.i18n.catalogs`, the files at the
site's root in :mod:`agentmsg_docs.site.root_pages`, the in-browser runtime (one
self-hosted JupyterLite for every language in ``_build/html/lite/``) in
:mod:`agentmsg_docs.lite.build`.

What Sphinx does inside each build is configured in ``docs/conf.py`` and the extension,
:mod:`agentmsg_docs` (the speed patches too, in :mod:`agentmsg_docs.patches`, so that plain
``sphinx-build`` is as fast as ``make html`` and writes the same pages).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

__all__ = ["BUILD", "DOCS", "LOCALES", "ROOT", "BuildError", "child_env", "shown"]

DOCS = Path(__file__).resolve().parents[2]
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
    """The environment of every child process: ours, plus ``docs/`` (where
    :mod:`agentmsg_docs` lives) on the import path and the commit's time as
    ``SOURCE_DATE_EPOCH`` (the catalogs' POT-Creation-Date)."""
    env = dict(os.environ)
    paths = [str(DOCS), env.get("PYTHONPATH", "")]
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
