"""Visible translation state (``agentmsg_docs.i18n.progress``): blocks in English marked
``lang="en"``, and the notice that opens their page.

The fast tests check the counting; the slow one builds, in one copy of the repository,
four languages after French was added (0 % translated) and one English paragraph changed.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import polib
import pytest
from bs4 import BeautifulSoup, Comment, Tag

from _checkout import (
    BLANKED_LANGUAGE,
    BLANKED_PAGE,
    CHANGED_PAGE,
    FIRST_TRANSLATIONS,
    NEW_PARAGRAPH,
    ROOT,
)
from _english import CODE, _is_data, english_words, parameter_names
from _languages import COMPLETE
from agentmsg_docs.i18n import progress
from agentmsg_docs.i18n.po import entry_states

#: What marks a block in English, or the notice, in a page's markup; or an element in
#: English (but the language switcher's link to English, an English page's root and code,
#: such as the losses the conversion matrix quotes as the code writes them).
MARKS = re.compile(
    r'class="[^"]*\b(untranslated|agentmsg-changed|agentmsg-progress)\b'
    r'|<(?!html\b|code\b)(\w+)(?![^>]*data-agentmsg-language)[^>]*\slang="en"'
)
#: The languages that copy adds, 0 % translated.
NEW = ("ja", "fr")
#: The notice's first sentence in each: Japanese has its translation (FIRST_TRANSLATIONS).
SENTENCE = progress.SENTENCES[progress.UNTRANSLATED]
NOTICES = {"fr": SENTENCE, "ja": FIRST_TRANSLATIONS["ja"][SENTENCE]}
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
def site(fourth_language_checkout: Path) -> Path:
    """The copy with one English paragraph changed and Japanese and French added
    (``tests/conftest.py``), built in five languages: its ``_build/html``."""
    return fourth_language_checkout / "_build" / "html"


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
@pytest.mark.parametrize("lang", NEW)
@pytest.mark.parametrize("name", ["index", "installation", "tutorial/tools", "tutorial/index"])
def test_new_language_blocks_are_english(site: Path, name: str, lang: str) -> None:
    """A language added is 0 % translated: every prose block of a page carries
    ``lang="en"`` (itself or from the block around it) and the page opens with the "N %"
    notice, linking to the English page and to the translation guide."""
    article = _article(site / lang / f"{name}.html")
    unmarked = [
        tag.get_text(" ", strip=True)[:60]
        for tag in _blocks(article)
        if not any(isinstance(p, Tag) and p.get("lang") == "en" for p in [tag, *tag.parents])
    ]
    assert [] == unmarked
    notice = _notice(article)
    assert notice is not None
    sentence = NOTICES[lang] % {"percent": 0}
    assert notice.get_text().strip().startswith(sentence)
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
    assert [NEW_PARAGRAPH] == [tag.get_text(" ", strip=True) for tag in marked]
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
    """Every other page of a complete language is fresh (but Spanish's with a blanked
    entry): no notice, no marked block, no English run, none of the markup at all."""
    pages = sorted(site.joinpath(lang).rglob("*.html"))
    assert len(pages) > 10
    changed = {CHANGED_PAGE, *([BLANKED_PAGE] if lang == BLANKED_LANGUAGE else [])}
    shown = {
        path.relative_to(site / lang).as_posix(): MARKS.findall(path.read_text("utf-8"))
        for path in pages
        if path.relative_to(site / lang).with_suffix("").as_posix() not in changed
    }
    assert {} == {page: found for page, found in shown.items() if found}


@pytest.mark.slow
def test_english_shows_nothing(site: Path) -> None:
    """The English pages carry none of it."""
    pages = site.joinpath("en").rglob("*.html")
    assert [] == [p.name for p in pages if MARKS.search(p.read_text("utf-8"))]


@pytest.mark.slow
@pytest.mark.parametrize("lang", NEW)
def test_notice_joins_as_the_language_writes(site: Path, lang: str) -> None:
    """The notice's parts follow one another as the language writes them: translated
    Japanese with nothing between its sentence and the link, an English sentence (French,
    untranslated) with a space, which also stands marked ``lang="en"``."""
    notice = _notice(_article(site / lang / "tutorial" / "tools.html"))
    assert notice is not None
    paragraph = notice.find("p")
    assert isinstance(paragraph, Tag)
    texts = FIRST_TRANSLATIONS.get(lang, {})
    read, help_ = (texts.get(text, text) for text in ("Read the English page", "Help translate it"))
    sentence = NOTICES[lang] % {"percent": 0}
    gap = "" if lang in FIRST_TRANSLATIONS else " "
    in_english = [tag.get_text() for tag in paragraph.find_all(lang="en")]
    assert (f"{sentence}{gap}{read} · {help_}", [] if texts else [sentence, read, help_]) == (
        paragraph.get_text().strip(),
        in_english,
    )


@pytest.mark.slow
def test_new_language_gets_the_strings(site: Path) -> None:
    """``add-language`` gives French the notice's and tooltips' strings to translate,
    empty (the pages show them in English until then)."""
    theme = polib.pofile(str(site.parents[1] / "locales" / "fr" / "LC_MESSAGES" / "sphinx.po"))
    entries = {entry.msgid: entry.msgstr for entry in theme}
    wanted = [*progress.TOOLTIPS.values(), "Read the English page", "Help translate it"]
    assert {text: "" for text in wanted} == {text: entries.get(text) for text in wanted}


def _texts(page: BeautifulSoup) -> list[tuple[str, Tag]]:
    """The visible prose texts of *page*'s body, normalized, with the element that holds
    each: code, output, a card's data and the API's parameter names left out (they are
    the same in every language)."""
    body = page.find("body")
    assert isinstance(body, Tag)
    parameters = parameter_names(page)
    found = []
    for text in body.find_all(string=True):
        if isinstance(text, Comment) or not text.strip():
            continue
        parents = [parent for parent in text.parents if isinstance(parent, Tag)]
        if any(parent.name in CODE or _is_data(parent) for parent in parents):
            continue
        if parents[0].name in {"em", "strong"} and text.strip() in parameters:
            continue
        found.append((" ".join(text.split()), parents[0]))
    return found


@functools.cache
def own_words(lang: str) -> frozenset[str]:
    """What Sphinx's and docutils' own translations into *lang* write: a word they spell as
    the English does (French "Index", "Note") is the language's."""
    import gettext

    import docutils.languages
    import sphinx

    mo = Path(sphinx.__file__).parent / "locale" / lang / "LC_MESSAGES" / "sphinx.mo"
    texts = [*docutils.languages.get_language(lang).labels.values()]
    if mo.is_file():
        with mo.open("rb") as handle:
            texts += [str(text) for text in gettext.GNUTranslations(handle)._catalog.values()]
    return frozenset(" ".join(text.split()) for text in texts)


