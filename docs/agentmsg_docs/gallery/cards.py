"""The chat cards of the tutorials, in the page's language.

The examples run once for every language (:mod:`agentmsg_docs.build.examples`), with the
cards' labels *deferred* (:func:`deferred`, entered per example by
``agentmsg_docs.gallery.tutorials.reset_deterministic``): each label is a marker that holds
its message and arguments. Each language build turns the markers of the pages it reads into text in
its language with :func:`localize`, through the labels and catalogs
(``src/agentmsg/cards/locale/``) that a notebook user's cards use. The message data the
code wrote (senders, roles, texts) is not touched.

Every card carries the cards' style sheet in its own ``<style>`` block, so that it looks
right wherever it is shown alone (a notebook cell, a web page). A page of the site keeps
the first copy only (:class:`OneCardStyle`): a tutorial shows up to eight cards, and the
copies were a sixth of its HTML.
"""

from __future__ import annotations

import binascii
import contextlib
import html
import json
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms import SphinxTransform

from agentmsg import card_labels
from agentmsg.cards._labels import Label, Size, resolve_language, writing_labels

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = [
    "MARKER",
    "LocalizedCards",
    "OneCardStyle",
    "deferred",
    "localize",
    "marker",
    "style_once",
]

MARKER = "\ue000"
"""The first character of every deferred label."""
_END = "\ue001"
_MARKED = re.compile(f"{MARKER}([A-Za-z0-9+/=]*){_END}")


def _encode(value: Any) -> Any:
    if isinstance(value, Size):
        return {"size": value.amount}
    if isinstance(value, Label):
        return {"label": [value.msgid, value.plural, value.n, _encode(value.args)]}
    if isinstance(value, dict):
        return {key: _encode(item) for key, item in value.items()}
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"size"}:
        return Size(value["size"])
    if isinstance(value, dict) and set(value) == {"label"}:
        msgid, plural, n, args = value["label"]
        return Label(msgid, plural, n, _decode(args))
    if isinstance(value, dict):
        return {key: _decode(item) for key, item in value.items()}
    return value


def marker(label: Label) -> str:
    """*label* as a marker: its message and arguments as base64 JSON between two
    private-use characters, which HTML escaping leaves as they are."""
    data = json.dumps(_encode(label), ensure_ascii=False, separators=(",", ":"))
    encoded = binascii.b2a_base64(data.encode(), newline=False).decode()
    return f"{MARKER}{encoded}{_END}"


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Write the cards' labels as markers (:func:`marker`) inside a ``with`` block."""
    with writing_labels(marker):
        yield


def localize(text: str, language: str) -> str:
    """*text* (HTML holding deferred labels) with every label in *language*, escaped; a
    label that *language* does not translate, written in the page's text (not in an
    attribute), is marked ``<span lang="en">``."""
    code = resolve_language(language)

    def replace(match: re.Match[str]) -> str:
        try:
            found = _decode(json.loads(binascii.a2b_base64(match.group(1)).decode()))
        except (ValueError, TypeError, binascii.Error):
            return match.group(0)  # text that only looks like a marker: left as it is
        if not isinstance(found, Label):
            return match.group(0)
        shown = _escape(found.text(code))
        before = text[: match.start()]
        in_text = before.rfind(">") >= before.rfind("<")
        if in_text and code != "en" and _in_english(found, code):
            return f'<span lang="en">{shown}</span>'
        return shown

    return _MARKED.sub(replace, text)


_FIELD = re.compile(r"\{[^{}]*\}")


def _escape(text: str) -> str:
    """*text* escaped as the cards escape their labels: tabs as ``&#9;``, which survive the
    ``.. raw:: html`` blocks sphinx-gallery writes (reST expands tabs there)."""
    return html.escape(text, quote=True).replace("\t", "&#9;")


def _in_english(label: Label, code: str) -> bool:
    """Whether *label* shows in English in language *code*: its own words have no
    translation there, or it has no words of its own and a label inside it shows in English."""
    if not re.search("[A-Za-z]", _FIELD.sub("", label.msgid)):
        inner = [value for value in label.args.values() if isinstance(value, Label)]
        return any(_in_english(value, code) for value in inner)
    return label.msgid not in card_labels(code)


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


def style_once(texts: Sequence[str]) -> list[str]:
    """*texts* (HTML, in reading order) with each ``<style>`` block the cards wrote kept
    where it first appears and dropped after it: one document (a page, a notebook) needs
    one copy, and every card carries the same one.

    >>> card = "<style>.card{}</style><p>card</p>"
    >>> style_once([card, card])[1]
    '<p>card</p>'
    """
    seen: set[str] = set()

    def once(match: re.Match[str]) -> str:
        if match.group() in seen:
            return ""
        seen.add(match.group())
        return match.group()

    return [_STYLE.sub(once, text) if "<style>" in text else text for text in texts]


_STYLE = re.compile(r"<style>.*?</style>", re.DOTALL)


class OneCardStyle(SphinxTransform):
    """Keep the first copy of each ``<style>`` block the cards wrote in a page; drop the
    copies after it (every card carries the same one)."""

    default_priority = 801

    def apply(self, **kwargs: Any) -> None:
        raws = list(self.document.findall(nodes.raw))
        for raw, kept in zip(raws, style_once([raw.astext() for raw in raws]), strict=True):
            if kept != raw.astext():
                _rewrite(raw, kept)


def register(app: Sphinx) -> None:
    app.add_transform(LocalizedCards)
    app.add_transform(OneCardStyle)
