"""HTML cards for messages, shown by Jupyter and by sphinx-gallery's executed output.

:meth:`Msg._repr_html_ <agentmsg.Msg._repr_html_>` imports this module on first use, so
``import agentmsg`` does not pay for :mod:`html` and :mod:`json`. Every card is one
``<article class="agentmsg-card">`` with its own ``<style>`` block (``card.css``, whose
comments say how it wins over the host page's rules), so it looks the same in a notebook
and on the docs site; a page may restyle cards through the ``--agentmsg-*`` properties.
The output depends on the message alone (no random ids, no clock).
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from .._blocks import MEDIA_KINDS, OUTPUT_TYPES
from .._validate import MAX_DEPTH, check_json, is_local_file
from ._labels import Size, translated
from ._labels import gettext as _
from ._labels import label as N_
from ._labels import ngettext as _n

INLINE_MEDIA_LIMIT = 512 * 1024
"""Base64 payloads and ``data:`` URLs longer than this many characters are summarised."""

JSON_LIMIT = 10_000
"""Pretty-printed JSON longer than this many characters is cut, with a note."""


def _read_style() -> str:
    """``card.css``, beside this module, without its comments and line breaks."""
    import re
    from pathlib import Path

    css = Path(__file__).with_name("card.css").read_text(encoding="utf-8")
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    # "property: value" is written "property:value"; a rule's last ";" is dropped.
    lines = (re.sub(r"^([\w-]+):\s+", r"\1:", line.strip()) for line in css.splitlines())
    return "".join(lines).replace(" {", "{").replace(";}", "}")


STYLE = _read_style()
"""The CSS every card carries in its ``<style>`` block: ``card.css``, compacted."""


class MessageLike(Protocol):
    """What :func:`render_msg` reads from a message: the fields of :class:`~agentmsg.Msg`
    (named here, not imported: ``_message`` imports this module)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def role(self) -> str: ...
    @property
    def content(self) -> str | Sequence[Any]: ...
    @property
    def metadata(self) -> Mapping[str, Any] | None: ...
    @property
    def timestamp(self) -> str: ...


# -- small pieces ------------------------------------------------------------------


_BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""The characters that change the direction of the text around them: the marks (ALM,
LRM, RLM), embeddings, overrides and isolates. A card shows each as its code point, so
that a name or text cannot make other text read backwards or in another order."""
_SHOWN_CONTROLS = str.maketrans({char: f"[U+{ord(char):04X}]" for char in _BIDI_CONTROLS})
# In a URL, each control is percent-encoded as a browser sends it.
_ENCODED_CONTROLS = str.maketrans(
    {char: "".join(f"%{byte:02X}" for byte in char.encode()) for char in _BIDI_CONTROLS}
)


def escape(text: str) -> str:
    """Escape *text* for element content and quoted attribute values.

    Tabs become ``&#9;``, which survives the ``.. raw:: html`` blocks of sphinx-gallery;
    bidirectional controls are shown as their code point (``[U+202E]``), never obeyed.
    """
    escaped = html.escape(text, quote=True).replace("\t", "&#9;")
    if escaped.isascii():
        return escaped
    return escaped.translate(_SHOWN_CONTROLS)


def _escape_url(url: str) -> str:
    """Escape *url* for an ``href`` or ``src``, its bidirectional controls percent-encoded,
    so that the link still leads where it says."""
    return escape(url if url.isascii() else url.translate(_ENCODED_CONTROLS))


def _isolated(text: str) -> str:
    """*text* escaped, in a ``<bdi>`` when it holds right-to-left letters: a sender
    named in Arabic or Hebrew keeps its own direction without reordering its
    neighbours in the card's header."""
    escaped = escape(text)
    if text.isascii():
        return escaped
    import unicodedata

    if any(unicodedata.bidirectional(char) in ("R", "AL", "AN") for char in text):
        return f"<bdi>{escaped}</bdi>"
    return escaped


def _base64_size(data: str) -> int:
    """The decoded size of base64 *data*, computed without decoding it."""
    core = "".join(data.split())
    padding = len(core) - len(core.rstrip("="))
    return max(0, len(core) * 3 // 4 - padding)


def _json_text(value: Any, indent: int | None = 2) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent)


