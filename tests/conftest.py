"""Fixtures and hooks shared by the test folders: the site build, which ``site/`` and
``browser/`` test.

The site is built once per run, the way ``make html`` builds it, in a private copy of
the working tree under pytest's temporary folder: no test writes into the working tree
(Hypothesis's example database lives in the system's temporary folder too). ``make test``
runs the tests in one worker per core (pytest-xdist); the workers share that one copy,
and the fourth-language copy, through :func:`once_per_run`.
A test that asks for the built site is marked ``docs`` here, so ``make test-fast``
(``-m "not docs and not slow"``) never builds it.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from _checkout import (
    BLANKED_LANGUAGE,
    BLANKED_PAGE,
    CHANGED_PAGE,
    FIRST_TRANSLATIONS,
    MAY_BUILD,
    NEW_LANGUAGES,
    NEW_PARAGRAPH,
    OLD_PARAGRAPH,
    ROOT,
    blanked_entry,
    docs_command,
    docs_env,
    warm_copy,
)

# Hypothesis's example database and caches, read when the first test runs: not in the tree,
# and one folder per checkout, so that two checkouts' examples do not mix.
_CHECKOUT_KEY = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
os.environ.setdefault(
    "HYPOTHESIS_STORAGE_DIRECTORY",
    str(Path(tempfile.gettempdir()) / f"agentmsg-hypothesis-{_CHECKOUT_KEY}"),
)

SITE = ROOT / "_build" / "html"
SITE_FIXTURES = {"built_site", "built_gallery", "site_checkout", "fourth_language_checkout"}


#: The parameters that name a language in the tests parametrized over the languages.
LANGUAGE_PARAMETERS = ("lang", "language")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--languages",
        default="",
        help="comma-separated language codes: run only the tests parametrized with one of "
        "them (a `lang` or `language` parameter) and those marked every_language",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if SITE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.docs)
    chosen = {code for code in config.getoption("languages").split(",") if code}
    if chosen:
        kept, left = [], []
        for item in items:
            (kept if _for_languages(item, chosen) else left).append(item)
        config.hook.pytest_deselected(items=left)
        items[:] = kept


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    # Only a test marked ``slow`` may run the docs build in a copy of its own
    # (``_checkout.run_build``), since ``make test-fast`` leaves those out.
    MAY_BUILD[0] = item.get_closest_marker("slow") is not None


def _for_languages(item: pytest.Item, chosen: set[str]) -> bool:
    """Whether *item* tests one of the *chosen* languages (see ``--languages``)."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    named = [params[name] for name in LANGUAGE_PARAMETERS if name in params]
    if named:
        return any(str(value) in chosen for value in named)
    return item.get_closest_marker("every_language") is not None


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

    def build(repo: Path) -> None:
        warm_copy(repo)
        _docs_or_fail(repo, "html")

    return once_per_run(tmp_path_factory, "site", build)


def once_per_run(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]
) -> Path:
    """The folder ``<name>/repo`` that *make* fills, made once per test run.

    Without pytest-xdist that is once per session. Under it, every worker's session asks,
    and the workers share the run's temporary folder: the first one to take the lock
    makes the folder while the others wait for it, then all use it. A *make* that fails
    leaves no mark, so each worker that asks fails with its own output.
    """
    if "PYTEST_XDIST_WORKER" not in os.environ:
        repo = tmp_path_factory.mktemp(name) / "repo"
        make(repo)
        return repo
    shared = tmp_path_factory.getbasetemp().parent / name
    shared.mkdir(exist_ok=True)
    repo = shared / "repo"
    with (shared / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (shared / "made").exists():
            shutil.rmtree(repo, ignore_errors=True)  # what a failed attempt left
            make(repo)
            (shared / "made").touch()
    return repo


def _docs_or_fail(repo: Path, *args: str) -> None:
    """``python -m agentmsg_docs ARGS`` in *repo*; the session fails with its output if
    it does."""
    result = subprocess.run(
        docs_command(sys.executable, *args),
        cwd=repo,
        env=docs_env(repo, dict(os.environ)),
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        pytest.fail(
            f"`python -m agentmsg_docs {' '.join(args)}` failed with exit code "
            f"{result.returncode}:\n{result.stdout[-6000:]}\n{result.stderr[-6000:]}",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def fourth_language_checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the working tree for every test of a language added or of English
    that changed: one English paragraph changed (:data:`NEW_PARAGRAPH`), ``make
    update-po``, ``make add-language`` for each of :data:`NEW_LANGUAGES`, then ``make
    html`` of all five languages. It starts from the working tree's build, as the
    session's copy does (the examples pass then runs again: the new card catalogs are
    its input). Before the build, Japanese gets its first translations
    (:data:`FIRST_TRANSLATIONS`) and Spanish, a complete language, loses one
    (:func:`blanked_entry`).

    Set ``AGENTMSG_FOURTH_LANGUAGE_REPO`` to a folder to keep the copy there, and to
    test the copy found there as it is (handy while writing tests; CI always builds).
    """
    kept = os.environ.get("AGENTMSG_FOURTH_LANGUAGE_REPO")
    if kept and (Path(kept) / "_build" / "html" / "index.html").is_file():
        return Path(kept)
    if kept:
        _add_languages(Path(kept))
        return Path(kept)
    return once_per_run(tmp_path_factory, "fourth-language", _add_languages)


def _add_languages(target: Path) -> None:
    """The steps of :func:`fourth_language_checkout`, in a copy made at *target*."""
    repo = warm_copy(target)
    page = repo / "docs" / f"{CHANGED_PAGE}.md"
    text = page.read_text("utf-8")
    assert 1 == text.count(OLD_PARAGRAPH), f"{page.name} lost the paragraph the test changes"
    page.write_text(text.replace(OLD_PARAGRAPH, NEW_PARAGRAPH), "utf-8")
    steps = [("update-po",), *(("add-language", "--lang", *new) for new in NEW_LANGUAGES)]
    for args in [*steps, ("html",)]:
        if args == ("html",):
            _translate(repo, FIRST_TRANSLATIONS)
            _blank(repo)
        _docs_or_fail(repo, *args)


def _translate(repo: Path, translations: dict[str, dict[str, str]]) -> None:
    """Fill in *translations* (msgid -> msgstr, by language) in *repo*'s ``sphinx.po``."""
    import polib

    for lang, texts in translations.items():
        path = repo / "locales" / lang / "LC_MESSAGES" / "sphinx.po"
        catalog = polib.pofile(str(path))
        for msgid, msgstr in texts.items():
            entry = catalog.find(msgid)
            assert entry is not None, f"{path.name} of {lang} has no {msgid!r}"
            entry.msgstr = msgstr
        catalog.save(str(path))


def _blank(repo: Path) -> None:
    """Take the translation of :func:`blanked_entry` out of *repo*'s catalog."""
    import polib

    path = repo / "locales" / BLANKED_LANGUAGE / "LC_MESSAGES" / f"{BLANKED_PAGE}.po"
    catalog = polib.pofile(str(path))
    entry = catalog.find(blanked_entry(repo / "locales").msgid)
    assert entry is not None
    entry.msgstr = ""
    catalog.save(str(path))


@pytest.fixture(scope="session")
def built_site(site_checkout: Path) -> Path:
    """The built site, ``_build/html`` of :func:`site_checkout`."""
    return site_checkout / "_build" / "html"


@pytest.fixture(scope="session")
def built_gallery(site_checkout: Path) -> Path:
    """What the examples pass of that build wrote, ``docs/tutorial/`` of the checkout."""
    return site_checkout / "docs" / "tutorial"
