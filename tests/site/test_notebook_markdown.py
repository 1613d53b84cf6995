"""Every downloadable notebook's Markdown reads cleanly in Jupyter, in every language.

Each Markdown cell of ``_build/html/<lang>/_downloads/*/<tutorial>.ipynb`` is rendered
with a CommonMark renderer (markdown-it-py, with GFM tables as Jupyter shows them), and
what a reader sees is compared with the tutorial's page of the same language: no raw reST,
the same tables, the same headings, links with the page's text to pages and anchors that
exist in that language on the published site, and no space between two Chinese
characters. The tutorials do not use every construct a future one may (admonitions,
``:doc:``, images...): ``notebook_sample/`` is a small project that does, built here in
each language to compare the writer's Markdown with the expected Markdown.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import re
import subprocess
import sys
import unicodedata
from collections import Counter
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup
from markdown_it import MarkdownIt

from _checkout import docs_env
from agentmsg_docs.gallery.tutorials import GALLERY_DIR, example_scripts
from agentmsg_docs.i18n.languages import LANGUAGES, SITE_URL
from agentmsg_docs.zh.typography import PRIMARY_SUBTAGS

ROOT = Path(__file__).resolve().parents[2]


LANGS = [language.code for language in LANGUAGES]
#: Every tutorial the gallery builds (from its scripts, so new tutorials are covered).
NAMES = [script.stem for script in example_scripts(ROOT / "docs")]
RENDERER = MarkdownIt("commonmark").enable("table")

#: reST left in the text a reader sees (code aside): roles, ``literals``, `links`_,
#: |substitutions|, and a directive or comment starting a paragraph.
RAW_TEXT = re.compile(r":[\w:.+-]+:`|``|`_|\|[\w -]+\||^\.\. ", re.M)
#: reST lines left in the Markdown source (outside fenced code): directives, targets,
#: substitution definitions, and options of a directive.
RAW_LINES = re.compile(r"^\s*\.\. (?:[\w:-]+::|_[^:]*:|\|)|^\s+:[\w-]+:(?:\s|$)", re.M)
#: A title's underline (or overline): a run of one punctuation character under a line.
ADORNMENT = re.compile(r"^([=\-`:'\"~^_*+#<>.])\1{2,}\s*$")
#: What a Sphinx role's target looks like when it leaks into a code span.
RAW_CODE = re.compile(r"^~[\w.]|^\S+ <[\w.]+>$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
#: Parts of a tutorial page that are not its prose: code (and the links sphinx-gallery
#: puts in it), program output, and the gallery's download links.
NOT_PROSE = [
    "highlight",
    "sphx-glr-script-out",
    "output_subarea",
    "sphx-glr-download-link-note",
    "sphx-glr-footer",
    "agentmsg-progress",  # the page's translation notice, which no notebook has
]


def notebook(site: Path, lang: str, name: str) -> Path:
    """The ``<name>.ipynb`` download of *lang*."""
    found = sorted((site / lang / "_downloads").glob(f"*/{name}.ipynb"))
    assert 1 == len(found), f"{lang}: {len(found)} downloads called {name}.ipynb"
    return found[0]


def markdown_cells(site: Path, lang: str, name: str) -> list[tuple[str, str]]:
    """``(where, source)`` of each Markdown cell; *where* names notebook, language, cell."""
    data = json.loads(notebook(site, lang, name).read_text(encoding="utf-8"))
    return [
        (f"{lang}/{name}.ipynb, cell {index}", "".join(cell["source"]))
        for index, cell in enumerate(data["cells"])
        if cell["cell_type"] == "markdown"
    ]


def render(source: str) -> BeautifulSoup:
    """The HTML a CommonMark renderer with GFM tables makes of *source*."""
    return BeautifulSoup(RENDERER.render(source), "html.parser")


def outside_fences(source: str) -> list[str]:
    """The lines of Markdown *source* that are not inside fenced code."""
    lines: list[str] = []
    fence = ""
    for line in source.split("\n"):
        match = FENCE.match(line)
        if fence:
            if match and match.group(1).startswith(fence):
                fence = ""
        elif match:
            fence = match.group(1)
        else:
            lines.append(line)
    return lines


def visible_text(html: BeautifulSoup) -> BeautifulSoup:
    """A copy of *html* with code blocks dropped and each code span replaced by ``x``."""
    copy = BeautifulSoup(str(html), "html.parser")
    for block in copy.select("pre"):
        block.decompose()
    for code in copy.select("code"):
        code.replace_with("x")
    return copy


def page_url(lang: str, name: str) -> str:
    return f"{SITE_URL}{lang}/{GALLERY_DIR}/{name}.html"


@functools.cache
def page(site: Path, lang: str, name: str) -> BeautifulSoup:
    """The article of the tutorial's page in *lang*."""
    path = site / lang / GALLERY_DIR / f"{name}.html"
    html = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    article = html.select_one("article")
    assert article is not None, f"{path}: no <article>"
    return article


