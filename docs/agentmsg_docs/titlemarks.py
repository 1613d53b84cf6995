"""Title marks on cross-references in Chinese: 《教程》 and “小节”.

A Chinese sentence marks the title of a work: ``详见《从 AgentScope 或 ERNIE Bot Agent 迁移》``,
and names a section in quotes: ``见“各格式能容纳的内容”一节``. A translator writes only the
reference (``详见 :ref:`tutorial-migration```), whose text Sphinx fills in; in a zh_CN build,
:class:`TitleMarks` puts 《》 around a reference to a tutorial page and “” around a reference
to a section, when the link shows the target's own title. A reference with a text of its
own (``:ref:`API 参考 <provider-formats>```) is prose and keeps no marks, and marks the
translator wrote already are not doubled. The spaces reST needs around the reference go.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import docname_join
from sphinx.util.nodes import clean_astext

if TYPE_CHECKING:
    from sphinx.application import Sphinx

from agentmsg_docs.languages import built_language
from agentmsg_docs.typography import PRIMARY_SUBTAGS

__all__ = ["LANGUAGES", "TitleMarks", "marks_for"]

#: The primary language subtags whose references to works take title marks (Chinese).
LANGUAGES = PRIMARY_SUBTAGS
PAGE = ("《", "》")
SECTION = ("“", "”")
_OPENING = "《“「"
_CLOSING = "》”」"


def marks_for(env: Any, node: addnodes.pending_xref) -> tuple[str, str] | None:
    """The marks around *node* (a reference not yet resolved), or None for none."""
    kind, target = node.get("reftype"), node.get("reftarget", "")
    if kind == "doc":
        if node.get("refexplicit"):
            return None
        docname = docname_join(node.get("refdoc", ""), target)
        return PAGE if _is_tutorial(docname) else None
    if kind != "ref":
        return None
    docname, _labelid, title = env.get_domain("std").labels.get(target, ("", "", ""))
    if not docname:
        return None
    if node.get("refexplicit") and node.astext() != title:
        return None
    page_title = clean_astext(env.titles[docname]) if docname in env.titles else None
    if title == page_title:
        return PAGE if _is_tutorial(docname) else None
    return SECTION


def _is_tutorial(docname: str) -> bool:
    """A tutorial's page; the gallery's index is the list of them, not a work."""
    return docname.startswith("tutorial/") and docname != "tutorial/index"


def _wrap(node: nodes.Element, opening: str, closing: str) -> None:
    parent = node.parent
    index = parent.index(node)
    before = parent[index - 1] if index > 0 else None
    after = parent[index + 1] if index + 1 < len(parent) else None
    if isinstance(before, nodes.Text) and str(before).rstrip().endswith(tuple(_OPENING)):
        return
    if isinstance(after, nodes.Text) and str(after).lstrip().startswith(tuple(_CLOSING)):
        return
    if isinstance(before, nodes.Text):
        parent.replace(before, nodes.Text(str(before).rstrip(" ") + opening))
    else:
        parent.insert(index, nodes.Text(opening))
        index += 1
    if isinstance(after, nodes.Text):
        parent.replace(after, nodes.Text(closing + str(after).lstrip(" ")))
    else:
        parent.insert(index + 1, nodes.Text(closing))


class TitleMarks(SphinxPostTransform):
    """Put 《》 or “” around references to a tutorial or a section, in Chinese paragraphs."""

    default_priority = 5  # before the references are resolved: the label says what it names
    formats = ("html",)

    def is_supported(self) -> bool:
        return built_language(self.config).primary in LANGUAGES and super().is_supported()

    def run(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(addnodes.pending_xref)):
            if (
                not isinstance(node.parent, nodes.paragraph)
                or len(node.parent.astext()) <= len(node.astext()) + 1
            ):
                continue  # a link alone (a gallery card's title) is no part of a sentence
            marks = marks_for(self.env, node)
            if marks:
                _wrap(node, *marks)


def register(app: Sphinx) -> None:
    app.add_post_transform(TitleMarks)
