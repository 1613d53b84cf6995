"""Title marks on cross-references in Chinese: 《教程》 and “小节”.

A Chinese sentence marks the title of a work: ``详见《从 AgentScope 或 ERNIE Bot Agent 迁移》``,
and names a section or another page of the site in quotes: ``见“各格式能容纳的内容”一节``,
``见“转换矩阵”页``. A translator writes only the reference (``详见 :ref:`tutorial-migration```),
whose text Sphinx fills in; in a Chinese build, a reference to a tutorial page takes 《》 and
one to a section or another page “”, when the link shows the target's own title
(:func:`marks_for`, the one rule). A reference with a text of its own
(``:ref:`API 参考 <provider-formats>```) is prose and keeps no marks, and marks the
translator wrote already are not doubled. The spaces reST needs around the reference go.

The rule reads a reference before Sphinx resolves it (:class:`TitleMarks`); the marks are
placed around the link it became (:class:`PlaceTitleMarks`). The pages' builds and the
notebooks' Markdown (:mod:`agentmsg_docs.gallery.notebooks`) run both, :data:`TRANSFORMS`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import ReferencesResolver
from sphinx.util import docname_join
from sphinx.util.nodes import clean_astext

if TYPE_CHECKING:
    from sphinx.application import Sphinx

from agentmsg_docs.zh.typography import PRIMARY_SUBTAGS, ChineseTransform, is_cjk

__all__ = ["LANGUAGES", "TRANSFORMS", "PlaceTitleMarks", "TitleMarks", "marks_for"]

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
        return PAGE if _is_tutorial(docname) else SECTION
    if kind != "ref":
        return None
    docname, _labelid, title = env.get_domain("std").labels.get(target, ("", "", ""))
    if not docname:
        return None
    if node.get("refexplicit") and node.astext() != title:
        return None
    page_title = clean_astext(env.titles[docname]) if docname in env.titles else None
    if title == page_title:
        return PAGE if _is_tutorial(docname) else SECTION
    return SECTION


def _is_tutorial(docname: str) -> bool:
    """A tutorial's page; the gallery's index is the list of them, not a work."""
    return docname.startswith("tutorial/") and docname != "tutorial/index"


#: The attribute of the inline that holds a reference to mark, and its marks, between
#: :class:`TitleMarks` and :class:`PlaceTitleMarks`.
_MARKS = "agentmsg_title_marks"


def _chinese_sentence(node: nodes.Element) -> bool:
    """Whether *node* is part of a Chinese sentence: its paragraph has more text than the
    reference (a link alone is a gallery card's title), and Chinese text of its own."""
    paragraph = node.parent
    if not isinstance(paragraph, nodes.paragraph):
        return False
    around = "".join(child.astext() for child in paragraph.children if child is not node)
    return len(around.strip()) > 1 and any(is_cjk(char) for char in around)


class TitleMarks(ChineseTransform):
    """Decide which references of Chinese sentences take 《》 or “” (:func:`marks_for`):
    each is put in an inline that holds its marks, placed once it is resolved."""

    default_priority = 5  # before the references are resolved: the label says what it names

    def run(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(addnodes.pending_xref)):
            marks = marks_for(self.env, node) if _chinese_sentence(node) else None
            if marks:
                holder = nodes.inline("", "", **{_MARKS: "".join(marks)})
                node.replace_self(holder)
                holder += node


class PlaceTitleMarks(ChineseTransform):
    """Put the marks :class:`TitleMarks` chose around each reference it resolved to a
    link (one left unresolved takes none), drop the spaces reST needed around it, and
    take the reference out of its inline. Marks the translator wrote are not doubled."""

    default_priority = ReferencesResolver.default_priority + 1

    def run(self, **kwargs: Any) -> None:
        for holder in list(self.document.findall(nodes.inline)):
            if _MARKS in holder:
                _place(holder, *holder[_MARKS])


def _place(holder: nodes.inline, opening: str, closing: str) -> None:
    parent = holder.parent
    # By identity: Text nodes are strings, and list.index would find an equal one.
    index = next(i for i, child in enumerate(parent.children) if child is holder)
    before = parent[index - 1] if index > 0 else None
    after = parent[index + 1] if index + 1 < len(parent) else None
    content: list[nodes.Node] = list(holder.children)
    marked = (
        holder.next_node(nodes.reference) is not None
        and not (isinstance(before, nodes.Text) and before.rstrip().endswith(tuple(_OPENING)))
        and not (isinstance(after, nodes.Text) and after.lstrip().startswith(tuple(_CLOSING)))
    )
    if marked:
        if isinstance(before, nodes.Text):
            parent[index - 1] = nodes.Text(before.rstrip(" "))
        if isinstance(after, nodes.Text):
            parent[index + 1] = nodes.Text(after.lstrip(" "))
        content = [nodes.Text(opening), *content, nodes.Text(closing)]
    holder.replace_self(content)


#: The two steps, for a doctree read outside a page build (a notebook's Markdown): they
#: run around Sphinx's ReferencesResolver, as on a page.
TRANSFORMS = (TitleMarks, PlaceTitleMarks)


def register(app: Sphinx) -> None:
    for transform in TRANSFORMS:
        app.add_post_transform(transform)
