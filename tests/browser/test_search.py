"""The search page finds the pages that say what the reader asked, in headless Chromium.

Ranking (``docs/_static/agentmsg-search.js``): each language's query set,
``search_queries/<code>.toml`` (queries as readers type them, with the pages that must come
up), is typed into the search box of the built search page, one query after another in
the same page, and the first three results are read: recall@3 is at least
:data:`RECALL` in every language.

Chinese has no spaces between words: the index holds the words jieba cut each page into,
and the query is cut the same way on the search page (``agentmsg_docs/site/search.py``,
``docs/_static/agentmsg-search-zh.js``). The pages a compound must find are read from the
built HTML: every page of the search index whose text holds the query.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from bs4 import BeautifulSoup

from _browser import DESKTOP, base_url, browser, new_context, page, serve_site
from agentmsg_docs.i18n.languages import LANGUAGES, SITE_PATH
from agentmsg_docs.zh.typography import PRIMARY_SUBTAGS

pytestmark = [pytest.mark.docs, pytest.mark.browser]

__all__ = ["base_url", "browser", "page"]  # fixtures of test_browser

CHINESE = [language.code for language in LANGUAGES if language.primary in PRIMARY_SUBTAGS]
OTHERS = [language.code for language in LANGUAGES if language.primary not in PRIMARY_SUBTAGS]
QUERIES = Path(__file__).parent / "search_queries"
LANGUAGE_CODES = {language.code for language in LANGUAGES}
#: The least recall@3 of a language's query set.
RECALL = 0.95
#: Each query set, by language code.
QUERY_SETS = sorted(path.stem for path in QUERIES.glob("*.toml"))
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
        """Searching a glossary compound lists every page whose text has it (and may
        list more: the pages of its synonyms)."""
        expected = pages_saying(built_site, lang, re.compile(re.escape(term)))
        assert expected, f"no page of {lang} says {term!r}: choose another term"
        found, errors = search(page, base_url, lang, term)
        assert (expected, []) == (expected & found, errors)

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


Relevant = str | list[str]


def query_set(code: str) -> list[tuple[str, list[Relevant]]]:
    """The queries of *code*'s set and, for each, the pages that must come up: a
    docname, or a list of docnames of which any one will do."""
    data = tomllib.loads((QUERIES / f"{code}.toml").read_text(encoding="utf-8"))
    return [(query["text"], list(query["pages"])) for query in data["query"]]


def recall_at_3(expected: list[Relevant], found: list[str]) -> float:
    """The share of *expected* pages (of at most three) among the first three *found*;
    a list of pages counts as found when any of them is.

    >>> recall_at_3(["a", "b"], ["b", "c", "a", "d"])
    1.0
    >>> recall_at_3(["a", ["b", "e"]], ["c", "d", "a", "b"])
    0.5
    >>> recall_at_3([["a", "e"]], ["e", "d", "c"])
    1.0
    """
    top = set(found[:3])
    hits = sum(1 for page in expected if top & ({page} if isinstance(page, str) else set(page)))
    return min(hits, 3) / min(len(expected), 3)


#: Has the search page finished searching for the query given?
_SEARCHED = """query => {
  const results = document.getElementById("search-results");
  return results !== null && results.dataset.query === query;
}"""
#: The docnames of the results, in order (their paths, relative to the language folder).
_RESULTS = """(prefix) => [...document.querySelectorAll("#search-results ul.search li > a")]
  .map(link => new URL(link.href).pathname.slice(prefix.length).replace(/\\.html$/, ""))"""


def typed_searches(
    page: Any, base_url: str, lang: str, queries: list[str]
) -> tuple[dict[str, list[str]], list[str]]:
    """Open *lang*'s search page once, type each of *queries* into its search box and
    read the results (docnames, in order); and the page's uncaught errors."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base_url}{lang}/search.html")
    page.wait_for_function("() => typeof Search !== 'undefined' && Search.hasIndex()")
    box = page.locator("input[name=q]:visible").first
    prefix = f"{urlsplit(base_url).path}{lang}/"
    found = {}
    for query in queries:
        box.fill(query)
        page.wait_for_function(_SEARCHED, arg=query)
        found[query] = page.evaluate(_RESULTS, prefix)
    return found, errors


@pytest.mark.parametrize("lang", QUERY_SETS)
class TestRanking:
    """The pages a reader looks for come first, in every language."""

    def test_query_set_recall_at_3(self, page: Any, base_url: str, lang: str) -> None:
        """Typed as readers type them, the queries of the language's set find their
        pages among the first three results: recall@3 of at least 0.95, without errors."""
        queries = query_set(lang)
        assert len(queries) >= 40, f"{lang}: a query set needs 40 queries at least"
        found, errors = typed_searches(page, base_url, lang, [text for text, _ in queries])
        scores = {text: recall_at_3(pages, found[text]) for text, pages in queries}
        missed = {text: (pages, found[text][:3]) for text, pages in queries if scores[text] < 1}
        recall = sum(scores.values()) / len(scores)
        assert (True, []) == (recall >= RECALL, errors), f"recall@3 {recall:.3f}: {missed}"

    def test_summaries_show_the_text_around_the_query(
        self, page: Any, base_url: str, lang: str
    ) -> None:
        """A result's summary is the page's text, not the labels of the gallery's
        pictures (「12」, 「{ }」): on the tutorials' index, the summary holds no label of
        its thumbnails."""
        page.goto(f"{base_url}{lang}/tutorial/index.html")
        labels = page.eval_on_selector_all(
            "svg text", "texts => texts.map(text => text.textContent.trim())"
        )
        title = page.inner_text("article[role=main] h1").strip("#¶ \n")
        assert labels, "the tutorials' index has no labelled thumbnail: choose another page"
        page.goto(f"{base_url}{lang}/search.html?q={quote(title)}")
        page.wait_for_function(_SEARCHED, arg=title)
        summary = page.locator("#search-results li:has(a[href*='tutorial/index']) p.context")
        text = summary.first.inner_text()
        assert [] == [
            label for label in set(labels) if re.search(rf"(^|\s){re.escape(label)}(\s|$)", text)
        ]


class TestAddedLanguage:
    """A language added with ``make add-language`` searches as well as English: its
    pages are English until translated, and its search knows the English synonyms."""

    def test_english_query_set_on_an_added_language(
        self, fourth_language_checkout: Path, browser: Any
    ) -> None:
        """On the site of every language added in that copy, the English query set
        reaches recall@3 of at least 0.95 too."""
        table = tomllib.loads(
            (fourth_language_checkout / "locales" / "languages.toml").read_text("utf-8")
        )
        added = [row["code"] for row in table["language"] if row["code"] not in LANGUAGE_CODES]
        assert added, "the copy added no language"
        queries = query_set(LANGUAGES[0].code)
        recalls = {}
        with serve_site(fourth_language_checkout / "_build" / "html") as url:
            context = new_context(browser, viewport=DESKTOP, color_scheme="light")
            for code in added:
                found, errors = typed_searches(
                    context.new_page(), url, code, [text for text, _ in queries]
                )
                assert [] == errors
                scores = [recall_at_3(pages, found[text]) for text, pages in queries]
                recalls[code] = round(sum(scores) / len(scores), 3)
            context.close()
        assert {code: True for code in added} == {
            code: recall >= RECALL for code, recall in recalls.items()
        }, recalls
