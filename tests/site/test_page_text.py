"""What the built pages say around their markup, in every language: title marks on
Chinese cross-references, dashes of field lists, types as Python writes them, the page
descriptions, and the search page's strings."""

from __future__ import annotations

import functools
import html as html_lib
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, NavigableString, Tag

from _languages import pages
from agentmsg_docs.i18n.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.docs

LANGS = [language.code for language in LANGUAGES]
CJK = "\u3400-\u4dbf\u4e00-\u9fff"


@functools.cache
def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def _neighbour_text(node: Tag, forward: bool) -> str:
    """The character of text right before (or after) *node*, within its paragraph."""
    sibling = node.next_sibling if forward else node.previous_sibling
    while sibling is not None:
        text = sibling if isinstance(sibling, NavigableString) else sibling.get_text()
        if text:
            return str(text)[0] if forward else str(text)[-1]
        sibling = sibling.next_sibling if forward else sibling.previous_sibling
    return ""


def _heading(page: Path, fragment: str) -> tuple[str, bool] | None:
    """The heading text the link *fragment* of *page* points to, and whether it is the
    page's title; None when it points to no heading."""
    if not page.is_file():
        return None
    document = soup(page)
    target = document.find(id=fragment) if fragment else document.select_one("article section")
    if target is not None and target.name == "span":  # a label at a section's start
        target = target.parent if target.parent.name == "section" else target.find_next("section")
    if target is None or target.name != "section":
        return None
    heading = target.find(re.compile("^h[1-6]$"))
    if heading is None:
        return None
    return heading.get_text().rstrip("#¶ ").strip(), heading.name == "h1"


def reference_marks(site: Path) -> tuple[list[str], int, int]:
    """Problems with the marks around zh_CN cross-references in sentences, and how many
    references to a tutorial and to a section were seen."""
    problems, tutorials, sections = [], 0, 0
    for path in pages(site, "zh_CN").values():
        for link in soup(path).select("article p a.reference.internal"):
            if link.find("span", class_=["std-ref", "doc"]) is None:
                continue
            if link.parent.get_text().strip() == link.get_text().strip():
                continue  # a link alone, not in a sentence (a gallery card)
            href, _, fragment = link.get("href", "").partition("#")
            target = (path.parent / href).resolve() if href else path
            found = _heading(target, fragment)
            text = link.get_text()
            if found is None or found[0] != text:
                continue  # a link with text of its own
            around = _neighbour_text(link, False) + _neighbour_text(link, True)
            where = f"{path.relative_to(site)}: {text!r}"
            is_tutorial = found[1] and target.parent.name == "tutorial" and target.stem != "index"
            if is_tutorial:
                tutorials += 1
                if around != "《》":
                    problems.append(f"{where} is a tutorial's title, marked {around!r}")
            elif not found[1]:
                sections += 1
                if around != "“”":
                    problems.append(f"{where} is a section's title, marked {around!r}")
    return problems, tutorials, sections


class TestTitleMarks:
    def test_zh_cn_references(self, built_site: Path) -> None:
        """In zh_CN, a reference that shows a tutorial's title stands in 《》, one that
        shows a section's title in “”; there are some of each."""
        problems, tutorials, sections = reference_marks(built_site)
        assert [] == problems
        assert tutorials >= 5
        assert sections >= 1

    def test_the_scan_finds_a_bare_title(self, built_site: Path, tmp_path: Path) -> None:
        """A copy of a page whose 《》 are gone fails (meta-test)."""
        for name in ("multimodal.html", "create_message.html", "migration.html"):
            source = built_site / "zh_CN" / "tutorial" / name
            copy = tmp_path / "zh_CN" / "tutorial" / name
            copy.parent.mkdir(parents=True, exist_ok=True)
            text = source.read_text(encoding="utf-8")
            if name == "multimodal.html":
                text = text.replace("详见《", "详见").replace("》教程。", "教程。")
            copy.write_text(text, encoding="utf-8")
        problems, _, _ = reference_marks(tmp_path)
        assert any("multimodal.html" in problem for problem in problems), problems

    def test_the_migration_sentence(self, built_site: Path) -> None:
        """The review's example reads 详见《从 AgentScope 或 ERNIE Bot Agent 迁移》教程."""
        page = soup(built_site / "zh_CN" / "tutorial" / "multimodal.html")
        texts = [p.get_text() for p in page.select("article p")]
        assert any("详见《从 AgentScope 或 ERNIE Bot Agent 迁移》教程。" in t for t in texts)

    @pytest.mark.parametrize("lang", ["en", "es"])
    def test_other_languages_get_none(self, built_site: Path, lang: str) -> None:
        text = (built_site / lang / "tutorial" / "multimodal.html").read_text(encoding="utf-8")
        assert "《" not in text


class TestFieldListsAndTypes:
    @pytest.mark.parametrize("lang", LANGS)
    def test_dashes(self, built_site: Path, lang: str) -> None:
        """A parameter and its description are joined by an en dash in every language,
        never by ASCII ``--``."""
        fields = [
            dd.get_text() for dd in soup(built_site / lang / "api.html").select("dl.field-list dd")
        ]
        assert fields
        assert [] == [text for text in fields if " -- " in text]
        assert any(" – " in text for text in fields)

    @pytest.mark.parametrize("lang", LANGS)
    def test_types_are_python(self, built_site: Path, lang: str) -> None:
        """``tuple[Loss, ...]`` reads as Python, not with an ellipsis character."""
        text = soup(built_site / lang / "api.html").select_one("article").get_text()
        assert "tuple[Loss, ...]" in text
        assert "Loss, …" not in text