@functools.cache
def ids(path: Path) -> frozenset[str]:
    """The ids (and ``<a name>``s) of an HTML file: the anchors a link can reach."""
    html = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    found = {str(tag["id"]) for tag in html.select("[id]")}
    return frozenset(found | {str(tag["name"]) for tag in html.select("a[name]")})


def words(element: BeautifulSoup) -> str:
    return " ".join(element.get_text().split())


def headings(html: BeautifulSoup) -> list[tuple[int, str]]:
    return [
        (int(tag.name[1]), words(tag).rstrip("¶").strip())
        for tag in html.select("h1, h2, h3, h4, h5, h6")
    ]


def table_shapes(html: BeautifulSoup, selector: str) -> list[tuple[int, int]]:
    """``(rows, columns)`` of each table *selector* matches."""
    return [
        (len(table.select("tr")), len(table.select("tr")[0].select("th, td")))
        for table in html.select(selector)
    ]


def wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in {"W", "F"}


def raw_rest(where: str, source: str) -> list[str]:
    """What reST the Markdown cell *source* still holds, each named with *where*."""
    found = []
    lines = outside_fences(source)
    found += [f"{where}: line {line!r}" for line in lines if RAW_LINES.match(line)]
    found += [
        f"{where}: underline {line!r} under {above!r}"
        for above, line in itertools.pairwise(lines)
        if above.strip() and ADORNMENT.match(line)
    ]
    html = render(source)
    text = visible_text(html).get_text()
    found += [f"{where}: text {match.group(0)!r}" for match in RAW_TEXT.finditer(text)]
    found += [
        f"{where}: code span {code.get_text()!r}"
        for code in html.select(":not(pre) > code")
        if RAW_CODE.search(code.get_text())
    ]
    return found


def spaces_between_wide(where: str, source: str) -> list[str]:
    """Where the rendered cell *source* shows a space between two East Asian wide
    characters (code aside)."""
    found = []
    for block in visible_text(render(source)).select("p, li, td, th, h1, h2, h3, h4, h5, h6"):
        content = block.get_text()
        found += [
            f"{where}: {content[max(0, m.start() - 12) : m.end() + 12]!r}"
            for m in re.finditer(r"(\S)\s+(?=(\S))", content)
            if wide(m.group(1)) and wide(m.group(2))
        ]
    return found


@pytest.mark.docs
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("lang", LANGS)
class TestNotebookMarkdown:
    """What a reader of each notebook sees in Jupyter, against the page of its language."""

    def test_no_raw_rest(self, built_site: Path, lang: str, name: str) -> None:
        """No role, literal, link, substitution, directive, target or title adornment of
        reST is left in a Markdown cell, and no role's target leaks into a code span."""
        found = [
            problem
            for where, source in markdown_cells(built_site, lang, name)
            for problem in raw_rest(where, source)
        ]
        assert [] == found

    def test_tables_render_as_tables(self, built_site: Path, lang: str, name: str) -> None:
        """The notebook shows the page's tables as tables, of the same shape, and no line of
        a table is left as text."""
        shapes = []
        leftovers = []
        for where, source in markdown_cells(built_site, lang, name):
            html = render(source)
            shapes += table_shapes(html, "table")
            leftovers += [
                f"{where}: {words(paragraph)[:60]!r}"
                for paragraph in html.select("p")
                if words(paragraph).startswith("|")
            ]
        assert table_shapes(page(built_site, lang, name), "table.docutils") == shapes
        assert [] == leftovers

    def test_headings_are_the_pages(self, built_site: Path, lang: str, name: str) -> None:
        """The notebook's headings are the page's: same levels, same (translated) titles."""
        found = [
            heading
            for _, source in markdown_cells(built_site, lang, name)
            for heading in headings(render(source))
        ]
        assert headings(page(built_site, lang, name)) == found

    def test_links_stay_in_the_language(self, built_site: Path, lang: str, name: str) -> None:
        """Every link is absolute; one into the site goes to the published site of the
        notebook's language, to a page and anchor that exist in ``_build/html/<lang>/``."""
        site_host = urlsplit(SITE_URL).netloc
        home = f"{SITE_URL}{lang}/"
        found = []
        for where, source in markdown_cells(built_site, lang, name):
            for link in render(source).select("a"):
                href = str(link.get("href", ""))
                parts = urlsplit(href)
                if not (parts.scheme in {"http", "https"} and parts.netloc):
                    found.append(f"{where}: not an absolute link: {href!r}")
                    continue
                if parts.netloc != site_host:
                    continue  # another site, such as https://ffmpeg.org
                if not href.startswith(home):
                    found.append(f"{where}: not a {lang} page: {href!r}")
                    continue
                address, fragment = urldefrag(href)
                target = built_site / lang / address[len(home) :]
                if not target.is_file():
                    found.append(f"{where}: no such page in _build/html/{lang}: {href!r}")
                elif fragment and fragment not in ids(target):
                    found.append(f"{where}: no #{fragment} on {target.name}: {href!r}")
        assert [] == found

    def test_links_read_as_on_the_page(self, built_site: Path, lang: str, name: str) -> None:
        """The notebook has the links of the page's prose, each with the page's text and
        target: a role shows the API name as the page does, a ``:ref:`` the target's title
        in the page's language."""
        on_page = Counter(
            (urljoin(page_url(lang, name), str(link["href"])), words(link))
            for link in page(built_site, lang, name).select("a[href]")
            if not link.find_parent(class_=NOT_PROSE)
            and "headerlink" not in (link.get("class") or [])
        )
        in_notebook = Counter(
            (str(link.get("href", "")), words(link))
            for _, source in markdown_cells(built_site, lang, name)
            for link in render(source).select("a")
        )
        assert on_page == in_notebook

    def test_no_space_between_chinese_characters(
        self, built_site: Path, lang: str, name: str
    ) -> None:
        """A line break or a space reST needed around markup never shows up as a space
        between two East Asian wide characters (code spans aside)."""
        found = [
            problem
            for where, source in markdown_cells(built_site, lang, name)
            for problem in spaces_between_wide(where, source)
        ]
        assert [] == found


