"""``make add-language LANG=xx``: a fourth language, in progress, with no code change.

In a copy of the repository, ``python -m agentmsg_docs add-language`` adds French; the
next build builds it: its pages, with the English where nothing is translated yet.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import polib
import pytest

from _checkout import copy_repository, run_build
from agentmsg_docs.build import ROOT
from agentmsg_docs.build.catalogs import PACKAGE_LOCALE

pytestmark = pytest.mark.docs


@pytest.fixture(scope="module")
def with_french(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = copy_repository(tmp_path_factory.mktemp("add-language") / "repo")
    result = run_build(repo, "add-language", "--lang", "fr")
    assert 0 == result.returncode, result.stdout[-3000:] + result.stderr[-3000:]
    return repo


def test_row_catalogs_and_glossary(with_french: Path) -> None:
    """The table gains French "in progress" (its own name from Babel); every page, the
    theme and the cards have a French catalog, untranslated; a glossary stub lists the
    English terms."""
    rows = tomllib.loads((with_french / "locales" / "languages.toml").read_text("utf-8"))
    expected = {"code": "fr", "tag": "fr", "name": "Français", "search": "fr"}
    assert {**expected, "status": "in progress"} == rows["language"][-1]
    english = sorted(
        p.relative_to(with_french / "_build" / "gettext").with_suffix(".po")
        for p in (with_french / "_build" / "gettext").rglob("*.pot")
    )
    french = with_french / "locales" / "fr" / "LC_MESSAGES"
    assert english == sorted(p.relative_to(french) for p in french.rglob("*.po"))
    assert [] == [p for p in french.rglob("*.po") if polib.pofile(str(p)).metadata_is_fuzzy]
    theme = polib.pofile(str(french / "sphinx.po"))
    assert "Languages" in {entry.msgid for entry in theme}
    assert [] == [entry.msgid for entry in theme if entry.msgstr]
    cards = with_french / PACKAGE_LOCALE.relative_to(ROOT) / "fr" / "LC_MESSAGES"
    assert (cards / "agentmsg.po").is_file() and (cards / "agentmsg.mo").is_file()
    glossary = (with_french / "locales" / "fr" / "GLOSSARY.md").read_text("utf-8")
    assert "| message | | |" in glossary


def test_a_second_time_is_refused(with_french: Path) -> None:
    """Adding a language the table has already stops, naming the table."""
    result = run_build(with_french, "add-language", "--lang", "fr")
    assert 1 == result.returncode
    assert "fr is in locales/languages.toml already" in result.stderr


def test_next_build_builds_it(with_french: Path) -> None:
    """The next build builds French with no code change: pages in ``fr/`` with
    ``<html lang="fr">``, links to it from English, the root page offering it."""
    result = run_build(with_french, "html", "--langs", "en fr")
    assert 0 == result.returncode, result.stdout[-3000:] + result.stderr[-3000:]
    html = with_french / "_build" / "html"
    page = (html / "fr" / "tutorial" / "tools.html").read_text("utf-8")
    assert re.search(r'<html [^>]*\blang="fr"', page)
    assert 'hreflang="fr"' in (html / "en" / "index.html").read_text("utf-8")
    assert 'href="fr/index.html"' in (html / "index.html").read_text("utf-8")