_BAD = (
    (re.compile(r"  "), "double space"),
    (re.compile(r",\s*,"), "empty list item"),
    (re.compile(r"[（「“] |[ ](?=[）」”、，。；：])"), "space inside Chinese punctuation"),
    (re.compile(f"[{CJK}）]:"), "ASCII colon after Chinese"),
    (re.compile(f"[{CJK}][.][A-Za-z]"), "no space before a Latin word"),
    (re.compile(r"`|(?<![\w:]):[a-z]+:`"), "markup"),
)


def description_problems(site: Path, lang: str) -> list[str]:
    problems = []
    for path in pages(site, lang).values():
        page = soup(path)
        meta = page.find("meta", attrs={"name": "description"})
        og = page.find("meta", attrs={"property": "og:description"})
        where = path.relative_to(site)
        if meta is None and og is None:
            continue
        if meta is None or og is None:
            problems.append(f"{where}: one of the two descriptions is missing")
            continue
        text = html_lib.unescape(meta["content"])
        if text != html_lib.unescape(og["content"]):
            problems.append(f"{where}: meta and og:description differ")
        for pattern, what in _BAD:
            if match := pattern.search(text):
                near = text[max(0, match.start() - 10) : match.end() + 10]
                problems.append(f"{where}: {what}: {near!r}")
        body = " ".join((page.select_one("article") or page).get_text().split())
        if text[:20] not in body.replace(" ", "") and text[:20] not in body:
            problems.append(f"{where}: the description does not come from the page: {text[:40]!r}")
    return problems


class TestDescriptions:
    @pytest.mark.parametrize("lang", LANGS)
    def test_every_page(self, built_site: Path, lang: str) -> None:
        """Each page's description and og:description are the same clean text, taken
        from the page: no flattened table, no markup, no stray or missing spaces."""
        assert [] == description_problems(built_site, lang)

    @pytest.mark.parametrize("lang", LANGS)
    def test_gallery_stops_before_its_cards(self, built_site: Path, lang: str) -> None:
        """The tutorial list's description is its introduction, without the first card's
        title and text."""
        page = soup(built_site / lang / "tutorial" / "index.html")
        description = page.find("meta", attrs={"name": "description"})["content"]
        first = page.find(class_="sphx-glr-thumbcontainer").get_text(" ", strip=True)
        assert description and first
        assert first[:12] not in description

    def test_tutorials_have_one(self, built_site: Path) -> None:
        for lang in LANGS:
            page = soup(built_site / lang / "tutorial" / "model_apis.html")
            assert page.find("meta", attrs={"name": "description"}) is not None, lang

    def test_the_scan_finds_a_flattened_table(self, built_site: Path, tmp_path: Path) -> None:
        """A page whose description reads like opengraph's flattened table fails (meta-test)."""
        source = built_site / "zh_CN" / "index.html"
        copy = tmp_path / "zh_CN" / "index.html"
        copy.parent.mkdir(parents=True)
        flat = "四种格式:,,, 格式, 发往 API"
        text = re.sub(
            r'(<meta name="description" content=")[^"]*', rf"\g<1>{flat}", source.read_text("utf-8")
        )
        copy.write_text(text, encoding="utf-8")
        soup.cache_clear()
        assert len(description_problems(tmp_path, "zh_CN")) >= 2


def test_search_result_location_reads_as_chinese(built_site: Path) -> None:
    """Sphinx's search shows "<name>, in <page>"; zh_CN says ，位于 (the review)."""
    text = (built_site / "zh_CN" / "_static" / "translations.js").read_text(encoding="utf-8")
    assert '", in ": "，位于 "' in text


def test_search_strings_agree(built_site: Path) -> None:
    """zh_CN's search summary reads the same for one page and many, and the page and
    ``translations.js`` ask alike to enable JavaScript (the review)."""
    text = (built_site / "zh_CN" / "_static" / "translations.js").read_text(encoding="utf-8")
    assert "匹配到" not in text
    assert "激活" not in text
    assert "请启用 JavaScript 以使用搜索功能。" in text


def index_entries(site: Path, lang: str) -> list[list[str]]:
    """Each letter's top-level entries of the general index, as the page lists them."""
    page = soup(site / lang / "genindex.html")
    groups = []
    for table in page.select("table.indextable"):
        items = table.select("td > ul > li")
        groups.append([" ".join(next(item.stripped_strings, "").split()) for item in items])
    return groups


@pytest.mark.parametrize("lang", LANGS)
def test_general_index_in_reading_order(built_site: Path, lang: str) -> None:
    """A name comes before the longer names it begins in every language, though the
    Chinese patterns put a full-width parenthesis after it (the zh_CN review)."""
    from agentmsg_docs.site.html_pages import index_key

    groups = index_entries(built_site, lang)
    assert groups and all(group == sorted(group, key=index_key) for group in groups)
    entries = [entry for group in groups for entry in group]
    position = {
        entry.split("（")[0].split(" (")[0]: i for i, entry in reversed(list(enumerate(entries)))
    }
    assert position["AIMessage"] < position["AIMessageChunk"]
    assert position["Message"] < position["MessageError"]
