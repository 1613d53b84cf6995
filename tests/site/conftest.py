"""Hooks of the site tests.

The site itself is built once per session by ``tests/conftest.py`` (``built_site``). A
test that runs the docs build in a copy of its own (:func:`_checkout.run_build`) must be
marked ``slow``, which ``make test-fast`` leaves out: ``run_build`` fails in any other test.
The helpers live in ``_checkout.py``, a plain module, so test modules of both folders can
import them (two ``conftest`` modules would shadow each other).
"""

from __future__ import annotations

import pytest

from _checkout import MAY_BUILD


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    MAY_BUILD[0] = item.get_closest_marker("slow") is not None