def _json_block(value: Any) -> str:
    """``value`` pretty-printed in a ``<pre>``, cut at :data:`JSON_LIMIT` characters."""
    text = _json_text(value)
    if len(text) <= JSON_LIMIT:
        return f'<pre class="agentmsg-json">{escape(text)}</pre>'
    cut = text.rfind("\n", 0, JSON_LIMIT)
    if cut <= 0:
        cut = JSON_LIMIT
    # Translators: a cut JSON value; {shown} and {total} count characters.
    note = escape(
        _("JSON truncated: {shown} of {total} characters shown.", shown=cut, total=len(text))
    )
    shown = f'<pre class="agentmsg-json">{escape(text[:cut])}\n…</pre>'
    return f'{shown}<p class="agentmsg-note">{note}</p>'


def _value(value: Any) -> str:
    """One JSON value: strings as wrapped text, scalars as code, containers as a block."""
    if isinstance(value, str):
        return f'<span class="agentmsg-str">{escape(value)}</span>'
    if isinstance(value, dict | list):
        return _json_block(value)
    return f"<code>{escape(_json_text(value, None))}</code>"


def _role_class(role: str) -> str:
    """``agentmsg-role-<role>`` with anything but ``[a-z0-9_-]`` replaced by ``-``."""
    safe = "".join(
        char if char.isascii() and (char.isalnum() or char in "_-") else "-"
        for char in role.lower()
    )
    return f"agentmsg-role-{safe or 'none'}"


# -- media -------------------------------------------------------------------------


def _with_note(html_before: str, note: str) -> str:
    """*html_before*, then *note* (a translated text in brackets) muted after it, with the
    language's gap between them (none in Chinese, whose full-width bracket has its own)."""
    # Translators: how a note in brackets follows what it is about, such as
    # "Thinking (45 characters)"; write the space only if your language needs one there.
    gap = _("{label} {note}", label="", note="")
    return f'{html_before}{gap}<span class="agentmsg-muted">{escape(note)}</span>'


#: The kinds of media, as a card names them.
_KINDS = {"image": N_("image"), "audio": N_("audio"), "video": N_("video")}


def _kind(kind: str) -> Any:
    """The translatable name of a media *kind*; any other kind stays as the data says."""
    return _KINDS.get(kind, kind)


def _summary(kind: str, body: str) -> str:
    found = _kind(kind)
    tag = escape(found if isinstance(found, str) else translated(found))
    return f'<p class="agentmsg-media"><span class="agentmsg-tag">{tag}</span> {body}</p>'


def _player(kind: str, src: str, media_type: str, size: int) -> str:
    # Translators: the accessible name of an image, sound or video, such as
    # "image (image/png, 112 bytes)".
    label = _(
        "{kind} ({media_type}, {size})", kind=_kind(kind), media_type=media_type, size=Size(size)
    )
    if kind == "image":
        return (
            f'<figure class="agentmsg-media"><img class="agentmsg-img" src="{_escape_url(src)}" '
            f'alt="{escape(label)}"></figure>'
        )
    return (
        f'<figure class="agentmsg-media"><{kind} class="agentmsg-player" controls '
        f'preload="metadata" src="{_escape_url(src)}" aria-label="{escape(label)}"></{kind}>'
        f"<figcaption>{escape(label)}</figcaption></figure>"
    )


def _too_large(kind: str, media_type: str, size: int) -> str:
    what = _("{media_type}, {size}", media_type=media_type, size=Size(size))
    why = _("(not embedded: over the {limit} inline limit)", limit=Size(INLINE_MEDIA_LIMIT))
    return _summary(kind, _with_note(escape(what), why))


def _data_url(kind: str, url: str) -> str:
    header, _comma, payload = url[5:].partition(",")
    params = header.split(";")
    media_type = params[0] or "text/plain"
    if "base64" in params[1:]:
        size = _base64_size(payload)
    else:
        from urllib.parse import unquote_to_bytes

        size = len(unquote_to_bytes(payload))
    if not media_type.lower().startswith(f"{kind}/"):
        what = _("data: URL of type {media_type}, {size}", media_type=media_type, size=Size(size))
        why = _("(not embedded: not {kind} data)", kind=_kind(kind))
        return _summary(kind, _with_note(escape(what), why))
    if len(url) > INLINE_MEDIA_LIMIT:
        return _too_large(kind, media_type, size)
    return _player(kind, url, media_type, size)


