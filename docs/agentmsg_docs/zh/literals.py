"""Dashes in Chinese field lists, and Python types shown as Python.

Sphinx turns off smart quotes for zh_CN (``smartquotes_excludes``), so the API page's field
lists keep the ASCII ``--`` between a parameter and its description where English and
Spanish show ``–``. In a zh_CN build this extension turns smart quotes back on for dashes
only (``smartquotes_action = "D"``): Chinese quotes are the translator's, and Chinese
writes its ellipsis ``……``, not ``…``.

In every language smart quotes would also make ``tuple[Loss, ...]`` read
``tuple[Loss, …]``, which is no Python. :class:`LiteralTypes` keeps the types of field
lists and signatures (the text around their cross-references) out of smart quotes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform

from agentmsg_docs.i18n.languages import built_language
from agentmsg_docs.zh.typography import PRIMARY_SUBTAGS

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

__all__ = ["DASHES_ONLY", "LiteralTypes"]

#: The primary language subtags whose smart quotes convert dashes only (Sphinx turns them
#: off for Chinese and Japanese, which write their own quotes and ellipsis).
DASHES_ONLY = (*PRIMARY_SUBTAGS, "ja")


def _config_inited(app: Sphinx, config: Config) -> None:
    if built_language(config).primary not in DASHES_ONLY:
        return
    excludes = dict(config.smartquotes_excludes)
    excludes["languages"] = [
        code for code in excludes.get("languages", []) if code != config.language
    ]
    config.smartquotes_excludes = excludes
    config.smartquotes_action = "D"


def _is_python_xref(node: nodes.Node) -> bool:
    return isinstance(node, addnodes.pending_xref) and node.get("refdomain") == "py"


class LiteralTypes(SphinxTransform):
    """Mark the text between Python cross-references (``[``, ``, ``, ``...``, ``]``) of a
    type as not to be smartened."""

    default_priority = 740  # before SphinxSmartQuotes (750)

    def apply(self, **kwargs: Any) -> None:
        for xref in list(self.document.findall(addnodes.pending_xref)):
            if not _is_python_xref(xref):
                continue
            parent = xref.parent
            index = parent.index(xref)
            for sibling in parent[index + 1 : index + 3]:
                if isinstance(sibling, nodes.Text) and "..." in sibling:
                    parent.replace(sibling, _Verbatim(str(sibling)))


class _Verbatim(nodes.Text):  # type: ignore[misc]  # docutils ships no types
    """Text that smart quotes leave as it is."""

    support_smartquotes = False


def register(app: Sphinx) -> None:
    app.connect("config-inited", _config_inited, priority=950)
    app.add_transform(LiteralTypes)
