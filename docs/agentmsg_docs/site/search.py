"""Site search: pages ranked by where and how often they say the query, in every language.

Sphinx builds the index (``searchindex.js``) and the search page; this module adds what
its ranking lacks; Chinese word splitting is :mod:`agentmsg_docs.zh.search`'s.

Ranking. Sphinx scores a page by the best of its query words alone, without counting
them, so every page that mentions "image" ties, sorted by name. After the build,
:func:`add_ranking` adds to ``searchindex.js`` what ``_static/agentmsg-search.js`` (the
search page's ranking, written into ``language_data.js`` as Sphinx's
``html_search_scorer``) needs: how often each page says each indexed word (:func:`page_words`),
the depth of the headings a word is in (the page title is 1), each page's length, and the
language's synonyms (:func:`synonyms`).

Synonyms. ``locales/<code>/SYNONYMS.toml``, beside the glossary that translators keep,
maps the words readers type to the words the pages use (令牌 → token, «transmisión» →
flujo); the search page looks for either.
"""

from __future__ import annotations

import functools
import json
import time
import tomllib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from docutils import nodes

from agentmsg_docs.i18n.languages import LANGUAGES, built_language
from agentmsg_docs.site.descriptions import describe
from agentmsg_docs.zh.search import SPLITTER, use_chinese_search
from agentmsg_docs.zh.typography import PRIMARY_SUBTAGS

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.search import SearchLanguage

__all__ = [
    "RANKER",
    "SYNONYMS",
    "TIMING",
    "PageWords",
    "add_ranking",
    "language_synonyms",
    "page_words",
    "ranking",
    "synonyms",
]

STATIC = Path(__file__).resolve().parents[2] / "_static"
#: The search page's ranking, live search and result summaries (every build).
RANKER = STATIC / "agentmsg-search.js"
LOCALES = Path(__file__).resolve().parents[3] / "locales"
#: The synonyms' file name, in ``locales/<code>/``.
SYNONYMS = "SYNONYMS.toml"
#: The key of :func:`ranking`'s data in ``searchindex.js``.
KEY = "agentmsg"
_INDEX_PREFIX = "Search.setIndex("


def synonyms(path: Path) -> dict[str, list[str]]:
    """The synonyms of ``SYNONYMS.toml`` at *path*: each word or phrase a reader may type
    (lower case) and the words the pages use for it. No file, no synonyms.

    Raises:
        ValueError: the file's ``[synonyms]`` table maps a word to something other than a
            non-empty string or list of them.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder, "SYNONYMS.toml")
    ...     _ = path.write_text('[synonyms]\\n"Picture" = "image"\\n'
    ...                         '"function call" = ["tool call", "tool use"]\\n')
    ...     synonyms(path)
    {'picture': ['image'], 'function call': ['tool call', 'tool use']}
    """
    if not path.is_file():
        return {}
    table = tomllib.loads(path.read_text(encoding="utf-8")).get("synonyms", {})
    found: dict[str, list[str]] = {}
    for word, meant in table.items():
        words = [meant] if isinstance(meant, str) else meant
        if not (isinstance(words, list) and words and all(isinstance(w, str) and w for w in words)):
            msg = (
                f"{path}: `synonyms.{word}` must be a word or a list of words "
                f"the pages use, not {meant!r}."
            )
            raise ValueError(msg)
        found[word.strip().lower()] = [w.strip() for w in words]
    return found


def language_synonyms(code: str) -> dict[str, list[str]]:
    """The synonyms of language *code*; for one in progress, whose untranslated text is
    the source language's, the source language's too (its own first)."""
    own = synonyms(LOCALES / code / SYNONYMS)
    language = next((row for row in LANGUAGES if row.code == code), None)
    if language is None or language.complete or language is LANGUAGES[0]:
        return own
    return {**synonyms(LOCALES / LANGUAGES[0].code / SYNONYMS), **own}


