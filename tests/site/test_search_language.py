"""Chinese search: the index's words (agentmsg_docs/search.py) and the query splitter
(docs/_static/agentmsg-search-zh.js, run by Node.js when it is installed), without a site
build, and on the built index for every glossary term (the browser tests search some)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from bs4 import BeautifulSoup

from agentmsg_docs import search
from agentmsg_docs.languages import LANGUAGES
from agentmsg_docs.typography import PRIMARY_SUBTAGS

ROOT = Path(__file__).resolve().parents[2]
CHINESE = [language for language in LANGUAGES if language.primary in PRIMARY_SUBTAGS]
OTHERS = [language for language in LANGUAGES if language.primary not in PRIMARY_SUBTAGS]


def glossary(code: str) -> Path:
    return ROOT / "locales" / code / "GLOSSARY.md"


@pytest.fixture(scope="module", params=[language.code for language in CHINESE])
def language(request: pytest.FixtureRequest) -> search.ChineseSearch:
    return search.ChineseSearch({"dict": "", "glossary": str(glossary(request.param))})


class TestJiebaWords:
    def test_the_glossary_s_chinese_terms(self) -> None:
        """The words jieba learns are the glossary's renderings in Han characters alone."""
        words = search.jieba_words(glossary("zh_CN"))
        assert {"丢失项", "工具调用", "工具调用块", "文心一言"} <= set(words)
        assert set() == {"AI 消息", "token 用量", "项", "流", "ID"} & set(words)

    def test_no_glossary_no_words(self, tmp_path: Path) -> None:
        assert [] == search.jieba_words(tmp_path / "GLOSSARY.md")


class TestIndexWords:
    def test_a_compound_is_one_word_beside_its_parts(self, language: search.ChineseSearch) -> None:
        """A glossary compound is indexed whole, and so are its parts."""
        words = language.split("转换会报告丢失项和工具调用")
        assert {"丢失项", "丢失", "工具调用", "工具", "调用"} <= set(words)

    def test_a_long_word_indexes_the_words_inside_it(self, language: search.ChineseSearch) -> None:
        """Inside 工具调用块, jieba's search mode gives 工具 and 调用 only; 工具调用 too."""
        words = language.split("每个工具调用块都有 id")
        assert {"工具调用块", "工具调用", "工具", "调用", "id"} <= set(words)


class TestConfig:
    @pytest.mark.parametrize("code", [language.code for language in CHINESE])
    def test_a_chinese_build_uses_it(self, code: str) -> None:
        """A language of the table whose primary subtag is Chinese gets this search
        language and its glossary."""
        added: list[type[Any]] = []
        app = SimpleNamespace(add_search_language=added.append)
        config = SimpleNamespace(language=code, html_search_options={}, exclude_patterns=[])
        search._config_inited(app, config)  # type: ignore[arg-type]
        assert ([search.ChineseSearch], str(glossary(code))) == (
            added,
            config.html_search_options["glossary"],
        )

    @pytest.mark.parametrize("code", [language.code for language in OTHERS])
    def test_other_builds_keep_sphinx_s(self, code: str) -> None:
        added: list[type[Any]] = []
        app = SimpleNamespace(add_search_language=added.append)
        config = SimpleNamespace(language=code, html_search_options={}, exclude_patterns=[])
        search._config_inited(app, config)  # type: ignore[arg-type]
        assert ([], {}) == (added, config.html_search_options)

    @pytest.mark.parametrize("code", [language.code for language in LANGUAGES])
    def test_the_splitter_is_no_static_file(self, code: str) -> None:
        """No build copies the splitter to ``_static/`` as a file of its own."""
        app = SimpleNamespace(add_search_language=lambda cls: None)
        config = SimpleNamespace(language=code, html_search_options={}, exclude_patterns=[])
        search._config_inited(app, config)  # type: ignore[arg-type]
        assert ["**/agentmsg-search-zh.js"] == config.exclude_patterns

    def test_the_splitter_goes_to_the_search_page(self) -> None:
        """Sphinx writes ``js_splitter_code`` into ``language_data.js``."""
        assert search.SPLITTER.read_text("utf-8") == search.ChineseSearch.js_splitter_code


#: Runs the splitter in Node.js against an index of a few words.
_NODE = """
const fs = require("fs");
const [file, query, words] = process.argv.slice(1);
const list = JSON.parse(words);  // null: the index has not loaded
const terms = list && Object.fromEntries(list.map(word => [word, 0]));
globalThis.Search = {_index: list && {terms: terms, titleterms: {}}};
eval(fs.readFileSync(file, "utf8") + "\\nglobalThis.splitQuery = splitQuery;");
console.log(JSON.stringify(splitQuery(query)));
"""


