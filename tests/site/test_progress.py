"""Visible translation state (``agentmsg_docs.progress``): blocks in English marked
``lang="en"``, and the notice that opens their page.

The fast tests check the counting; the slow one builds, in one copy of the repository,
four languages after French was added (0 % translated) and one English paragraph changed.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from bs4 import BeautifulSoup, Tag

from _checkout import ROOT, copy_repository, run_build
from agentmsg_docs import progress
from agentmsg_docs.po import entry_states

CHANGED_PAGE = "installation"
#: What marks a block in English, or the notice, in a page's markup.
MARKS = re.compile(r'class="[^"]*\b(untranslated|agentmsg-changed|agentmsg-progress)\b')
OLD = "agentmsg needs Python 3.11 or newer and nothing else: it has no dependencies."
NEW = "agentmsg needs Python 3.11 or newer and nothing else: it has no runtime dependencies."
#: The "English changed" notice, as zh_CN's and es's sphinx.po translate it.
CHANGED_NOTICE = {
    "zh_CN": "本节的英文原文在译出后有所改动",
    "es": "El texto en inglés de esta sección cambió",
}


class TestTranslatedPercent:
    def test_rounds_down(self) -> None:
        """A page is 100 % translated only when every block is; shares round down."""
        assert (99, 50, 33, 0) == tuple(
            progress.translated_percent(*counts) for counts in ((199, 200), (1, 2), (1, 3), (0, 7))
        )

    def test_whole_and_empty(self) -> None:
        """Every block translated, or none to translate: 100 %."""
        assert (100, 100) == (progress.translated_percent(4, 4), progress.translated_percent(0, 0))


class TestBlockState:
    def test_fuzzy_is_changed(self) -> None:
        """A fuzzy entry is English that changed after translation, in any language."""
        states = {progress.block_state("fuzzy", complete=c) for c in (True, False)}
        assert {progress.CHANGED} == states

    def test_untranslated_depends_on_the_language(self) -> None:
        """An untranslated entry is new English in a complete language, and not yet
        translated in one in progress."""
        assert (progress.CHANGED, progress.UNTRANSLATED) == (
            progress.block_state("untranslated", complete=True),
            progress.block_state("untranslated", complete=False),
        )

    def test_translated_or_unknown_is_not_english(self) -> None:
        """A translated entry, or a text the catalog does not hold (Sphinx's own), is not
        shown in English."""
        assert {None} == {progress.block_state(s, complete=True) for s in ("translated", None)}


def test_entry_states(tmp_path: Path) -> None:
    """The catalog reader tells translated, fuzzy and untranslated entries apart and
    leaves obsolete ones out."""
    catalog = polib.POFile()
    catalog.append(polib.POEntry(msgid="a", msgstr="A"))
    catalog.append(polib.POEntry(msgid="b", msgstr="B", flags=["fuzzy"]))
    catalog.append(polib.POEntry(msgid="c", msgstr=""))
    catalog.append(polib.POEntry(msgid="d", msgstr="D", obsolete=True))
    catalog.save(str(tmp_path / "page.po"))
    expected = {"a": "translated", "b": "fuzzy", "c": "untranslated"}
    assert expected == entry_states(tmp_path / "page.po")
    assert {} == entry_states(tmp_path / "missing.po")


def test_template_declares_the_tooltips() -> None:
    """Each tooltip is in the notice's template, so ``make update-po`` extracts it."""
    template = (ROOT / "docs" / "_templates" / progress.TEMPLATE).read_text("utf-8")
    assert [] == [text for text in progress.TOOLTIPS.values() if f'_("{text}")' not in template]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy: one English paragraph changed, French added, the catalogs merged
    (``make update-po``), then ``en zh_CN es fr`` built once; its ``_build/html``."""
    repo = copy_repository(tmp_path_factory.mktemp("progress") / "repo")
    page = repo / "docs" / f"{CHANGED_PAGE}.md"
    text = page.read_text("utf-8")
    assert 1 == text.count(OLD)
    page.write_text(text.replace(OLD, NEW), "utf-8")
    steps = [
        ("add-language", "--lang", "fr"),
        ("update-po",),
        ("html", "--langs", "en zh_CN es fr"),
    ]
    for args in steps:
        result = run_build(repo, *args)
        assert 0 == result.returncode, result.stdout[-3000:] + result.stderr[-3000:]
    return repo / "_build" / "html"


def _article(path: Path) -> Tag:
    article = BeautifulSoup(path.read_text("utf-8"), "html.parser").find("article")
    assert isinstance(article, Tag), path
    return article


def _marked(article: Tag) -> list[Tag]:
    """The blocks marked as shown in English."""
    return [tag for tag in article.find_all(class_="untranslated") if tag.get("lang") == "en"]


def _blocks(article: Tag) -> list[Tag]:
    """The prose blocks of *article* that have text: paragraphs and headings, outside
    code, outputs, chat cards (the examples' own HTML), the notice, and the labels that
    are theme strings (``sphinx.po``: the notebook link), Sphinx's own (admonition
    titles) or other pages' titles (gallery cards)."""
    skipped = {"highlight", "sphx-glr-script-out", "agentmsg-progress", "agentmsg-lite"}
    skipped |= {"admonition-title", "sphx-glr-thumbcontainer"}
    blocks = []
    for tag in article.find_all(["p", "h1", "h2", "h3", "h4", "h5", "h6"]):
        classes = {str(c) for p in [tag, *tag.parents] for c in p.get("class") or ()}
        if classes & skipped or any(c.startswith("agentmsg-card") for c in classes):
            continue
        if tag.get_text(strip=True):
            blocks.append(tag)
    return blocks


def _notice(article: Tag) -> Tag | None:
    found = article.find(class_="agentmsg-progress")
    return found if isinstance(found, Tag) else None


@pytest.mark.slow
@pytest.mark.parametrize("name", ["index", "installation", "tutorial/tools", "tutorial/index"])
def test_french_blocks_are_english(site: Path, name: str) -> None:
    """French is 0 % translated: every prose block of a page carries ``lang="en"`` (itself
    or from the block around it) and the page opens with the "N %" notice, linking to
    the English page and to the translation guide."""
    article = _article(site / "fr" / f"{name}.html")
    unmarked = [
        tag.get_text(" ", strip=True)[:60]
        for tag in _blocks(article)
        if not any(isinstance(p, Tag) and p.get("lang") == "en" for p in [tag, *tag.parents])
    ]
    assert [] == unmarked
    notice = _notice(article)
    assert notice is not None
    assert re.search(r"\b0 ?% of this page is translated", notice.get_text(" ", strip=True))
    up = "../" * (name.count("/") + 1)
    hrefs = [a["href"] for a in notice.find_all("a")]
    assert [f"{up}en/{name}.html", f"{'../' * name.count('/')}translating.html"] == hrefs
    # The notice follows the title.
    title = article.find("h1")
    assert isinstance(title, Tag) and title.find_next(class_="agentmsg-progress") is notice


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["zh_CN", "es"])
def test_changed_paragraph_shows_english(site: Path, lang: str) -> None:
    """After the English of one paragraph changed (``make update-po`` made its entry
    fuzzy), exactly that block shows the English, with ``lang="en"``, and its page opens
    with the "English changed" notice in the reader's language."""
    article = _article(site / lang / f"{CHANGED_PAGE}.html")
    marked = _marked(article)
    assert [NEW] == [tag.get_text(" ", strip=True) for tag in marked]
    assert "agentmsg-changed" in (marked[0].get("class") or [])
    assert marked[0].get("title")  # the marker's tooltip
    notice = _notice(article)
    assert notice is not None
    assert CHANGED_NOTICE[lang] in notice.get_text()
    hrefs = [a["href"] for a in notice.find_all("a")]
    assert [f"../en/{CHANGED_PAGE}.html", "translating.html"] == hrefs


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["zh_CN", "es"])
def test_fresh_pages_show_nothing(site: Path, lang: str) -> None:
    """Every other page of a complete language is fresh: no notice, no marked block,
    none of the markup at all."""
    pages = sorted(site.joinpath(lang).rglob("*.html"))
    assert len(pages) > 10
    shown = {
        path.relative_to(site / lang).as_posix(): MARKS.findall(path.read_text("utf-8"))
        for path in pages
        if path.name != f"{CHANGED_PAGE}.html"
    }
    assert {} == {page: found for page, found in shown.items() if found}


@pytest.mark.slow
def test_english_shows_nothing(site: Path) -> None:
    """The English pages carry none of it."""
    pages = site.joinpath("en").rglob("*.html")
    assert [] == [p.name for p in pages if MARKS.search(p.read_text("utf-8"))]


@pytest.mark.slow
def test_new_language_gets_the_strings(site: Path) -> None:
    """``add-language`` gives French the notice's and tooltips' strings to translate,
    empty (the pages show them in English until then)."""
    theme = polib.pofile(str(site.parents[1] / "locales" / "fr" / "LC_MESSAGES" / "sphinx.po"))
    entries = {entry.msgid: entry.msgstr for entry in theme}
    wanted = [*progress.TOOLTIPS.values(), "Read the English page", "Help translate it"]
    assert {text: "" for text in wanted} == {text: entries.get(text) for text in wanted}
