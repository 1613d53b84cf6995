"""Search: the index's words (agentmsg_docs/zh/search.py), the synonyms and the ranking
data added to ``searchindex.js`` (agentmsg_docs/site/search.py), and the Chinese query splitter
(docs/_static/agentmsg-search-zh.js, run by Node.js when it is installed), without a site
build (a page of a small project, built with the installed Sphinx), and on the built
index for every glossary term (the browser tests search some).

:class:`TestSmallBuild` needs no site: run it with the newest Sphinx too, in a scratch
environment (Sphinx 9 no longer calls a search language's ``init()``)::

    python3.13 -m venv /tmp/sphinx9 && /tmp/sphinx9/bin/pip install sphinx jieba pytest bs4
    /tmp/sphinx9/bin/python -m pytest -p no:cacheprovider --noconftest -o addopts="" \
        --rootdir=/tmp tests/site/test_search_language.py -k TestSmallBuild
"""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from bs4 import BeautifulSoup

from agentmsg_docs.i18n.languages import LANGUAGES
from agentmsg_docs.site import search
from agentmsg_docs.zh import search as zh_search
from agentmsg_docs.zh.typography import PRIMARY_SUBTAGS

ROOT = Path(__file__).resolve().parents[2]
CHINESE = [language for language in LANGUAGES if language.primary in PRIMARY_SUBTAGS]
OTHERS = [language for language in LANGUAGES if language.primary not in PRIMARY_SUBTAGS]


def glossary(code: str) -> Path:
    return ROOT / "locales" / code / "GLOSSARY.md"


@pytest.fixture(scope="module", params=[language.code for language in CHINESE])
def language(request: pytest.FixtureRequest) -> zh_search.ChineseSearch:
    return zh_search.ChineseSearch({"dict": "", "glossary": str(glossary(request.param))})


class TestJiebaWords:
    def test_the_glossary_s_chinese_terms(self) -> None:
        """The words jieba learns are the glossary's renderings in Han characters alone."""
        words = zh_search.jieba_words(glossary("zh_CN"))
        assert {"丢失项", "工具调用", "工具调用块", "文心一言"} <= set(words)
        assert set() == {"AI 消息", "token 用量", "项", "流", "ID"} & set(words)

    def test_no_glossary_no_words(self, tmp_path: Path) -> None:
        assert [] == zh_search.jieba_words(tmp_path / "GLOSSARY.md")


class TestIndexWords:
    def test_a_compound_is_one_word_beside_its_parts(
        self, language: zh_search.ChineseSearch
    ) -> None:
        """A glossary compound is indexed whole, and so are its parts."""
        words = language.split("转换会报告丢失项和工具调用")
        assert {"丢失项", "丢失", "工具调用", "工具", "调用"} <= set(words)

    def test_a_long_word_indexes_the_words_inside_it(
        self, language: zh_search.ChineseSearch
    ) -> None:
        """Inside 工具调用块, jieba's search mode gives 工具 and 调用 only; 工具调用 too."""
        words = language.split("每个工具调用块都有 id")
        assert {"工具调用块", "工具调用", "工具", "调用", "id"} <= set(words)


#: The page of the small project: glossary compounds, and a word said twice.
SMALL_PAGE = """Losses
======

转换会报告丢失项、推理项和工具调用。每个丢失项都有说明。

Tokens
------

token 用量。
"""


