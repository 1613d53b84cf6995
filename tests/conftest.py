"""Fixtures shared by the test folders: the site build, which ``site/`` and ``browser/`` test.

The site is built once per session, the way ``make html`` builds it, in a private copy of
the working tree under pytest's temporary folder: no test writes into the working tree
(Hypothesis's example database lives in the system's temporary folder too).
A test that asks for the built site is marked ``docs`` here, so ``make test-fast``
(``-m "not docs and not slow"``) never builds it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from _checkout import ROOT, WARM_START, copy_repository, docs_command, docs_env

# Hypothesis's example database and caches, read when the first test runs: not in the tree,
# and one folder per checkout, so that two checkouts' examples do not mix.
_CHECKOUT_KEY = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
os.environ.setdefault(
    "HYPOTHESIS_STORAGE_DIRECTORY",
    str(Path(tempfile.gettempdir()) / f"agentmsg-hypothesis-{_CHECKOUT_KEY}"),
)

SITE = ROOT / "_build" / "html"
SITE_FIXTURES = {"built_site", "built_gallery", "site_checkout"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SITE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.docs)


@pytest.fixture(scope="session")
def site_checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the working tree in which ``python -m agentmsg_docs html`` has built the whole site
    (all languages) into ``_build/html``; its ``docs/tutorial/`` holds what the examples
    pass captured.

    Set ``AGENTMSG_REUSE_SITE=1`` to test the working tree's own build as it is, without
    building (handy while writing tests; CI always builds).
    """
    if os.environ.get("AGENTMSG_REUSE_SITE") == "1" and (SITE / "index.html").exists():
        return ROOT
    repo = copy_repository(tmp_path_factory.mktemp("site") / "repo")
    for name in WARM_START:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, repo / name, symlinks=True)
    result = subprocess.run(
        docs_command(sys.executable, "html"),
        cwd=repo,
        env=docs_env(repo, dict(os.environ)),
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        pytest.fail(
            f"`python -m agentmsg_docs html` failed with exit code {result.returncode}:\n"
            f"{result.stdout[-6000:]}\n{result.stderr[-6000:]}",
            pytrace=False,
        )
    return repo


@pytest.fixture(scope="session")
def built_site(site_checkout: Path) -> Path:
    """The built site, ``_build/html`` of :func:`site_checkout`."""
    return site_checkout / "_build" / "html"


@pytest.fixture(scope="session")
def built_gallery(site_checkout: Path) -> Path:
    """What the examples pass of that build wrote, ``docs/tutorial/`` of the checkout."""
    return site_checkout / "docs" / "tutorial"
