"""Page descriptions (``<meta name="description">``, ``og:description``) as clean text.

sphinxext-opengraph makes a description by joining the doctree's leaf texts: table cells
become ``格式:,,, 格式, 发往 API, ...``, headings end in an ASCII colon, and it puts a space
between every two leaves unless punctuation follows, which adds ``（ user 、`` and drops the
one in ``一个 .po 文件``. This extension writes both tags itself, before opengraph looks:
the text of the page's first paragraphs (tables, lists, admonitions, code and headings
left out), as the reader sees them, joined the way the language joins sentences, and cut
at a sentence end. The budget is a display width, in which a wide (CJK) character counts
twice, as search engines measure their snippets; and a page's description comes from the
prose before its first subsection when it has any. opengraph then keeps the page's own
``description`` meta tag and takes ``og:description`` from the page's metadata, which it
lets override its own.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = ["LENGTH", "describe", "width"]

#: The widest a description may be: 200 Latin characters (opengraph's default), 100 CJK.
LENGTH = 200
_SKIPPED = (
    nodes.table,
    nodes.container,
    nodes.Admonition,
    nodes.Invisible,
    nodes.literal_block,
    nodes.doctest_block,
    nodes.raw,
    nodes.field_list,
    nodes.footnote,
    nodes.citation,
    nodes.definition_list,
    nodes.line_block,
    nodes.caption,
    addnodes.desc,
    addnodes.toctree,
)
#: The class of the raw HTML that opens sphinx-gallery's list of cards.
_GALLERY = 'class="sphx-glr-thumbnails"'
_CJK_END = re.compile(r"[。！？：；]$")
_COLONS = (":", "：")
_SENTENCE = re.compile(r"(?<=[。！？])|(?<=[.!?])\s+")


def width(text: str) -> int:
    """The display width of *text*: two for each wide or full-width character."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _first_section(paragraph: nodes.paragraph) -> bool:
    """Whether *paragraph* is in the page's title section itself, not in a subsection."""
    node: nodes.Node | None = paragraph.parent
    depth = 0
    while node is not None:
        if isinstance(node, nodes.section):
            depth += 1
        node = node.parent
    return depth <= 1


def _skipped(paragraph: nodes.paragraph, lists: bool) -> bool:
    """Whether *paragraph* is not the page's own prose: only a section's (or the page's)
    paragraphs count, and, when *lists*, those of list items."""
    parent = paragraph.parent
    if isinstance(parent, nodes.section | nodes.document):
        return False
    if not lists or not isinstance(parent, nodes.list_item):
        return True
    while parent is not None:
        if isinstance(parent, _SKIPPED):
            return True
        parent = parent.parent
    return False


def _paragraphs(document: nodes.document, lists: bool, first: bool) -> Iterator[str]:
    """The page's prose paragraphs; with *first*, only those before its first subsection."""
    for paragraph in document.findall(lambda node: isinstance(node, nodes.paragraph | nodes.raw)):
        if isinstance(paragraph, nodes.raw):
            if _GALLERY in paragraph.astext():
                return  # a gallery's cards end its page's own prose
            continue
        if first and not _first_section(paragraph):
            return
        if not _skipped(paragraph, lists):
            text = " ".join(paragraph.astext().split())
            if text:
                yield text


def _join(text: str, more: str) -> str:
    """*text* and then *more*: a space between them, unless *text* ends a Chinese sentence."""
    if not text:
        return more
    if _CJK_END.search(text):
        return text + more
    return f"{text} {more}"


def _collect(document: nodes.document, length: int, lists: bool, first: bool) -> str:
    """The first paragraphs, up to *length*; a paragraph that ends in a colon introduces
    what the description leaves out (a list, a table), so nothing follows it."""
    text = ""
    for paragraph in _paragraphs(document, lists, first):
        text = _join(text, paragraph)
        if width(text) >= length or paragraph.endswith(_COLONS):
            break
    return text


def describe(document: nodes.document, length: int = LENGTH) -> str:
    """The description of *document*: its first paragraphs (those before the first
    subsection when there are any; those of lists only when it has no others), at most
    *length* wide (:func:`width`), cut after the last whole sentence that fits (else at
    *length*, with an ellipsis). A last sentence that ends in a colon goes, when there is
    one before it."""
    text = ""
    for first, lists in ((True, False), (False, False), (False, True)):
        text = text or _collect(document, length, lists, first)
    sentences = [piece for piece in _SENTENCE.split(text) if piece]
    if len(sentences) > 1 and sentences[-1].endswith(_COLONS):
        sentences.pop()
    cut = ""
    for index, piece in enumerate(sentences):
        joined = _join(cut, piece)
        if width(joined) > length:
            if width(cut) < length // 2:  # too little said: add a clause of the next one
                room = length - width(cut) - (1 if cut and not _CJK_END.search(cut) else 0)
                clause = _clipped(" ".join(sentences[index:]), room, clauses_only=True)
                cut = _join(cut, clause) if clause else cut
            break
        cut = joined
    return cut or _clipped(text, length)


#: Where a clipped sentence may end, best first: after a clause, else between words.
_BREAKS = ((";", ":", ",", "；", "：", "，", "、"), (" ",))


def _fit(text: str, room: int) -> str:
    """The longest start of *text* at most *room* wide."""
    used = 0
    for index, char in enumerate(text):
        used += width(char)
        if used > room:
            return text[:index]
    return text


def _clipped(text: str, room: int, clauses_only: bool = False) -> str:
    """*text* cut to fit *room* with an ellipsis: at the last clause mark or space in its
    second half, else where the room ends (Chinese has no spaces). With *clauses_only*,
    at the last clause mark wherever it is, or nothing."""
    prefix = _fit(text, room - 1)
    if clauses_only:
        at = max(prefix.rfind(mark) for mark in _BREAKS[0])
        return prefix[:at].rstrip() + "…" if at > 0 else ""
    for marks in _BREAKS:
        at = max(prefix.rfind(mark) for mark in marks)
        if at > len(prefix) // 2:
            return prefix[:at].rstrip() + "…"
    return prefix.rstrip() + "…"


def _page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    if doctree is None or "metatags" not in context:
        return
    description = describe(doctree)
    if not description:
        return
    # opengraph escapes only the quotes of the page's own og: values.
    og = html.escape(description, quote=False)
    context["meta"] = {**(context.get("meta") or {}), "og:description": og}
    context["metatags"] += f'\n<meta name="description" content="{html.escape(description)}" />'


def register(app: Sphinx) -> None:
    app.connect("html-page-context", _page_context, priority=400)  # before opengraph's (500)