@pytest.fixture(scope="module")
def small_build(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The search index of a one-page zh_CN project that uses this module, built in
    this process with the installed Sphinx."""
    from sphinx.application import Sphinx

    source = tmp_path_factory.mktemp("small")
    (source / "index.rst").write_text(SMALL_PAGE, encoding="utf-8")
    (source / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT / 'docs')!r})\n"
        "language = 'zh_CN'\n"
        "html_search_language = 'zh'\n"
        "def setup(app):\n"
        "    from agentmsg_docs.site import search\n"
        "    search.register(app)\n",
        encoding="utf-8",
    )
    out = source / "_build"
    # A Sphinx application sets up the "sphinx" logger for itself (its handlers prefix
    # warnings, it stops propagating): put it back for the tests that run after this one.
    logger = logging.getLogger("sphinx")
    saved = (logger.handlers[:], logger.filters[:], logger.level, logger.propagate)
    try:
        app = Sphinx(source, source, out / "html", out / "doctrees", "html", status=None)
        app.build(force_all=True)
    finally:
        logger.handlers[:], logger.filters[:], logger.level, logger.propagate = saved
    text = (out / "html" / "searchindex.js").read_text(encoding="utf-8")
    index: dict[str, Any] = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    index["language_data"] = (out / "html" / "_static" / "language_data.js").read_text("utf-8")
    return index


class TestSmallBuild:
    def test_glossary_compounds_are_words_of_the_index(self, small_build: dict[str, Any]) -> None:
        """The glossary's compounds are indexed whole, on any Sphinx: jieba learns them
        when the search language is made, not in ``init()`` (no longer called on 9)."""
        words = set(small_build["terms"]) | set(small_build["titleterms"])
        assert {"丢失项", "推理项", "工具调用"} == {"丢失项", "推理项", "工具调用"} & words

    def test_the_ranking_data_is_added(self, small_build: dict[str, Any]) -> None:
        """``searchindex.js`` carries the counts of words said more than once, the depth
        of the headings words are in, and the language's synonyms."""
        data = small_build["agentmsg"]
        assert ([2], [2], ["token"]) == (
            data["counts"]["丢失项"],
            data["depths"]["token"],
            data["synonyms"]["令牌"],
        )

    def test_the_ranker_goes_to_the_search_page(self, small_build: dict[str, Any]) -> None:
        """Sphinx writes the ranker (``html_search_scorer``) into ``language_data.js``."""
        assert search.RANKER.read_text("utf-8") in small_build["language_data"]


class TestSynonyms:
    @pytest.mark.parametrize("code", [language.code for language in LANGUAGES])
    def test_every_language_has_synonyms(self, code: str) -> None:
        """Each language of the table keeps its synonyms beside its glossary."""
        assert len(search.synonyms(ROOT / "locales" / code / search.SYNONYMS)) >= 20

    def test_a_value_that_is_no_word_is_refused(self, tmp_path: Path) -> None:
        """A synonym's value must be a word or a list of words; the message names the
        entry and the value."""
        path = tmp_path / "SYNONYMS.toml"
        path.write_text('[synonyms]\n"picture" = 3\n', encoding="utf-8")
        with pytest.raises(ValueError) as raised:
            search.synonyms(path)
        assert (
            f"{path}: `synonyms.picture` must be a word or a list of words the pages use, not 3."
        ) == str(raised.value)

    def test_no_file_no_synonyms(self, tmp_path: Path) -> None:
        assert {} == search.synonyms(tmp_path / "SYNONYMS.toml")


class TestConfig:
    @pytest.mark.parametrize("code", [language.code for language in CHINESE])
    def test_a_chinese_build_uses_it(self, code: str) -> None:
        """A language of the table whose primary subtag is Chinese gets this search
        language and its glossary."""
        added: list[type[Any]] = []
        app = SimpleNamespace(add_search_language=added.append)
        config = SimpleNamespace(
            language=code, html_search_options={}, exclude_patterns=[], html_search_scorer=""
        )
        search._config_inited(app, config)  # type: ignore[arg-type]
        assert ([zh_search.ChineseSearch], str(glossary(code))) == (
            added,
            config.html_search_options["glossary"],
        )

    @pytest.mark.parametrize("code", [language.code for language in OTHERS])
    def test_other_builds_keep_sphinx_s(self, code: str) -> None:
        added: list[type[Any]] = []
        app = SimpleNamespace(add_search_language=added.append)
        config = SimpleNamespace(
            language=code, html_search_options={}, exclude_patterns=[], html_search_scorer=""
        )
        search._config_inited(app, config)  # type: ignore[arg-type]
        assert ([], {}) == (added, config.html_search_options)

    @pytest.mark.parametrize("code", [language.code for language in LANGUAGES])
    def test_the_splitter_is_no_static_file(self, code: str) -> None:
        """No build copies the splitter to ``_static/`` as a file of its own."""
        app = SimpleNamespace(add_search_language=lambda cls: None)
        config = SimpleNamespace(
            language=code, html_search_options={}, exclude_patterns=[], html_search_scorer=""
        )
        search._config_inited(app, config)  # type: ignore[arg-type]
        assert ["**/agentmsg-search-zh.js", "**/agentmsg-search.js"] == config.exclude_patterns

    def test_the_splitter_goes_to_the_search_page(self) -> None:
        """Sphinx writes ``js_splitter_code`` into ``language_data.js``."""
        assert zh_search.SPLITTER.read_text("utf-8") == zh_search.ChineseSearch.js_splitter_code


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
        [node, "-e", _NODE, str(zh_search.SPLITTER), query, json.dumps(words)],
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
        for term in zh_search.jieba_words(glossary(code))
    }
    expected = {term: pages for term, pages in expected.items() if pages}
    result = subprocess.run(
        [
            node,
            "-e",
            _LOOKUP,
            str(zh_search.SPLITTER),
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
        zh_search.SPLITTER.read_text(encoding="utf-8") in data,
        (static / zh_search.SPLITTER.name).exists(),
    )


class TestAddLanguageStub:
    def test_a_new_language_gets_an_empty_synonyms_table(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """``make add-language`` writes ``SYNONYMS.toml``: no synonyms yet, and the English
        site's as comments for the translators."""
        from agentmsg_docs.i18n import new_language

        english = ROOT / "locales" / LANGUAGES[0].code / search.SYNONYMS
        (tmp_path / LANGUAGES[0].code).mkdir()
        (tmp_path / LANGUAGES[0].code / search.SYNONYMS).write_bytes(english.read_bytes())
        (tmp_path / "fr").mkdir()
        monkeypatch.setattr(new_language, "LOCALES", tmp_path)
        stub = new_language._synonyms("fr", "Français")
        assert ({}, True) == (
            search.synonyms(stub),
            '# "picture" = "image"' in stub.read_text(encoding="utf-8"),
        )


class TestLanguageSynonyms:
    @pytest.mark.parametrize("code", [language.code for language in LANGUAGES if language.complete])
    def test_a_complete_language_has_its_own(self, code: str) -> None:
        """A complete language searches with its own synonyms alone."""
        path = ROOT / "locales" / code / search.SYNONYMS
        assert search.synonyms(path) == search.language_synonyms(code)

    def test_a_language_in_progress_has_the_source_s_too(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A language in progress shows untranslated text in the source language, so its
        search also knows the source language's synonyms (its own win)."""
        row = search.LANGUAGES[1]
        progress = type(row)(**{**vars(row), "code": "fr", "status": "in progress"})
        monkeypatch.setattr(search, "LANGUAGES", (*search.LANGUAGES, progress))
        monkeypatch.setattr(
            search,
            "synonyms",
            lambda path: {
                "en": {"picture": ["image"], "photo": ["image"]},
                "fr": {"photo": ["photo"]},
            }[path.parent.name],
        )
        assert {"picture": ["image"], "photo": ["photo"]} == search.language_synonyms("fr")
