"""A private copy of the working tree, as a fresh checkout of it looks.

The tests of the docs build and ``make bench`` build in such copies, so that they start
from nothing (no ``_build/``, no generated ``docs/tutorial/``, no ``.venv``) and never
touch the working tree. The files copied are those git would check out plus the ones not
yet added, as ``git ls-files --cached --others --exclude-standard`` lists them; deleted
files stay out.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

__all__ = [
    "MAY_BUILD",
    "ROOT",
    "TUTORIALS",
    "WARM_START",
    "copy_repository",
    "docs_command",
    "docs_env",
    "run_build",
    "warm_copy",
]

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


#: What a copy may start from when the working tree has it (a ``make html`` before): the
#: build's content stamps then keep the languages and examples that nothing changed, as
#: ``make html`` does, and the copy is built only where it differs.
WARM_START = ("_build/html", "_build/stamps", "docs/tutorial")


def warm_copy(target: Path, root: Path = ROOT) -> Path:
    """:func:`copy_repository`, plus the working tree's build (:data:`WARM_START`) when
    it has one: a test that changes one thing rebuilds only what that thing feeds."""
    copy_repository(target, root)
    for name in WARM_START:
        if (root / name).is_dir():
            shutil.copytree(root / name, target / name, symlinks=True)
    return target


def docs_command(python: str, *args: str) -> list[str]:
    """``python -m agentmsg_docs ARGS``, the build's command line (see :func:`docs_env`)."""
    return [python, "-m", "agentmsg_docs", *args]


def docs_env(repo: Path, base: dict[str, str]) -> dict[str, str]:
    """*base* with *repo*'s ``docs/`` first on ``PYTHONPATH``, as the Makefile runs it."""
    paths = [str(repo / "docs"), base.get("PYTHONPATH", "")]
    return {**base, "PYTHONPATH": ":".join(path for path in paths if path)}


#: The tutorials the site must show, in gallery order. Written out here rather than
#: read from the docs build, so that a tutorial that goes missing fails the tests.
TUTORIALS = (
    "create_message",
    "role_messages",
    "multimodal",
    "tools",
    "saving_loading",
    "use_cases",
    "model_apis",
    "streaming",
    "migration",
)

#: Whether the running test may build the docs (it is marked ``slow``): set by
#: ``tests/site/conftest.py`` before each test.
MAY_BUILD = [False]


def run_build(
    repo: Path, *args: str, env: dict[str, str] | None = None, python: str = sys.executable
) -> subprocess.CompletedProcess[str]:
    """``python -m agentmsg_docs ARGS`` in *repo* (a copy of the repository), with this
    interpreter (or *python*) and *env* added to the environment; its output is captured,
    its exit code left to the caller."""
    if not MAY_BUILD[0]:
        pytest.fail("this test runs the docs build: mark it @pytest.mark.slow", pytrace=False)
    return subprocess.run(
        docs_command(python, *args),
        cwd=repo,
        env=docs_env(repo, {**os.environ, **(env or {})}),
        capture_output=True,
        text=True,
        check=False,
    )
