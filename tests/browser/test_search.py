"""The search page finds the pages that say what the reader asked, in headless Chromium.

Chinese has no spaces between words: the index holds the words jieba cut each page into,
and the query is cut the same way on the search page (``agentmsg_docs/search.py``,
``docs/_static/agentmsg-search-zh.js``). The pages a query must find are read from the
built HTML: every page of the search index whose text holds the query.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from bs4 import BeautifulSoup

from _browser import base_url, browser, page
from agentmsg_docs.languages import LANGUAGES, SITE_PATH
from agentmsg_docs.typography import PRIMARY_SUBTAGS

pytestmark = [pytest.mark.docs, pytest.mark.browser]

__all__ = ["base_url", "browser", "page"]  # fixtures of test_browser

CHINESE = [language.code for language in LANGUAGES if language.primary in PRIMARY_SUBTAGS]
OTHERS = [language.code for language in LANGUAGES if language.primary not in PRIMARY_SUBTAGS]
#: Glossary compounds that jieba's own dictionary does not hold as one word.
COMPOUNDS = ["丢失项", "工具调用"]
#: A word that no language inflects, for the languages split at spaces.
NAME = "Pyodide"

#: Wait until the search has finished: Sphinx writes its summary line last.
_FINISHED = """() => {
  const summary = document.querySelector("#search-results .search-summary");
  return summary !== null && summary.innerText.trim() !== "";
}"""


def index_docnames(site: Path, lang: str) -> list[str]:
    """The pages of *lang*'s search index."""
    text = (site / lang / "searchindex.js").read_text(encoding="utf-8")
    return list(json.loads(text[text.index("(") + 1 : text.rindex(")")])["docnames"])


def page_text(site: Path, lang: str, docname: str) -> str:
    """What the article of a page says (scripts and styles left out)."""
    html = BeautifulSoup((site / lang / f"{docname}.html").read_text("utf-8"), "html.parser")
    article = html.select_one("article[role=main]")
    assert article is not None, f"{lang}/{docname}.html: no <article role=main>"
    for tag in article.select("script, style"):
        tag.decompose()
    return article.get_text()


def pages_saying(site: Path, lang: str, found: re.Pattern[str]) -> set[str]:
    """The site paths of the indexed pages of *lang* whose text matches *found*."""
    return {
        f"{SITE_PATH}{lang}/{docname}.html"
        for docname in index_docnames(site, lang)
        if found.search(page_text(site, lang, docname))
    }


def search(page: Any, base_url: str, lang: str, query: str) -> tuple[set[str], list[str]]:
    """The pages (site paths) the search page of *lang* lists for *query*, and the
    page's uncaught errors."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base_url}{lang}/search.html?q={quote(query)}")
    page.wait_for_function(_FINISHED)
    hrefs = page.eval_on_selector_all(
        "#search-results ul.search li > a", "links => links.map(link => link.href)"
    )
    return {urlsplit(href).path for href in hrefs}, errors


@pytest.mark.parametrize("lang", CHINESE)
class TestChineseSearch:
    """A Chinese query is cut into the words the pages were cut into."""

    @pytest.mark.parametrize("term", COMPOUNDS)
    def test_finds_every_page_with_a_compound(
        self, built_site: Path, page: Any, base_url: str, lang: str, term: str
    ) -> None:
        """Searching a glossary compound lists exactly the pages whose text has it."""
        expected = pages_saying(built_site, lang, re.compile(re.escape(term)))
        assert expected, f"no page of {lang} says {term!r}: choose another term"
        assert (expected, []) == search(page, base_url, lang, term)

    def test_query_is_cut_by_the_index(self, page: Any, base_url: str, lang: str) -> None:
        """The splitter keeps the index's longest words, drops a lone character that no
        word starts with (the index keeps none) and keeps Latin words as they are."""
        page.goto(f"{base_url}{lang}/search.html?q={quote(COMPOUNDS[0])}")
        page.wait_for_function(_FINISHED)
        words = page.evaluate("() => splitQuery('丢失项和工具调用 to_dict()')")
        assert ["丢失项", "工具调用", "to_dict"] == words


@pytest.mark.parametrize("lang", OTHERS)
class TestOtherSearch:
    """Languages written with spaces keep Sphinx's own splitting."""

    def test_query_split_at_spaces_and_punctuation(
        self, page: Any, base_url: str, lang: str
    ) -> None:
        """The splitter is Sphinx's default: a run of Chinese stays one word."""
        page.goto(f"{base_url}{lang}/search.html?q={NAME}")
        page.wait_for_function(_FINISHED)
        words = page.evaluate("() => splitQuery('丢失项和工具调用 to_dict()')")
        assert ["丢失项和工具调用", "to_dict"] == words

    def test_finds_every_page_with_a_name(
        self, built_site: Path, page: Any, base_url: str, lang: str
    ) -> None:
        """Searching a name lists exactly the pages whose text has it as a word."""
        expected = pages_saying(built_site, lang, re.compile(rf"\b{NAME}\b", re.IGNORECASE))
        assert expected, f"no page of {lang} says {NAME!r}: choose another word"
        assert (expected, []) == search(page, base_url, lang, NAME)