def _media(kind: str, source: Mapping[str, Any]) -> str:
    """An image, audio or video source: embedded up to :data:`INLINE_MEDIA_LIMIT`
    characters, else summarised. A remote URL is a link, never fetched (the docs site is
    built without network); a local file is shown as its path, never linked: the reader
    has no such file, and a page should not point into the reader's disk."""
    if source.get("type") == "base64":
        media_type = str(source.get("media_type", ""))
        data = str(source.get("data", ""))
        size = _base64_size(data)
        if len(data) > INLINE_MEDIA_LIMIT:
            return _too_large(kind, media_type, size)
        return _player(kind, f"data:{media_type};base64,{data}", media_type, size)
    url = str(source.get("url", ""))
    if url.startswith("data:"):
        return _data_url(kind, url)
    if url.startswith(("http://", "https://")):
        link = f'<a href="{_escape_url(url)}" rel="nofollow noopener noreferrer">{escape(url)}</a>'
        return _summary(kind, _with_note(link, _("(remote, not loaded)")))
    note = _("(local file, not loaded)") if is_local_file(url) else _("(not loaded)")
    return _summary(kind, _with_note(f"<code>{escape(url)}</code>", note))


# -- blocks ------------------------------------------------------------------------


def _caption(title: str, block: Mapping[str, Any]) -> str:
    # Translators: labels the call id that follows it in a tool call's or result's caption.
    id_label = escape(_("id"))
    return (
        f'<caption><span class="agentmsg-tag">{escape(title)}</span> '
        f"<code>{_isolated(str(block.get('name', '')))}</code> "
        f'<span class="agentmsg-muted">{id_label}</span> '
        f"<code>{_isolated(str(block.get('id', '')))}</code></caption>"
    )


def _tool_use(block: Mapping[str, Any]) -> str:
    arguments = block.get("input")
    caption = _caption(_("Tool call"), block)
    # Translators: the column headings of a tool call's table of arguments.
    heads = (_("argument"), _("value"))
    values = arguments if isinstance(arguments, dict) else {}
    return _key_table("tool-use", caption, heads, values, _("no arguments"))


def _key_table(
    kind: str, caption: str, heads: tuple[str, str], values: Mapping[str, Any], empty: str
) -> str:
    """A table (class ``agentmsg-<kind>``) of a row per key and value of *values*, under
    the column *heads*; without any, one muted cell saying *empty*."""
    if values:
        rows = "".join(
            f'<tr><th scope="row"><code>{escape(key)}</code></th><td>{_value(item)}</td></tr>'
            for key, item in values.items()
        )
    else:
        rows = f'<tr><td colspan="2" class="agentmsg-muted">{escape(empty)}</td></tr>'
    head = "".join(f'<th scope="col">{escape(text)}</th>' for text in heads)
    return (
        f'<table class="agentmsg-table agentmsg-{kind}">{caption}'
        f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
    )


