"""Every code example a reader sees on the site is one the test suite runs.

The built HTML of each language is inventoried (every highlighted code block in a page's
body) and each block is matched with what the suite executes:

- **gallery cells**: the code blocks sphinx-gallery splits out of ``docs/examples/*.py``
  (run by ``tests/site/test_tutorial_outputs.py`` and by the docs build itself);
- **prose examples**: code blocks and doctests of the pages, the gallery scripts' prose
  and the docstrings shown on the API page, as ``tests/helpers/_examples.py`` collects them with
  Sybil (run by ``tests/site/test_doc_examples.py``).

A block deliberately not run is listed in :data:`NOT_RUN` with the reason; any other
block that matches nothing fails. Translations must show the same blocks as English.
"""

from __future__ import annotations

import doctest
import functools
from collections import Counter
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag
from sphinx_gallery.py_source_parser import (
    remove_config_comments,
    split_code_and_text_blocks,
)

from _examples import gallery_scripts, parse_document, prose_sources
from _languages import pages
from agentmsg_docs.i18n.comments import SHELL, strip_comments
from agentmsg_docs.i18n.languages import LANGUAGES, TRANSLATED

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
LANGS = tuple(language.code for language in LANGUAGES)
TRANSLATED_LANGS = [language.code for language in TRANSLATED]

#: Code blocks shown but not run, by (page, first line): shell commands and a file tree.
NOT_RUN: dict[tuple[str, str], str] = {
    ("index", "pip install agentmsg"): "installs from PyPI: needs the network",
    ("installation", "pip install agentmsg"): "installs from PyPI: needs the network",
    ("installation", "make test   # run every test"): "shell commands; CI runs make test and html",
    ("installation", "make html LANGS=en"): "shell commands; CI builds the site (test_build)",
    ("translating", "locales/"): "a folder tree, not code",
    (
        "translating",
        "make update-po",
    ): "rewrites the catalogs; test_catalogs checks they are current",
    (
        "translating",
        "make stats",
    ): "shell command; test_catalogs runs python -m agentmsg_docs stats",
    ("translating", "make html LANGS=zh_CN"): "shell commands; CI builds and test_site checks",
}

Lines = tuple[str, ...]


def normalized(text: str) -> Lines:
    """The non-blank lines of *text*, right-stripped."""
    return tuple(line.rstrip() for line in text.split("\n") if line.strip())


def shown_code(block: Tag) -> Lines:
    """The code of a highlighted block as a reader would type it: for a doctest session
    (``>>>`` prompts), the prompted lines without prompts and without the output."""
    text = block.get_text()
    if text.lstrip().startswith(">>>"):
        text = "\n".join(
            line[4:]
            for line in text.split("\n")
            if line.startswith((">>> ", "... ")) or line in (">>>", "...")
        )
    return normalized(text)