@dataclass
class PageWords:
    """What the ranking knows of one page: its indexed words, stemmed as Sphinx stems
    them, with their counts; the depth of the shallowest heading each title word is in
    (1: the page title); the words of its lead (its description: the prose before its
    first subsection); the number of words."""

    counts: Counter[str] = field(default_factory=Counter)
    depths: dict[str, int] = field(default_factory=dict)
    lead: set[str] = field(default_factory=set)
    length: int = 0


def _indexed(word: str, language: SearchLanguage) -> str | None:
    """*word* as Sphinx's ``IndexBuilder.feed`` indexes it, or None if it does not."""
    stemmed = language.stem(word).lower()
    if not language.word_filter(stemmed) and language.word_filter(word):
        stemmed = word
    return stemmed if language.word_filter(stemmed) else None


def _searched(node: nodes.Node) -> bool:
    """Whether Sphinx's index reads *node*'s text (not a comment, raw HTML or a
    ``no-search`` element, nor inside one)."""
    parent: nodes.Node | None = node.parent
    while parent is not None:
        if isinstance(parent, (nodes.comment, nodes.raw)):
            return False
        if isinstance(parent, nodes.Element) and "no-search" in parent["classes"]:
            return False
        parent = parent.parent
    return True


def page_words(doctree: nodes.document, language: SearchLanguage) -> PageWords:
    """The words of *doctree* that Sphinx indexes in *language*, counted, with the depth
    of their headings. Raw HTML (gallery cards) is left out: it repeats other pages'
    titles."""
    page = PageWords()
    for text in doctree.findall(nodes.Text):
        if not _searched(text):
            continue
        for word in language.split(text.astext()):
            page.length += 1
            if (indexed := _indexed(word, language)) is not None:
                page.counts[indexed] += 1
    for title in doctree.findall(nodes.title):
        if not isinstance(title.parent, nodes.section) or not _searched(title):
            continue
        depth = sum(1 for ancestor in _ancestors(title) if isinstance(ancestor, nodes.section))
        for word in language.split(title.astext()):
            if (indexed := _indexed(word, language)) is not None:
                page.depths[indexed] = min(depth, page.depths.get(indexed, depth))
    for word in language.split(describe(doctree)):
        if (indexed := _indexed(word, language)) is not None:
            page.lead.add(indexed)
    return page


def _ancestors(node: nodes.Node) -> list[nodes.Node]:
    found = []
    parent = node.parent
    while parent is not None:
        found.append(parent)
        parent = parent.parent
    return found


def _docs(entry: int | list[int]) -> list[int]:
    return [entry] if isinstance(entry, int) else list(entry)


def ranking(
    index: dict[str, Any], pages: dict[str, PageWords], words: dict[str, list[str]]
) -> dict[str, Any]:
    """What the search page ranks with, for Sphinx's frozen *index*, from the *pages*
    (by docname) and the language's synonyms *words*:

    - ``counts``: for each word of ``terms`` that a page says more than once, its counts,
      in the order of the word's pages (a word said once is left out); ``titlecounts``,
      the same for ``titleterms`` (Sphinx lists a page under a word in one of the two);
    - ``depths``: for each word of ``titleterms``, its heading depths, in the order of the
      word's pages; ``leads``: for each word of ``terms`` in a page's lead, 1 for the
      pages whose lead has it, else 0;
    - ``lengths``: each page's number of words; ``synonyms``: *words*.
    """
    docnames: list[str] = index["docnames"]
    empty = PageWords()
    page = [pages.get(docname, empty) for docname in docnames]

    def counted(table: dict[str, int | list[int]]) -> dict[str, list[int]]:
        found = {}
        for word, entry in table.items():
            counts = [max(1, page[doc].counts[word]) for doc in _docs(entry)]
            if any(count > 1 for count in counts):
                found[word] = counts
        return found

    depths = {
        word: [page[doc].depths.get(word, 2) for doc in _docs(entry)]
        for word, entry in index["titleterms"].items()
    }
    leads = {}
    for word, entry in index["terms"].items():
        found = [int(word in page[doc].lead) for doc in _docs(entry)]
        if any(found):
            leads[word] = found
    return {
        "counts": counted(index["terms"]),
        "titlecounts": counted(index["titleterms"]),
        "depths": depths,
        "leads": leads,
        "lengths": [p.length for p in page],
        "synonyms": words,
    }


