"""A private copy of the working tree, as a fresh checkout of it looks.

The tests of the docs build and ``make bench`` build in such copies, so that they start
from nothing (no ``_build/``, no generated ``docs/tutorial/``, no ``.venv``) and never
touch the working tree. The files copied are those git would check out plus the ones not
yet added, as ``git ls-files --cached --others --exclude-standard`` lists them; deleted
files stay out.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

__all__ = ["ROOT", "copy_repository", "docs_command", "docs_env"]

ROOT = Path(__file__).resolve().parents[2]


def copy_repository(target: Path, root: Path = ROOT) -> Path:
    """Copy the working tree of *root* into *target* and return *target*."""
    listed = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8")
    for name in sorted(set(listed.split("\0")) - {""}):
        source = root / name
        if source.is_file():  # a file deleted from the working tree is not copied
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)
    return target


def docs_command(python: str, *args: str) -> list[str]:
    """``python -m agentmsg_docs ARGS``, the build's command line (see :func:`docs_env`)."""
    return [python, "-m", "agentmsg_docs", *args]


def docs_env(repo: Path, base: dict[str, str]) -> dict[str, str]:
    """*base* with *repo*'s ``docs/`` first on ``PYTHONPATH``, as the Makefile runs it."""
    paths = [str(repo / "docs"), base.get("PYTHONPATH", "")]
    return {**base, "PYTHONPATH": ":".join(path for path in paths if path)}