def unmarked_english(page: Path, english: Path, lang: str) -> list[str]:
    """The texts of *page* (in *lang*) that are the English page's (a text of *english*,
    with a word that is no name or code, that Sphinx's catalog of *lang* does not write)
    and stand in no element whose language is English."""
    source = {text for text, _ in _texts(BeautifulSoup(english.read_text("utf-8"), "html.parser"))}
    found = []
    for text, holder in _texts(BeautifulSoup(page.read_text("utf-8"), "html.parser")):
        if text not in source or not english_words(text, "zh_CN") or text in own_words(lang):
            continue
        declared = next(
            (tag.get("lang") for tag in [holder, *holder.parents] if tag.get("lang")), None
        )
        if declared != "en":
            found.append(f"<{holder.name}> {text[:70]!r}")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("lang", NEW)
def test_every_english_run_is_marked(site: Path, lang: str) -> None:
    """On every page of a language 0 % translated, every text that is the English page's
    stands inside an element marked ``lang="en"`` (WCAG 3.1.2): blocks, field lists,
    titles wherever they are copied (navigation, tables of contents, cards), the theme's
    strings and the chat cards' labels."""
    problems = {}
    for page in sorted((site / lang).rglob("*.html")):
        name = page.relative_to(site / lang)
        english = site / "en" / name
        if english.is_file() and name.parts[0] not in {"_static", "_sources", "_downloads"}:
            found = unmarked_english(page, english, lang)
            if found:
                problems[name.as_posix()] = found[:8]
    assert {} == problems


@pytest.mark.slow
def test_the_english_scan_finds_an_unmarked_run(site: Path, tmp_path: Path) -> None:
    """A page whose English runs lost their ``lang`` is reported (meta-test)."""
    page = site / "fr" / "tutorial" / "tools.html"
    copy = tmp_path / "tools.html"
    copy.write_text(page.read_text("utf-8").replace(' lang="en"', ""), "utf-8")
    english = site / "en" / "tutorial" / "tools.html"
    assert [] == unmarked_english(page, english, "fr")
    assert len(unmarked_english(copy, english, "fr")) > 20


@pytest.mark.parametrize("lang", COMPLETE)
def test_complete_languages_show_nothing(built_site: Path, lang: str) -> None:
    """The session's build of each complete language marks nothing: no notice, no block
    or run in English, on any page."""
    pages = sorted((built_site / lang).rglob("*.html"))
    found = {
        p.relative_to(built_site).as_posix(): MARKS.findall(p.read_text("utf-8")) for p in pages
    }
    assert {} == {page: marks for page, marks in found.items() if marks}