def add_ranking(path: Path, pages: dict[str, PageWords], words: dict[str, list[str]]) -> None:
    """Add :func:`ranking`'s data to the ``searchindex.js`` at *path*, under ``agentmsg``
    (``Search.setIndex`` keeps the whole object, so the search page reads it there)."""
    text = path.read_text(encoding="utf-8")
    if not (text.startswith(_INDEX_PREFIX) and text.endswith(")")):
        msg = f"{path} is not a search index Sphinx writes (Search.setIndex(...))"
        raise ValueError(msg)
    index = json.loads(text[len(_INDEX_PREFIX) : -1])
    index[KEY] = ranking(index, pages, words)
    data = json.dumps(index, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    path.write_text(f"{_INDEX_PREFIX}{data})", encoding="utf-8")


#: What each build (by ``id(app)``) learnt of its pages, and the CPU seconds its search
#: index took: Sphinx's indexing and dump, and this module's counting and ranking data.
_PAGES: dict[int, dict[str, PageWords]] = {}
_SECONDS: dict[int, float] = {}
#: Where a build records those seconds, in its doctrees folder (``make bench`` reads it).
TIMING = "agentmsg-search.json"

_Callable = TypeVar("_Callable", bound=Callable[..., Any])


def _timed(app: Sphinx, function: _Callable) -> _Callable:
    """*function*, its CPU time added to *app*'s search seconds."""

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            _SECONDS[id(app)] = _SECONDS.get(id(app), 0.0) + time.process_time() - start

    return cast("_Callable", timed)


def _doctree_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    # The HTML builder makes its indexer before it resolves the first page, and feeds
    # it this doctree; its language splits and stems as the index does.
    indexer = getattr(app.builder, "indexer", None)
    if indexer is None:
        return
    if id(app) not in _PAGES:  # the first page: time Sphinx's own search work too
        _PAGES[id(app)] = {}
        indexer.feed = _timed(app, indexer.feed)
        builder: Any = app.builder
        builder.dump_search_index = _timed(app, builder.dump_search_index)
    start = time.process_time()
    _PAGES[id(app)][docname] = page_words(doctree, indexer.lang)
    _SECONDS[id(app)] = _SECONDS.get(id(app), 0.0) + time.process_time() - start


def _build_finished(app: Sphinx, exception: BaseException | None) -> None:
    pages = _PAGES.pop(id(app), None)
    path = Path(app.outdir) / "searchindex.js"
    if exception is not None or pages is None or not path.is_file():
        _SECONDS.pop(id(app), None)
        return
    language = built_language(app.config)
    _timed(app, add_ranking)(path, pages, language_synonyms(language.code))
    timing = {"language": language.code, "cpu_seconds": _SECONDS.pop(id(app), 0.0)}
    (Path(app.doctreedir) / TIMING).write_text(json.dumps(timing), encoding="utf-8")


def _config_inited(app: Sphinx, config: Config) -> None:
    # The scripts reach the search page inside language_data.js, not as files of their
    # own (exclude_patterns apply to html_static_path too; "**/" matches at its top).
    config.exclude_patterns = [
        *config.exclude_patterns,
        f"**/{SPLITTER.name}",
        f"**/{RANKER.name}",
    ]
    if not config.html_search_scorer:
        config.html_search_scorer = str(RANKER)
    language = built_language(config)
    if language.primary in PRIMARY_SUBTAGS:
        use_chinese_search(app, config, LOCALES / language.code / "GLOSSARY.md")


def register(app: Sphinx) -> None:
    # After agentmsg_docs.i18n.languages, which sets the table's search language (priority 900).
    app.connect("config-inited", _config_inited, priority=901)
    app.connect("doctree-resolved", _doctree_resolved)
    app.connect("build-finished", _build_finished)