@functools.cache
def code_blocks(page: Path) -> list[tuple[str, Lines]]:
    """``(lexer, code lines)`` of every highlighted code block in the page's body; the
    gallery's output boxes are output, not code, and are left out."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    body = soup.select_one("article") or soup
    blocks = []
    for div in body.select('div[class*="highlight-"]'):
        classes = list(div.get("class") or [])
        if "sphx-glr-script-out" in classes:
            continue
        lexer = next(c for c in classes if c.startswith("highlight-"))[len("highlight-") :]
        blocks.append((lexer, shown_code(div)))
    return blocks


@functools.cache
def gallery_cells(script: Path) -> list[Lines]:
    """The code cells sphinx-gallery shows for *script* (config comments removed)."""
    _, blocks = split_code_and_text_blocks(str(script))
    cells = [normalized(remove_config_comments(b.content)) for b in blocks if b.type == "code"]
    return [cell for cell in cells if cell]


def sources_of(page: str) -> list[Path]:
    """The files whose prose examples appear on *page*."""
    if page.startswith("tutorial/"):
        name = page.split("/", 1)[1]
        script = DOCS / "examples" / f"{name}.py"
        return [script] if script.is_file() else [DOCS / "examples" / "GALLERY_HEADER.rst"]
    found = [DOCS / f"{page}{suffix}" for suffix in (".md", ".rst")]
    found = [path for path in found if path.is_file()]
    if page == "api":
        found += sorted((ROOT / "src" / "agentmsg").rglob("*.py"))
    return found


@functools.cache
def executed_lines(path: Path) -> list[Lines]:
    """For each prose example Sybil runs in *path*, its code lines."""
    if path not in set(_prose_sources()):
        return []
    runs = []
    for example in parse_document(path):
        parsed = example.parsed
        source = parsed.source if isinstance(parsed, doctest.Example) else str(parsed)
        runs.append(normalized(source))
    return runs


@functools.cache
def _prose_sources() -> tuple[Path, ...]:
    return tuple(prose_sources())


def contains(haystack: Lines, needle: Lines) -> bool:
    """Whether *needle* occurs in *haystack* as a contiguous run of lines."""
    size = len(needle)
    return any(haystack[i : i + size] == needle for i in range(len(haystack) - size + 1))


def _bare(lines: Lines, lexer: str) -> Lines:
    """*lines* without their comments (Python's, or a shell's for a shell block)."""
    language = lexer if lexer.lower() in SHELL else "python"
    return normalized(strip_comments("\n".join(lines), language))


def account(page: str, blocks: list[tuple[str, Lines]]) -> dict[str, list[str]]:
    """Match a page's blocks with what runs: ``{"gallery": [...], "prose": [...],
    "not run": [...], "unaccounted": [...]}``, each block named by its first line."""
    cells: Counter[Lines] = Counter()
    if page.startswith("tutorial/"):
        script = DOCS / "examples" / f"{page.split('/', 1)[1]}.py"
        if script.is_file():
            cells.update(gallery_cells(script))
    prose = [executed_lines(path) for path in sources_of(page)]
    joined = [tuple(line for run in runs for line in run) for runs in prose]
    # Comments are in the reader's language: the code is compared without them.
    cells = Counter({_bare(cell, "python"): count for cell, count in cells.items()})
    joined = [_bare(lines, "python") for lines in joined]
    not_run = {(name, _bare((line,), "python")) for name, line in NOT_RUN}
    result: dict[str, list[str]] = {"gallery": [], "prose": [], "not run": [], "unaccounted": []}
    for lexer, shown in blocks:
        first = shown[0] if shown else ""
        code = _bare(shown, lexer)
        if cells[code] > 0:
            cells[code] -= 1
            result["gallery"].append(first)
        elif code and any(contains(lines, code) for lines in joined):
            result["prose"].append(first)
        elif (page, _bare((first,), lexer)) in not_run:
            result["not run"].append(first)
        else:
            result["unaccounted"].append(f"{page}: {lexer} block starting {first!r}")
    return result


class TestInventory:
    """The code blocks of every page, in every language, are accounted for."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_every_block_runs_or_is_listed(self, built_site: Path, lang: str) -> None:
        """Each code block is a gallery cell, a prose example Sybil runs, or in NOT_RUN."""
        unaccounted = [
            item
            for page, path in pages(built_site, lang).items()
            for item in account(page, code_blocks(path))["unaccounted"]
        ]
        assert [] == unaccounted

    @pytest.mark.parametrize("lang", LANGS)
    def test_every_gallery_cell_is_shown(self, built_site: Path, lang: str) -> None:
        """Each tutorial page shows each code cell of its script exactly once."""
        expected = {}
        actual = {}
        for script in gallery_scripts():
            page = f"tutorial/{script.stem}"
            blocks = code_blocks(built_site / lang / f"{page}.html")
            expected[page] = len(gallery_cells(script))
            actual[page] = len(account(page, blocks)["gallery"])
        assert expected == actual

    def test_not_run_list_is_current(self, built_site: Path) -> None:
        """Each NOT_RUN entry still names a block on the site (no stale exceptions)."""
        listed = {
            (page, first)
            for page, path in pages(built_site, "en").items()
            for first in account(page, code_blocks(path))["not run"]
        }
        assert set(NOT_RUN) == listed

    @pytest.mark.parametrize("lang", TRANSLATED_LANGS)
    def test_translations_show_the_same_blocks(self, built_site: Path, lang: str) -> None:
        """Each page of a translation has the English page's code blocks, in order (their
        comments in the page's language)."""

        def bare(path: Path) -> list[tuple[str, Lines]]:
            return [(lexer, _bare(code, lexer)) for lexer, code in code_blocks(path)]

        english = {page: bare(path) for page, path in pages(built_site, "en").items()}
        translated = {page: bare(path) for page, path in pages(built_site, lang).items()}
        assert english == translated

    def test_counts(self, built_site: Path) -> None:
        """The suite runs what the site shows: per language, the same number of gallery
        cells, prose examples and listed exceptions (and the counts are not zero)."""
        counts = {}
        for lang in LANGS:
            total: Counter[str] = Counter()
            for page, path in pages(built_site, lang).items():
                for kind, items in account(page, code_blocks(path)).items():
                    total[kind] += len(items)
            counts[lang] = dict(total)
        assert counts["en"]["gallery"] > 0 and counts["en"]["prose"] > 0
        assert {lang: counts["en"] for lang in LANGS} == counts
