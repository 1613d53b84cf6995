"""The chat cards of the tutorials, in the page's language.

The examples run once for every language (``docs/agentmsg_docs/build/examples.py``), with the cards'
labels *deferred* (``agentmsg._l10n.deferred``, entered per example by
``agentmsg_docs.gallery.reset_deterministic``): each label is a marker that holds its message
and arguments. Each language build turns the markers of the pages it reads into text in
its language with ``agentmsg._l10n.localize``, the function and catalogs
(``src/agentmsg/locale/``) that a notebook user's cards use. The message data the code
wrote (senders, roles, texts) is not touched.

Every card carries the cards' style sheet in its own ``<style>`` block, so that it looks
right wherever it is shown alone (a notebook cell, a web page). A page of the site keeps
the first copy only (:class:`OneCardStyle`): a tutorial shows up to eight cards, and the
copies were a sixth of its HTML.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms import SphinxTransform

from agentmsg._html import STYLE
from agentmsg._l10n import localize

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = ["MARKER", "LocalizedCards", "OneCardStyle"]

MARKER = "\ue000"
"""The first character of every deferred label."""


def _rewrite(raw: nodes.raw, text: str) -> None:
    """Put a raw node of the same format holding *text* in place of *raw*."""
    raw.replace_self(nodes.raw(text, text, format=raw.get("format", "html")))


class LocalizedCards(SphinxTransform):
    """Write the deferred labels of every raw HTML block in the build's language."""

    default_priority = 800

    def apply(self, **kwargs: Any) -> None:
        language = self.config.language or "en"
        for raw in list(self.document.findall(nodes.raw)):
            text = raw.astext()
            if MARKER in text:
                _rewrite(raw, localize(text, language))


class OneCardStyle(SphinxTransform):
    """Keep the first copy of the cards' ``<style>`` block in a page; drop the others."""

    default_priority = 801
    style = f"<style>{STYLE}</style>"

    def apply(self, **kwargs: Any) -> None:
        seen = False
        for raw in list(self.document.findall(nodes.raw)):
            text = raw.astext()
            if self.style not in text:
                continue
            first = 0 if seen else text.index(self.style) + len(self.style)
            kept = text[:first] + text[first:].replace(self.style, "")
            if kept != text:
                _rewrite(raw, kept)
            seen = True


def register(app: Sphinx) -> None:
    app.add_transform(LocalizedCards)
    app.add_transform(OneCardStyle)
