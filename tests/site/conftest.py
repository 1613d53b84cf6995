"""Helpers of the site tests.

The site itself is built once per session by ``tests/conftest.py`` (``built_site``). A
test that runs the docs build in a copy of its own (:func:`run_build`) must be marked
``slow``, which ``make test-fast`` leaves out: :func:`run_build` fails in any other test.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from _checkout import ROOT, copy_repository, docs_command, docs_env

__all__ = ["ROOT", "TUTORIALS", "copy_repository", "run_build"]


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


_may_build = [False]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    _may_build[0] = item.get_closest_marker("slow") is not None


def run_build(
    repo: Path, *args: str, env: dict[str, str] | None = None, python: str = sys.executable
) -> subprocess.CompletedProcess[str]:
    """``python -m agentmsg_docs ARGS`` in *repo* (a copy of the repository), with this
    interpreter (or *python*) and *env* added to the environment; its output is captured,
    its exit code left to the caller."""
    if not _may_build[0]:
        pytest.fail("this test runs the docs build: mark it @pytest.mark.slow", pytrace=False)
    return subprocess.run(
        docs_command(python, *args),
        cwd=repo,
        env=docs_env(repo, {**os.environ, **(env or {})}),
        capture_output=True,
        text=True,
        check=False,
    )
