"""A Chinese or Spanish reader meets no English outside code, program output and the
tutorials' own data.

Every zh_CN and es page is read as a reader meets it: its text, and the attributes a
browser shows or reads out (``alt``, ``aria-label``, ``title``, ``placeholder``, the
``<title>``), plus the texts the site's scripts and style sheets write (sphinx-gallery's
output label, the copy button's messages, the search page's messages). Code (``code``,
``pre``, code blocks), printed output and a chat card's data (sender, role, texts, JSON)
are left out: they are what the code wrote. What remains is checked for English words:
on Chinese pages any Latin word not on the allow-list, on Spanish pages English words
(a list of common ones that are not also Spanish). The allow-list,
``tests/helpers/english_allowed.txt``, holds names that every language writes alike.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Comment, NavigableString, Tag
from docutils import nodes
from docutils.utils import new_document

from _english import CODE, TRANSLATED_LANGS, pages, scan
from agentmsg_docs.i18n.languages import LANGUAGES
from agentmsg_docs.zh.typography import FullWidthVersionPunctuation


class TestNoEnglishOnTranslatedPages:
    """No English is left on the Chinese and Spanish pages, but for code and data."""

    @pytest.mark.parametrize("lang", TRANSLATED_LANGS)
    def test_page_texts(self, built_site: Path, lang: str) -> None:
        """Every prose text and shown attribute of every page is in the page's language."""
        assert [] == scan(built_site, lang)

    @pytest.mark.parametrize("lang", TRANSLATED_LANGS)
    def test_the_scanner_finds_english(self, built_site: Path, lang: str, tmp_path: Path) -> None:
        """An English sentence slipped into a copy of a page, as text and as an ``alt``,
        is reported with the page (meta-test: the scanner can fail)."""
        source = built_site / lang / "installation.html"
        copy = tmp_path / lang / "installation.html"
        copy.parent.mkdir(parents=True)
        html = source.read_text(encoding="utf-8").replace(
            "</article>",
            '<p>Download the notebook here.</p><img alt="the image of a tool call"></article>',
            1,
        )
        copy.write_text(html, encoding="utf-8")
        found = scan(tmp_path, lang)
        assert 2 == len(found), found
        assert all(line.startswith(f"{lang}/installation.html") for line in found)


CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
FULL_WIDTH = "\u3000-\u303f\uff00-\uffef"
SPACED_CJK = re.compile(f"[{CJK}{FULL_WIDTH}] +[{CJK}{FULL_WIDTH}]")
TIGHT = re.compile(f"[{CJK}][A-Za-z0-9]|[A-Za-z0-9][{CJK}]")
PROSE = "p, li, h1, h2, h3, h4, dt, td, th, figcaption, .caption-text"


def prose_text(element: Tag) -> str:
    """The text of *element* as a reader sees it, each code span standing as ``X``."""
    parts = []
    for node in element.descendants:
        if isinstance(node, NavigableString) and not isinstance(node, Comment):
            if not any(parent.name in CODE for parent in node.parents if parent is not element):
                parts.append(str(node))
        elif isinstance(node, Tag) and node.name in {"code", "kbd"}:
            parts.append("X")
    return " ".join("".join(parts).split("\n"))


def typography_problems(site: Path) -> list[str]:
    found = []
    for path in pages(site, "zh_CN"):
        page = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        article = page.find("article") or page
        for element in article.select(PROSE):
            if element.find_parent(class_=["highlight", "sphx-glr-script-out", "agentmsg-card"]):
                continue
            if element.find(["p", "ul", "ol", "div"]):  # its blocks are checked one by one
                continue
            text = prose_text(element)
            for pattern, what in ((SPACED_CJK, "space between Chinese"), (TIGHT, "no space")):
                for match in pattern.finditer(text):
                    near = text[max(0, match.start() - 12) : match.end() + 12]
                    found.append(f"{path.relative_to(site)}: {what}: {near!r}")
    return found


