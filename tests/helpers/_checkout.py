"""A private copy of the working tree, as a fresh checkout of it looks.

The tests of the docs build and ``make bench`` build in such copies, so that they start
from nothing (no ``_build/``, no generated ``docs/tutorial/``, no ``.venv``) and never
touch the working tree. The files copied are those git would check out plus the ones not
yet added, as ``git ls-files --cached --others --exclude-standard`` lists them; deleted
files stay out.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

__all__ = [
    "BLANKED_LANGUAGE",
    "BLANKED_PAGE",
    "CHANGED_PAGE",
    "FIRST_TRANSLATIONS",
    "MAY_BUILD",
    "NEW_LANGUAGES",
    "NEW_PARAGRAPH",
    "OLD_PARAGRAPH",
    "ROOT",
    "TUTORIALS",
    "WARM_START",
    "blanked_entry",
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
    """*base* with *repo*'s ``docs/`` first on ``PYTHONPATH``, as the Makefile runs it,
    after *repo*'s ``src/``: the copy's build imports the copy's agentmsg (whose card
    catalogs a new language adds to), not the editable install's."""
    paths = [str(repo / "src"), str(repo / "docs"), base.get("PYTHONPATH", "")]
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

#: The fourth and fifth languages of ``fourth_language_checkout`` (``tests/conftest.py``), as ``make
#: add-language`` adds them: Japanese (words not spaced) with its name given, French with
#: everything from Babel.
NEW_LANGUAGES = (("ja", "--name", "日本語", "--tag", "ja"), ("fr",))
#: What that copy translates of the new languages' theme strings (``sphinx.po``): the
#: notice, in Japanese, which joins sentences and links without spaces.
FIRST_TRANSLATIONS = {
    "ja": {
        "%(percent)s%% of this page is translated; the rest is shown in English.": (
            "このページは%(percent)s%%が翻訳済みで、残りは英語で表示しています。"
        ),
        "Read the English page": "英語のページを読む",
        "Help translate it": "翻訳に協力する",
    },
}
#: The page of a complete language whose catalog that copy loses one translation of.
BLANKED_LANGUAGE, BLANKED_PAGE = "es", "tutorial/create_message"


def blanked_entry(locales: Path) -> Any:
    """The entry of :data:`BLANKED_PAGE`'s catalog under *locales* that that copy
    blanks: the first translated paragraph without markup or quotes (its ``<p>`` text is
    its msgid)."""
    import polib

    catalog = polib.pofile(str(locales / BLANKED_LANGUAGE / "LC_MESSAGES" / f"{BLANKED_PAGE}.po"))
    plain = re.compile(r"^[A-Za-z][\w ,.;()]{40,}$")
    return next(e for e in catalog if e.msgstr and not e.obsolete and plain.match(e.msgid))


#: The paragraph of ``docs/installation.md`` whose English that copy changes.
CHANGED_PAGE = "installation"
OLD_PARAGRAPH = "agentmsg needs Python 3.11 or newer and nothing else: it has no dependencies."
NEW_PARAGRAPH = (
    "agentmsg needs Python 3.11 or newer and nothing else: it has no runtime dependencies."
)


#: Whether the running test may build the docs (it is marked ``slow``): set by
#: ``tests/conftest.py`` before each test.
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