# ----------------------------------------------------------------------------------------
# Title marks in Chinese: a reference to a tutorial stands in 《》, as on the page

CHINESE = [language.code for language in LANGUAGES if language.primary in PRIMARY_SUBTAGS]
#: The marks a reference can stand between.
MARKS = {"《", "》", "“", "”"}


def marks_around(link: BeautifulSoup) -> str:
    """The title marks right before and right after *link* (``"《》"``, ``"“”"`` or less)."""
    before, after = link.previous_sibling, link.next_sibling
    opening = str(before)[-1:] if isinstance(before, str) else ""
    closing = str(after)[:1] if isinstance(after, str) else ""
    return "".join(mark for mark in (opening, closing) if mark in MARKS)


def notebook_files(site: Path, lang: str, name: str) -> list[Path]:
    """The notebook of the tutorial's page and its JupyterLite copy."""
    return [notebook(site, lang, name), site / "lite" / "files" / lang / f"{name}.ipynb"]


def notebook_links(path: Path) -> list[tuple[str, str, str]]:
    """``(href, text, marks around it)`` of every link in the Markdown of *path*."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        (str(link.get("href", "")), words(link), marks_around(link))
        for cell in cells
        if cell["cell_type"] == "markdown"
        for link in render("".join(cell["source"])).select("a")
    ]


@functools.cache
def tutorial_titles(site: Path, lang: str) -> dict[str, str]:
    """The published address of each tutorial page of *lang*, and its title."""
    return {page_url(lang, name): headings(page(site, lang, name))[0][1] for name in NAMES}


@pytest.mark.docs
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("lang", CHINESE)
class TestTitleMarks:
    """The notebooks' references stand in the marks of the pages (agentmsg_docs.zh.titlemarks)."""

    def test_marks_as_on_the_page(self, built_site: Path, lang: str, name: str) -> None:
        """Every link of the notebook and of its JupyterLite copy has the marks the same
        link has on the page: 《》, “” or none."""
        on_page = Counter(
            (urljoin(page_url(lang, name), str(link["href"])), words(link), marks_around(link))
            for link in page(built_site, lang, name).select("a[href]")
            if not link.find_parent(class_=NOT_PROSE)
            and "headerlink" not in (link.get("class") or [])
        )
        for path in notebook_files(built_site, lang, name):
            assert (path.name, on_page) == (path.name, Counter(notebook_links(path)))

    def test_tutorial_titles_in_title_marks(self, built_site: Path, lang: str, name: str) -> None:
        """A link that shows a tutorial's title, to that tutorial, stands in 《》; a link
        to a page that is no tutorial (such as the API reference) never does."""
        titles = tutorial_titles(built_site, lang)
        home = f"{SITE_URL}{lang}/"
        found = []
        for path in notebook_files(built_site, lang, name):
            for href, text, marks in notebook_links(path):
                address = urldefrag(href)[0]
                if not address.startswith(home):
                    continue  # another site
                if titles.get(address) == text and marks != "《》":
                    found.append(f"{path.name}: [{text}]({href}) stands in {marks!r}, not 《》")
                if address not in titles and "《" in marks:
                    found.append(f"{path.name}: [{text}]({href}) is no tutorial, but in 《》")
        assert [] == found