class TestChineseTypography:
    """On every zh_CN page, Chinese reads as Chinese: no space between two Chinese
    characters (inline markup included), one between Chinese and Latin or digits."""

    def test_every_page(self, built_site: Path) -> None:
        """No prose text of any zh_CN page breaks either rule."""
        assert [] == typography_problems(built_site)

    def test_markup_boundaries_are_joined(self, built_site: Path) -> None:
        """A link between Chinese words joins them (the translation wrote spaces around
        it, as reST needs): the index page's link to the installation page, in the
        quotes a Chinese sentence puts around another page's title."""
        page = BeautifulSoup(
            (built_site / "zh_CN" / "index.html").read_text(encoding="utf-8"), "html.parser"
        )
        texts = [prose_text(p) for p in page.select("article p")]
        assert any("见“安装”页面" in text for text in texts), texts

    def test_version_sentences_end_full_width(self) -> None:
        """``versionadded`` sentences end with a full-width full stop or colon (0.1.0, the
        first release, marks no name as added, so the transform runs on a small tree)."""
        document = new_document("api.rst")
        sentences = [
            ("在 0.2.0 版本中新增.", "在 0.2.0 版本中新增。"),
            ("在 0.2.0 版本中变更:", "在 0.2.0 版本中变更："),
        ]
        for sentence, _ in sentences:
            document += nodes.paragraph(
                "", "", nodes.inline("", sentence, classes=["versionmodified"])
            )
        document += nodes.paragraph("", "不变.")
        FullWidthVersionPunctuation(document).run()
        assert [full for _, full in sentences] + ["不变."] == [
            paragraph.astext() for paragraph in document.findall(nodes.paragraph)
        ]

    def test_base_classes_are_enumerated(self, built_site: Path) -> None:
        """Two base classes read ``基类：MessageError、AttributeError``, not with a comma
        and a space (Sphinx joins them in code, where no catalog reaches)."""
        page = BeautifulSoup(
            (built_site / "zh_CN" / "api.html").read_text(encoding="utf-8"), "html.parser"
        )
        bases = [p.get_text() for p in page.select("dd > p") if p.get_text().startswith("基类")]
        assert "基类：MessageError、AttributeError" in bases, bases

    def test_the_scan_finds_a_stray_space(self, built_site: Path, tmp_path: Path) -> None:
        """A copy of a page with 保存 与加载 and 调用to_dict fails both rules (meta-test)."""
        source = built_site / "zh_CN" / "installation.html"
        copy = tmp_path / "zh_CN" / "installation.html"
        copy.parent.mkdir(parents=True)
        html = source.read_text(encoding="utf-8").replace(
            "</article>", "<p>保存 与加载</p><p>调用to_dict</p></article>", 1
        )
        copy.write_text(html, encoding="utf-8")
        found = typography_problems(tmp_path)
        assert 2 == len(found), found


#: What reST or MyST markup leaves in a page when a translation breaks it: a double
#: backquote (a literal whose end docutils did not see: in ``None``（ a full-width opening
#: bracket cannot end inline markup, so the literal runs on to the next ``), or a role
#: written out (:class:`...`).
LEFTOVER = re.compile(r"``|(?<![\w:]):[a-z]+(?::[a-z]+)?:`")


def markup_leftovers(site: Path) -> list[str]:
    found = []
    for lang in (language.code for language in LANGUAGES):
        for path in pages(site, lang):
            page = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
            article = page.find("article")
            if article is None:
                continue
            for element in article.find_all(string=LEFTOVER):
                inside_code = any(parent.name in {"pre", "code"} for parent in element.parents)
                if inside_code and "``" not in element:
                    continue  # a role shown as code (the translating page's examples)
                found.append(f"{path.relative_to(site)}: {str(element).strip()[:80]!r}")
    return found


class TestNoMarkupLeftovers:
    """No page shows markup that docutils did not parse: every literal and role of every
    translation ended where its writer meant it to."""

    def test_every_page(self, built_site: Path) -> None:
        """No text of any page (code included) holds a double backquote, and no prose
        a written-out role."""
        assert [] == markup_leftovers(built_site)

    def test_the_scan_finds_a_runaway_literal(self, built_site: Path, tmp_path: Path) -> None:
        """A literal that ran on past a full-width bracket, and a role left as text, are
        both found (meta-test)."""
        source = built_site / "zh_CN" / "installation.html"
        copy = tmp_path / "zh_CN" / "installation.html"
        copy.parent.mkdir(parents=True)
        html = source.read_text(encoding="utf-8").replace(
            "</article>",
            "<p><code>None``（见 ``x</code></p><p>参见 :class:`Msg`</p></article>",
            1,
        )
        copy.write_text(html, encoding="utf-8")
        assert 2 == len(markup_leftovers(tmp_path)), markup_leftovers(tmp_path)
