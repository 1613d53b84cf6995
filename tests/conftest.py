"""Fixtures shared by the test modules.

The documentation site is built once per test session (``built_site``), the way
``make html`` builds it, and the tests that need it assert on the produced files.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_build" / "html"


@pytest.fixture(scope="session")
def built_site() -> Path:
    """Build the whole site (all languages) once per session and return ``_build/html``.

    Set ``AGENTMSG_REUSE_SITE=1`` to test an existing ``_build/html`` without rebuilding
    it (handy while writing tests; CI always builds).
    """
    if os.environ.get("AGENTMSG_REUSE_SITE") == "1" and (SITE / "index.html").exists():
        return SITE
    result = subprocess.run(
        [sys.executable, "docs/build.py", "html"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        pytest.fail(
            f"`docs/build.py html` failed with exit code {result.returncode}:\n"
            f"{result.stdout[-6000:]}\n{result.stderr[-6000:]}",
            pytrace=False,
        )
    return SITE


#: What a private copy of the repository leaves out (top-level names; ``docs/tutorial``).
_NOT_COPIED = {".git", ".venv", "_build", ".pytest_cache", ".mypy_cache", ".ruff_cache"}


def copy_repository(target: Path) -> Path:
    """Copy the working tree into *target* the way a fresh checkout looks, and return it.

    Left out: version control, the virtual environment, build output, generated gallery
    pages (``docs/tutorial``), compiled catalogs (``*.mo``) and caches. Builds in the copy
    (``python docs/build.py ...`` run there) never touch the working tree.
    """

    def ignore(folder: str, names: list[str]) -> set[str]:
        here = Path(folder)
        skipped = {n for n in names if n == "__pycache__" or n.endswith(".mo")}
        if here == ROOT:
            skipped |= _NOT_COPIED & set(names)
        if here == ROOT / "docs":
            skipped |= {"tutorial", "sg_execution_times.rst"} & set(names)
        return skipped

    shutil.copytree(ROOT, target, ignore=ignore)
    return target
