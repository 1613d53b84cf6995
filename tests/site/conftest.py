"""Fixtures shared by the test modules.

The documentation site is built once per test session (``built_site``), the way
``make html`` builds it, and the tests that need it assert on the produced files.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
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


def _load_docs_build() -> ModuleType:
    """``docs/build.py``, imported by path as ``docs_build`` (no clash with PyPA's ``build``)."""
    if "docs_build" not in sys.modules:
        spec = importlib.util.spec_from_file_location("docs_build", ROOT / "docs" / "build.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["docs_build"] = module
        spec.loader.exec_module(module)
    return sys.modules["docs_build"]


#: The tutorials the site must show, in gallery order. Written out here rather than
#: read from the docs build, so that a tutorial that goes missing fails the tests.
TUTORIALS = (
    "create_message",
    "role_messages",
    "multimodal",
    "tools",
    "saving_loading",
    "use_cases",
    "migration",
)


def run_build(
    repo: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python docs/build.py ARGS`` in *repo* (a copy of the repository), with this
    interpreter and *env* added to the environment; its output is captured, its exit
    code left to the caller."""
    return subprocess.run(
        [sys.executable, "docs/build.py", *args],
        cwd=repo,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        check=False,
    )


#: The docs build orchestrator, for tests that call its functions.
docs_build = _load_docs_build()
copy_repository = docs_build.copy_repository
