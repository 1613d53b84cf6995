"""Chinese typography for the Chinese builds.

reStructuredText and MyST need a space (or punctuation) between inline markup and the
text around it, so a translator writes ``详见 :ref:`保存与加载 <x>` 教程``; Chinese puts no
space between two Chinese characters, and the page should read 详见保存与加载教程. In a
Chinese build, :class:`ChineseSpacing` removes the spaces that stand between a Chinese
character and inline markup (a link, emphasis, a label) whose text starts or ends with a
Chinese character too. Spaces between Chinese and Latin letters, digits or code stay:
the glossary asks for one there (``调用 to_dict 方法``), and translators write it.

Sphinx writes the sentence of a ``versionadded``/``versionchanged`` directive as the
translated label plus a Western full stop or colon (``在 0.1.0 版本中新增.``);
:class:`FullWidthVersionPunctuation` makes them full-width (``。`` and ``：``).

Sphinx joins some lists of links with ``", "`` in code, where no catalog reaches (autodoc's
``Bases:`` line: ``基类：MessageError, AttributeError``); :class:`EnumerationCommas` writes
the Chinese enumeration comma ``、`` between two links of a Chinese sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from agentmsg_docs.i18n.languages import built_language

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = [
    "CJK",
    "UNSPACED_SUBTAGS",
    "ChineseSpacing",
    "ChineseTransform",
    "EnumerationCommas",
    "FullWidthVersionPunctuation",
    "is_cjk",
]

#: Chinese characters and the full-width punctuation set around them.
CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef"
_CJK = re.compile(f"[{CJK}]")
#: The primary language subtags these rules apply to (Chinese, in any of its regions).
PRIMARY_SUBTAGS = ("zh",)
#: The primary subtags of the languages written without spaces between words (Chinese,
#: Japanese, Thai, Lao, Burmese, Khmer): what joins two translated sentences is nothing.
UNSPACED_SUBTAGS = ("zh", "ja", "th", "lo", "my", "km")


def is_cjk(char: str) -> bool:
    return bool(char) and _CJK.match(char) is not None


def _texts(element: nodes.Element) -> Iterator[nodes.Text]:
    """The text nodes of *element* in reading order, code (literals, raw) left out."""
    for node in element.findall(nodes.Text):
        if not any(
            isinstance(parent, nodes.literal | nodes.raw) for parent in _ancestors(node, element)
        ):
            yield node


def _ancestors(node: nodes.Node, stop: nodes.Element) -> Iterator[nodes.Node]:
    parent = node.parent
    while parent is not None and parent is not stop:
        yield parent
        parent = parent.parent


def _replace(text: nodes.Text, new: str) -> nodes.Text:
    """Put a text node holding *new* in the place of *text* (unless it holds it already)."""
    if str(text) == new:
        return text
    made = nodes.Text(new)
    parent = text.parent
    # By identity: Text nodes are strings, and Element.replace would find an equal one.
    parent[next(i for i, child in enumerate(parent.children) if child is text)] = made
    return made


class ChineseTransform(SphinxPostTransform):
    """A post-transform of the HTML pages of a Chinese build (and of no other)."""

    formats = ("html",)

    def is_supported(self) -> bool:
        return built_language(self.config).primary in PRIMARY_SUBTAGS and super().is_supported()


class ChineseSpacing(ChineseTransform):
    """Remove spaces at inline markup that stand between two Chinese characters."""

    default_priority = 900

    def run(self, **kwargs: Any) -> None:
        for block in self.document.findall(nodes.TextElement):
            if isinstance(block, nodes.literal_block | nodes.raw | nodes.literal):
                continue
            if isinstance(block.parent, nodes.TextElement):
                continue  # handled with the paragraph (or title) that holds it
            texts = list(_texts(block))
            for index in range(len(texts) - 1):
                texts[index], texts[index + 1] = self._join(texts[index], texts[index + 1])

    @staticmethod
    def _join(left: nodes.Text, right: nodes.Text) -> tuple[nodes.Text, nodes.Text]:
        """*left* and *right* follow each other; return them, or their replacements."""
        if left.parent is right.parent:
            return left, right  # not at a markup boundary
        before, after = str(left), str(right)
        head, tail = before.rstrip(" "), after.lstrip(" ")
        if not head or not tail or (head, tail) == (before, after):
            return left, right
        if not (is_cjk(head[-1]) and is_cjk(tail[0])):
            return left, right
        return _replace(left, head), _replace(right, tail)


class FullWidthVersionPunctuation(ChineseTransform):
    """``在 0.1.0 版本中新增.`` becomes ``在 0.1.0 版本中新增。`` (and ``:`` becomes ``：``)."""

    default_priority = 900

    def run(self, **kwargs: Any) -> None:
        for inline in self.document.findall(nodes.inline):
            if "versionmodified" not in inline.get("classes", []):
                continue
            for text in list(inline.findall(nodes.Text)):
                _replace(text, re.sub(r":\s*$", "：", re.sub(r"\.\s*$", "。", str(text))))


_NAMES = (nodes.reference, nodes.literal)
"""What stands on each side of such a comma: a link, or the code of a name Sphinx could
not link (a built-in class without intersphinx)."""


class EnumerationCommas(ChineseTransform):
    """``基类：A, B`` becomes ``基类：A、B``: a lone ``", "`` between two names (links or
    code), in a paragraph with Chinese text, is the Chinese enumeration comma."""

    default_priority = 900

    def run(self, **kwargs: Any) -> None:
        for paragraph in self.document.findall(nodes.paragraph):
            if not _CJK.search(paragraph.astext()):
                continue
            children = paragraph.children
            for index in range(1, len(children) - 1):
                child = children[index]
                if (
                    isinstance(child, nodes.Text)
                    and str(child) == ", "
                    and isinstance(children[index - 1], _NAMES)
                    and isinstance(children[index + 1], _NAMES)
                ):
                    _replace(child, "、")


def register(app: Sphinx) -> None:
    app.add_post_transform(ChineseSpacing)
    app.add_post_transform(EnumerationCommas)
    app.add_post_transform(FullWidthVersionPunctuation)
