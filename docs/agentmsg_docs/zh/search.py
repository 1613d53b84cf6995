"""Chinese search: the index cut into words as the pages were, and queries cut the same way.

Sphinx indexes a Chinese page with jieba (:mod:`sphinx.search.zh`), but the
browser splits a query only at spaces and punctuation, so ``丢失项`` or ``工具调用`` is
one word that the index never holds (the mismatch of sphinx#7293). In a build whose
language has a primary subtag of :data:`~agentmsg_docs.zh.typography.PRIMARY_SUBTAGS` (read
from the table of languages), :class:`ChineseSearch` takes the place of Sphinx's Chinese
search language:

- jieba learns the glossary's terms (:func:`jieba_words`) when the language is made (not
  in ``init()``, which Sphinx 9 no longer calls), so that a glossary compound such as 丢失项
  is a word of the index, beside its parts;
- a word also indexes the dictionary words inside it that jieba's search mode leaves out
  (four characters or more: 工具调用 inside 工具调用块);
- its query splitter, ``_static/agentmsg-search-zh.js``, goes into ``language_data.js``
  (Sphinx's ``js_splitter_code``): it cuts a query's Chinese by longest match against the
  words of the index, so the query asks for the words the pages were cut into.

:mod:`agentmsg_docs.site.search` calls :func:`use_chinese_search` when it sets up a Chinese build.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.search.zh import SearchChinese

from agentmsg_docs.i18n.glossary import terms

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

__all__ = ["SPLITTER", "ChineseSearch", "jieba_words", "use_chinese_search"]

#: The query splitter of the Chinese builds (JavaScript, run on the search page).
SPLITTER = Path(__file__).resolve().parents[2] / "_static" / "agentmsg-search-zh.js"
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
#: The shortest word inside another that jieba's search mode does not index itself.
_LONG = 4


def jieba_words(glossary: Path) -> list[str]:
    """The terms of *glossary* that jieba can learn as words: those written in Han
    characters alone, two or more (the index keeps no word of one character).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder, "GLOSSARY.md")
    ...     _ = path.write_text("| a | b |\\n|---|---|\\n| loss | 丢失项 |\\n| id | ID |\\n"
    ...                         "| item | 项 / 推理项 |\\n| chat API | 聊天 API |\\n")
    ...     jieba_words(path)
    ['丢失项', '推理项']
    """
    if not glossary.is_file():
        return []
    return [term for term in terms(glossary) if _HAN.fullmatch(term)]


class ChineseSearch(SearchChinese):
    """Sphinx's Chinese search language, with the glossary's words and a query splitter
    that cuts a query as the index was cut.

    Options (``html_search_options``): Sphinx's ``dict`` (a jieba user dictionary), and
    ``glossary``, the path of a ``GLOSSARY.md`` whose terms jieba learns. They are read
    when the language is made: Sphinx 8 calls ``init()`` from ``__init__``, Sphinx 9 no
    longer calls it.
    """

    js_splitter_code = SPLITTER.read_text(encoding="utf-8")

    def __init__(self, options: dict[str, str]) -> None:
        import jieba

        super().__init__(options)
        for word in jieba_words(Path(options.get("glossary", ""))):
            jieba.add_word(word)  # with the frequency that keeps it one word

    def split(self, input: str) -> list[str]:
        import jieba

        words = super().split(input)
        inner = [
            part
            for word in words
            if len(word) > _LONG and _HAN.fullmatch(word)
            for size in range(_LONG, len(word))
            for start in range(len(word) - size + 1)
            if jieba.get_FREQ(part := word[start : start + size])
        ]
        return words + inner


def use_chinese_search(app: Sphinx, config: Config, glossary: Path) -> None:
    """Make :class:`ChineseSearch`, with the terms of *glossary*, this build's search language."""
    app.add_search_language(ChineseSearch)  # in place of Sphinx's, for this build
    # "dict": "" because Sphinx would load jieba's own dictionary a second time as a
    # "user dictionary" (3 s per build, the same words).
    config.html_search_options = {
        **config.html_search_options,
        "dict": "",
        "glossary": str(glossary),
    }