def split_query(query: str, words: list[str] | None) -> list[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed (the browser tests run the splitter too)")
    result = subprocess.run(
        [node, "-e", _NODE, str(search.SPLITTER), query, json.dumps(words)],
        capture_output=True,
        text=True,
        check=True,
    )
    found: list[str] = json.loads(result.stdout)
    return found


#: The words of a small index.
WORDS = ["丢失", "丢失项", "工具", "调用", "工具调用", "报告", "to_dict"]


class TestQuerySplitter:
    def test_longest_words_of_the_index(self) -> None:
        """The longest word of the index wins; a lone character between words goes."""
        assert ["丢失项", "工具调用"] == split_query("丢失项和工具调用", WORDS)

    def test_latin_and_punctuation_as_sphinx_splits_them(self) -> None:
        assert ["调用", "to_dict", "x1"] == split_query("调用to_dict() x1", WORDS)

    def test_characters_of_no_word_stay_one_word(self) -> None:
        """Two or more characters that start no word of the index are asked for as they
        are (they find nothing, as an unknown word does in any language)."""
        assert ["工具", "火星人", "报告"] == split_query("工具火星人报告", WORDS)

    def test_before_the_index_has_loaded_nothing_is_cut(self) -> None:
        """Without an index, the query is split as Sphinx splits it."""
        assert ["丢失项和工具调用", "x"] == split_query("丢失项和工具调用 x", None)


#: Looks each query up in a built search index as searchtools.js does for words that the
#: index holds: the pages that have every word the splitter gives, in text or a title.
_LOOKUP = """
const fs = require("fs");
const [file, index, queries] = process.argv.slice(1);
const text = fs.readFileSync(index, "utf8");
const data = JSON.parse(text.slice(text.indexOf("(") + 1, text.lastIndexOf(")")));
globalThis.Search = {_index: data};
eval(fs.readFileSync(file, "utf8") + "\\nglobalThis.splitQuery = splitQuery;");
const pages = word => new Set([].concat(data.terms[word] ?? [], data.titleterms[word] ?? []));
const found = {};
for (const query of JSON.parse(queries)) {
  const sets = splitQuery(query).map(pages);
  const all = sets.length ? [...sets[0]].filter(page => sets.every(set => set.has(page))) : [];
  found[query] = all.map(page => data.docnames[page]).sort();
}
console.log(JSON.stringify(found));
"""


@pytest.mark.parametrize("code", [language.code for language in CHINESE])
def test_every_glossary_term_finds_its_pages(built_site: Path, code: str) -> None:
    """Each Chinese term of the glossary that the pages use is found on exactly the pages
    whose text has it: the index and the splitter cut it alike."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    site = built_site / code
    index = (site / "searchindex.js").read_text(encoding="utf-8")
    docnames = json.loads(index[index.index("(") + 1 : index.rindex(")")])["docnames"]
    texts = {}
    for docname in docnames:
        html = BeautifulSoup((site / f"{docname}.html").read_text("utf-8"), "html.parser")
        article = html.select_one("article[role=main]")
        assert article is not None, f"{code}/{docname}.html: no <article role=main>"
        for tag in article.select("script, style"):
            tag.decompose()
        texts[docname] = article.get_text()
    expected = {
        term: sorted(docname for docname, text in texts.items() if term in text)
        for term in search.jieba_words(glossary(code))
    }
    expected = {term: pages for term, pages in expected.items() if pages}
    result = subprocess.run(
        [
            node,
            "-e",
            _LOOKUP,
            str(search.SPLITTER),
            str(site / "searchindex.js"),
            json.dumps(list(expected)),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert len(expected) > 20
    assert expected == json.loads(result.stdout)


@pytest.mark.parametrize("code", [language.code for language in LANGUAGES])
def test_the_built_search_page_s_splitter(built_site: Path, code: str) -> None:
    """A Chinese build's ``language_data.js`` holds the splitter, another's does not, and
    no build ships it as a file of its own."""
    static = built_site / code / "_static"
    data = (static / "language_data.js").read_text(encoding="utf-8")
    chinese = code in {language.code for language in CHINESE}
    assert (chinese, False) == (
        search.SPLITTER.read_text(encoding="utf-8") in data,
        (static / search.SPLITTER.name).exists(),
    )