# ----------------------------------------------------------------------------------------
# Every construct the writer knows, on a small project built in each language

SAMPLE = Path(__file__).resolve().parent / "notebook_sample"
#: The label of each admonition, from Sphinx's catalog of the language.
LABELS = {
    "en": {"note": "**Note:** ", "warning": "**Warning:** ", "seealso": "**See also:** "},
    "zh_CN": {"note": "**备注**：", "warning": "**警告**：", "seealso": "**参见**："},
    "es": {"note": "**Nota:** ", "warning": "**Advertencia:** ", "seealso": "**Ver también:** "},
}
TIPS = {"en": "**Tip:** ", "zh_CN": "**小技巧**：", "es": "**Truco:** "}
PRIMARY = {language.code: language.primary for language in LANGUAGES}
#: Where ``expected.txt`` has title marks that only Chinese shows, with what other
#: languages have there instead (a space, or nothing).
TITLE_MARKS = ("{《 }", "{》 }", "{》}", "{“ }", "{” }")
#: The Markdown cells of ``notebook_sample/index.rst`` (between ``<!-- cell -->`` lines);
#: ``{home}`` stands for the language's published site, ``{note}`` and the like for the
#: admonitions' labels.
EXPECTED_SAMPLE = (SAMPLE / "expected.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module", params=LANGS)
def sample(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, list[str]]:
    """``(lang, cells)``: the sample project built in *lang* (warnings are errors), and
    the Markdown cells the writer made of its page."""
    lang = request.param
    out = tmp_path_factory.mktemp(f"sample-{lang}")
    result = subprocess.run(
        [
            *(sys.executable, "-B", "-m", "sphinx", "-q", "-W", "-b", "html"),
            *(
                "-D",
                f"language={lang}",
                "-d",
                str(out / "doctrees"),
                str(SAMPLE),
                str(out / "html"),
            ),
        ],
        env=docs_env(ROOT, dict(os.environ)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert 0 == result.returncode, result.stdout + result.stderr
    cells = json.loads((out / "html" / "cells.json").read_text(encoding="utf-8"))
    return lang, cells


@pytest.mark.slow  # three Sphinx builds of the sample project
class TestMarkdownWriter:
    """The notebook writer on every construct it knows, in each language."""

    def test_writes_the_expected_markdown(self, sample: tuple[str, list[str]]) -> None:
        """Roles become links to the language's published pages with the page's text (or
        a code span), admonitions quoted blocks with Sphinx's label in the language, the
        list-table a GFM table with its code on one line; Chinese lines join without a
        space and emphasis that CommonMark cannot delimit there falls back to HTML; in
        Chinese, references to a tutorial or a section stand in 《》 or “” as on a page."""
        lang, cells = sample
        home = f"{SITE_URL}{lang}/"
        chinese = PRIMARY[lang] in PRIMARY_SUBTAGS
        expected = [
            cell.replace("{home}", home)
            .replace("{tip}", TIPS[lang])
            .replace("{note}", LABELS[lang]["note"])
            .replace("{warning}", LABELS[lang]["warning"])
            .replace("{seealso}", LABELS[lang]["seealso"])
            .replace("{caption}", "**" if chinese else "*")
            for cell in EXPECTED_SAMPLE.removesuffix("\n").split("\n<!-- cell -->\n")
        ]
        for key in TITLE_MARKS:  # "{《 }": 《 in Chinese, else what follows the mark
            expected = [cell.replace(key, key[1] if chinese else key[2:-1]) for cell in expected]
        assert expected == cells

    def test_renders_cleanly(self, sample: tuple[str, list[str]]) -> None:
        """Rendered, the cells hold no reST, one table, quoted admonitions that start with
        their label in bold, and no space between two Chinese characters."""
        lang, cells = sample
        sources = [
            (f"notebook_sample ({lang}), cell {index}", cell) for index, cell in enumerate(cells)
        ]
        html = render("\n\n".join(cells))
        labels = [*LABELS[lang].values(), TIPS[lang], "**Own title:** "]
        assert [] == [problem for where, source in sources for problem in raw_rest(where, source)]
        assert [] == [p for where, source in sources for p in spaces_between_wide(where, source)]
        assert [(3, 2)] == table_shapes(html, "table")
        assert [label.strip("* ：:") for label in labels] == [
            quote.select_one("p > strong:first-child").get_text().rstrip(":")
            for quote in html.select("blockquote")
            if quote.select_one("p > strong:first-child")
        ]
