"""Fixtures shared by the test folders: the site build, which ``site/`` and ``browser/`` test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from _checkout import ROOT

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