def _parsed_json(text: str) -> Any:
    """The dict or list that *text* holds as JSON, or None when it holds something else,
    or JSON a message could not hold (nested too deeply, lone surrogates written as
    escapes): such a text is shown as it is."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return None
    try:
        value = json.loads(stripped)
        check_json(value, "output", MAX_DEPTH)
    except (ValueError, RecursionError):  # MessageError is a ValueError
        return None
    return value if isinstance(value, dict | list) else None


def _output(output: Any) -> str:
    if isinstance(output, str):
        parsed = _parsed_json(output)
        if parsed is not None:
            return _json_block(parsed)
        return f'<div class="agentmsg-text">{escape(output)}</div>'
    if (
        isinstance(output, list)
        and output
        and all(isinstance(item, dict) and item.get("type") in OUTPUT_TYPES for item in output)
    ):
        return f'<div class="agentmsg-body">{render_blocks(output)}</div>'
    return _value(output)


def _tool_result(block: Mapping[str, Any]) -> str:
    caption = _caption(_("Tool result"), block)
    output = escape(_("output"))
    return (
        f'<table class="agentmsg-table agentmsg-tool-result">{caption}'
        f'<tbody><tr><th scope="row">{output}</th>'
        f"<td>{_output(block.get('output'))}</td></tr></tbody></table>"
    )


def _text(text: str) -> str:
    if not text:
        empty = escape(_("(empty text)"))
        return f'<p class="agentmsg-text agentmsg-muted">{empty}</p>'
    return f'<div class="agentmsg-text">{escape(text)}</div>'


def _block(block: Mapping[str, Any]) -> str:
    kind = block.get("type")
    if kind == "text":
        return _text(str(block.get("text", "")))
    if kind == "thinking":
        thinking = str(block.get("thinking", ""))
        # Translators: the length of a folded thinking block.
        length = _n(
            "({count} character)", "({count} characters)", len(thinking), count=len(thinking)
        )
        title = escape(_("Thinking"))
        return (
            f'<details class="agentmsg-thinking"><summary>{_with_note(title, length)}</summary>'
            f'<div class="agentmsg-text">{escape(thinking)}</div></details>'
        )
    if kind in MEDIA_KINDS:
        source = block.get("source")
        return _media(str(kind), source if isinstance(source, dict) else {})
    if kind == "tool_use":
        return _tool_use(block)
    if kind == "tool_result":
        return _tool_result(block)
    return _summary(str(kind), _json_block(dict(block)))


def render_blocks(content: str | Iterable[Mapping[str, Any]]) -> str:
    """A message's content (a string or validated blocks) as HTML, one element per block,
    without the card."""
    if isinstance(content, str):
        return _text(content)
    parts = [_block(block) for block in content]
    if parts:
        return "".join(parts)
    nothing = escape(_("(no content)"))
    return f'<p class="agentmsg-muted">{nothing}</p>'


def render_card(
    *,
    name: str,
    role: str,
    content: str | Iterable[Mapping[str, Any]],
    timestamp: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    label: str | None = None,
    extras: Iterable[tuple[str, str]] = (),
    message_id: str | None = None,
) -> str:
    """A chat card (an ``<article>`` with its own ``<style>``) from a message's parts.

    The header shows the *role* as a badge (coloured for user, assistant and system), the
    sender *name* in bold, the kind *label* (such as ``"Msg"``), the *extras* (``(label,
    value)`` pairs such as ``("tokens", "12")``) and the *timestamp*; the body shows the
    *content* and, when not None, the *metadata* as a table; *message_id* goes to the
    ``data-agentmsg-id`` attribute.
    """
    head = [
        f'<span class="agentmsg-badge">{_isolated(role)}</span>',
        f'<strong class="agentmsg-name">{_isolated(name)}</strong>',
    ]
    if label:
        head.append(f'<span class="agentmsg-kind">{_isolated(label)}</span>')
    head.extend(
        f'<span class="agentmsg-extra">{_isolated(key)} {_isolated(value)}</span>'
        for key, value in extras
    )
    if timestamp:
        head.append(
            f'<time class="agentmsg-time" datetime="{escape(timestamp)}">{escape(timestamp)}</time>'
        )
    body = render_blocks(content)
    if metadata is not None:
        title = escape(_("Metadata"))
        caption = f'<caption><span class="agentmsg-tag">{title}</span></caption>'
        # Translators: the column headings of a message's metadata table.
        heads = (_("key"), _("value"))
        body += _key_table("metadata", caption, heads, metadata, _("empty"))
    data_id = "" if message_id is None else f' data-agentmsg-id="{escape(message_id)}"'
    if name == role:  # as from_openai_chat names a reply: no sender to add
        # Translators: the accessible name of a card whose sender is named after its
        # role; {role} is the role as its code wrote it ("user", "assistant", ...).
        aria = _("{role} message", role=role)
    else:
        # Translators: the accessible name of a card; {role} is the message's role as its
        # code wrote it ("user", "assistant", ...), {name} its sender.
        aria = _("{role} message from {name}", role=role, name=name)
    return (
        f'<article class="agentmsg-card {_role_class(role)}"{data_id} aria-label="{escape(aria)}">'
        f"<style>{STYLE}</style>"
        f'<div class="agentmsg-head">{"".join(head)}</div>'
        f'<div class="agentmsg-body">{body}</div>'
        "</article>"
    )


def render_msg(msg: MessageLike) -> str:
    """*msg* as a chat card labelled with its class name (what :meth:`Msg._repr_html_`
    returns)."""
    return render_card(
        name=msg.name,
        role=msg.role,
        content=msg.content,
        timestamp=msg.timestamp,
        metadata=msg.metadata,
        label=type(msg).__name__,
        message_id=msg.id,
    )
