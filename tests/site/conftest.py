"""Fixtures shared by the test modules.

The documentation site is built once per test session (``built_site``), the way
``make html`` builds it, and the tests that need it assert on the produced files.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from _checkout import ROOT, copy_repository

SITE = ROOT / "_build" / "html"
# The docs build's modules (docs/builder/) and extensions (docs/_ext/), for the tests that
# call their functions.
sys.path[:0] = [str(ROOT / "docs"), str(ROOT / "docs" / "_ext")]

__all__ = ["ROOT", "SITE", "TUTORIALS", "built_site", "copy_repository", "run_build"]


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


def run_build(
    repo: Path, *args: str, env: dict[str, str] | None = None, python: str = sys.executable
) -> subprocess.CompletedProcess[str]:
    """``python docs/build.py ARGS`` in *repo* (a copy of the repository), with this
    interpreter (or *python*) and *env* added to the environment; its output is captured,
    its exit code left to the caller."""
    return subprocess.run(
        [python, "docs/build.py", *args],
        cwd=repo,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        check=False,
    )
