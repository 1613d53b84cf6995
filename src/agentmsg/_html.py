"""HTML cards for messages, shown by Jupyter and by sphinx-gallery's executed output.

:meth:`Msg._repr_html_ <agentmsg.Msg._repr_html_>` imports this module on first use,
so ``import agentmsg`` does not pay for :mod:`html` and :mod:`json`.

Every card is one ``<article class="agentmsg-card">`` that carries its own ``<style>``
block, so it looks the same in a notebook, in a saved notebook and on the docs site.
The rules are scoped to ``agentmsg-`` classes and written with a doubled class
(``.agentmsg-card.agentmsg-card``) so they win over the generic ``.rendered_html``
and ``.jp-RenderedHTMLCommon`` table, ``pre`` and ``img`` rules of the host page.
Colours are CSS custom properties: the light palette is the ``var()`` fallback, the
dark palette is set by furo's ``body[data-theme="dark"]``, by JupyterLab's dark
themes, and by ``prefers-color-scheme: dark`` unless the page says it is light. A
page may restyle cards by defining the ``--agentmsg-*`` properties itself.

The output depends on the message alone: no random element ids, no clock, so the
same message always renders to the same text.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from ._validate import is_file_url, is_local_path

__all__ = [
    "DARK",
    "INLINE_MEDIA_LIMIT",
    "JSON_LIMIT",
    "LIGHT",
    "STYLE",
    "render_blocks",
    "render_card",
    "render_msg",
]

INLINE_MEDIA_LIMIT = 512 * 1024
"""Base64 payloads and ``data:`` URLs longer than this many characters are summarised."""

JSON_LIMIT = 10_000
"""Pretty-printed JSON longer than this many characters is cut, with a note."""

# Light palette (the fallbacks) and dark palette. Each text/background pair the card
# uses passes WCAG 2 AA (4.5:1); tests/test_html.py measures them in the rendered CSS.
LIGHT: dict[str, str] = {
    "fg": "#1f2328",
    "bg": "#ffffff",
    "muted": "#59636e",
    "panel": "#f6f8fa",
    "border": "#d1d9e0",
    "link": "#0969da",
    "user-fg": "#0550ae",
    "user-bg": "#ddf4ff",
    "assistant-fg": "#116329",
    "assistant-bg": "#dafbe1",
    "system-fg": "#6639ba",
    "system-bg": "#fbefff",
    "other-fg": "#953800",
    "other-bg": "#fff1e5",
}
DARK: dict[str, str] = {
    "fg": "#e6edf3",
    "bg": "#1a1d23",
    "muted": "#9ea8b3",
    "panel": "#23272e",
    "border": "#3d444d",
    "link": "#6cb6ff",
    "user-fg": "#a5d6ff",
    "user-bg": "#12335c",
    "assistant-fg": "#7ee787",
    "assistant-bg": "#0f3a1e",
    "system-fg": "#d8b9ff",
    "system-bg": "#3b2166",
    "other-fg": "#ffb77c",
    "other-bg": "#4a2408",
}
_BADGE_ROLES = ("user", "assistant", "system")
_MONO = 'ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace'
_SANS = 'system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,sans-serif'


def _v(name: str) -> str:
    """``var(--agentmsg-NAME, light fallback)``."""
    return f"var(--agentmsg-{name},{LIGHT[name]})"


def _build_style() -> str:
    fg, bg, muted, panel, border, link = (
        _v(name) for name in ("fg", "bg", "muted", "panel", "border", "link")
    )
    rules = [
        f"&{{display:block;box-sizing:border-box;max-width:100%;margin:.5em 0;"
        f"padding:.55em .8em .65em;border:1px solid {border};border-radius:8px;"
        f"background:{bg};color:{fg};font-family:var(--agentmsg-font,{_SANS});"
        "font-size:.875rem;line-height:1.45;text-align:left;overflow-wrap:anywhere;"
        "color-scheme:var(--agentmsg-scheme,light)}",
        "& *{box-sizing:border-box}",
        "& .agentmsg-head{display:flex;flex-wrap:wrap;align-items:baseline;"
        "gap:.15em .55em;margin:0 0 .4em}",
        f"& .agentmsg-badge{{display:inline-block;padding:0 .55em;border-radius:999px;"
        f"font-size:.8em;font-weight:600;line-height:1.6;color:{_v('other-fg')};"
        f"background:{_v('other-bg')}}}",
        *(
            f"&.agentmsg-role-{role} .agentmsg-badge{{color:{_v(role + '-fg')};"
            f"background:{_v(role + '-bg')}}}"
            for role in _BADGE_ROLES
        ),
        "& .agentmsg-name{font-weight:700;color:inherit}",
        f"& .agentmsg-kind,& .agentmsg-extra,& .agentmsg-time{{font-size:.85em;color:{muted}}}",
        f"& .agentmsg-kind{{font-family:var(--agentmsg-mono,{_MONO})}}",
        "& .agentmsg-time{margin-left:auto;font-variant-numeric:tabular-nums}",
        "& .agentmsg-body>*{margin:0}",
        "& .agentmsg-body>*+*{margin-top:.5em}",
        "& .agentmsg-text{white-space:pre-wrap;margin:0}",
        f"& .agentmsg-muted{{color:{muted}}}",
        f"& .agentmsg-thinking .agentmsg-text{{color:{muted}}}",
        f"& .agentmsg-note{{margin:.2em 0 0;font-size:.85em;font-style:italic;color:{muted}}}",
        f"& .agentmsg-tag{{font-size:.78em;font-weight:600;letter-spacing:.04em;"
        f"text-transform:uppercase;color:{muted}}}",
        f"& details{{margin:0;padding:0 0 0 .6em;border-left:3px solid {border}}}",
        f"& summary{{cursor:pointer;font-size:.9em;color:{muted}}}",
        "& details[open]>summary{margin-bottom:.25em}",
        f"& a{{color:{link};text-decoration:underline}}",
        f"& a:focus-visible,& summary:focus-visible{{outline:2px solid {link};outline-offset:2px}}",
        f"& code,& pre{{font-family:var(--agentmsg-mono,{_MONO});font-size:.9em;color:{fg};"
        f"background:{panel};border:0;border-radius:4px}}",
        "& code{padding:0 .25em;white-space:pre-wrap}",
        "& pre{margin:0;padding:.4em .6em;white-space:pre-wrap;overflow-wrap:anywhere}",
        "& pre code,& td pre,& td code{font-size:1em}",
        "& pre code{padding:0;background:transparent}",
        f"& table.agentmsg-table{{width:100%;max-width:100%;margin-left:0;margin-right:0;"
        f"margin-bottom:0;border-collapse:collapse;border:1px solid {border};"
        "font-size:.93em;color:inherit;table-layout:auto}",
        f"& .agentmsg-table caption{{caption-side:top;text-align:left;padding:0 0 .2em;"
        f"color:{fg}}}",
        f"& .agentmsg-table th,& .agentmsg-table td{{padding:.2em .6em;text-align:left;"
        f"vertical-align:top;border:1px solid {border};white-space:normal;line-height:1.4;"
        "max-width:none;background:transparent;color:inherit}",
        f"& .agentmsg-table th{{font-weight:600;background:{panel}}}",
        # Keys keep whole words: ``anywhere`` would shrink the key column to one letter.
        "& .agentmsg-table th{overflow-wrap:break-word}",
        "& .agentmsg-table th[scope=row]{width:1%}",
        "& .agentmsg-table tbody tr,& .agentmsg-table tbody tr:nth-child(odd),"
        "& .agentmsg-table tbody tr:hover{background:transparent;color:inherit}",
        "& .agentmsg-str{white-space:pre-wrap}",
        "& figure.agentmsg-media{margin:0;padding:0}",
        f"& figcaption{{margin:.15em 0 0;font-size:.85em;color:{muted}}}",
        f"& img.agentmsg-img{{display:block;width:auto;height:auto;max-width:min(100%,320px);"
        f"max-height:240px;margin:0;border:1px solid {border};border-radius:4px;"
        f"background:{panel}}}",
        "& audio.agentmsg-player{display:block;width:min(100%,360px);margin:0}",
        "& video.agentmsg-player{display:block;max-width:min(100%,420px);max-height:260px;"
        "margin:0}",
    ]
    prefix = ".agentmsg-card.agentmsg-card"
    css = "".join(rule.replace("&", prefix) for rule in rules)
    dark = "".join(f"--agentmsg-{name}:{value};" for name, value in DARK.items())
    dark += "--agentmsg-scheme:dark"
    dark_pages = ",".join(
        f"{page} .agentmsg-card"
        for page in (
            'body[data-theme="dark"]',
            'html[data-theme="dark"]',
            'body[data-jp-theme-light="false"]',
            "body.vscode-dark",
        )
    )
    not_light = (
        'body:not([data-theme="light"]):not([data-jp-theme-light="true"]):not(.vscode-light)'
    )
    css += f"@media (prefers-color-scheme:dark){{{not_light} .agentmsg-card{{{dark}}}}}"
    css += f"{dark_pages}{{{dark}}}"
    return css


STYLE = _build_style()
"""The CSS every card carries in its ``<style>`` block."""


class MessageLike(Protocol):
    """What :func:`render_msg` reads from a message: the fields of :class:`~agentmsg.Msg`."""

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


def _esc(text: str) -> str:
    """Escape *text* for element content and quoted attribute values.

    Tabs become ``&#9;`` so they survive reStructuredText, which expands tabs in the
    ``.. raw:: html`` blocks that sphinx-gallery writes.
    """
    return html.escape(text, quote=True).replace("\t", "&#9;")


def _size(count: int) -> str:
    """A byte count for people: ``512 bytes``, ``1.2 KiB``, ``3.0 MiB``."""
    if count == 1:
        return "1 byte"
    if count < 1024:
        return f"{count:,} bytes"
    if count < 1024 * 1024:
        number, unit = count / 1024, "KiB"
    else:
        number, unit = count / (1024 * 1024), "MiB"
    return f"{number:.1f}".removesuffix(".0") + f" {unit}"


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
        return f'<pre class="agentmsg-json">{_esc(text)}</pre>'
    cut = text.rfind("\n", 0, JSON_LIMIT)
    if cut <= 0:
        cut = JSON_LIMIT
    note = f"JSON truncated: {cut:,} of {len(text):,} characters shown."
    shown = f'<pre class="agentmsg-json">{_esc(text[:cut])}\n…</pre>'
    return f'{shown}<p class="agentmsg-note">{note}</p>'


def _value(value: Any) -> str:
    """One JSON value: strings as wrapped text, scalars as code, containers as a block."""
    if isinstance(value, str):
        return f'<span class="agentmsg-str">{_esc(value)}</span>'
    if isinstance(value, dict | list):
        return _json_block(value)
    return f"<code>{_esc(_json_text(value, None))}</code>"


def _role_class(role: str) -> str:
    """``agentmsg-role-<role>`` with anything but ``[a-z0-9_-]`` replaced by ``-``."""
    safe = "".join(
        char if char.isascii() and (char.isalnum() or char in "_-") else "-"
        for char in role.lower()
    )
    return f"agentmsg-role-{safe or 'none'}"


# -- media -------------------------------------------------------------------------


def _summary(kind: str, body: str) -> str:
    return f'<p class="agentmsg-media"><span class="agentmsg-tag">{_esc(kind)}</span> {body}</p>'


def _player(kind: str, src: str, media_type: str, size: int) -> str:
    label = f"{kind} ({media_type}, {_size(size)})"
    if kind == "image":
        return (
            f'<figure class="agentmsg-media"><img class="agentmsg-img" src="{_esc(src)}" '
            f'alt="{_esc(label)}"></figure>'
        )
    return (
        f'<figure class="agentmsg-media"><{kind} class="agentmsg-player" controls '
        f'preload="metadata" src="{_esc(src)}" aria-label="{_esc(label)}"></{kind}>'
        f"<figcaption>{_esc(label)}</figcaption></figure>"
    )


def _too_large(kind: str, media_type: str, size: int) -> str:
    limit = _size(INLINE_MEDIA_LIMIT)
    return _summary(
        kind,
        f"{_esc(media_type)}, {_size(size)} "
        f'<span class="agentmsg-muted">(not embedded: over the {limit} inline limit)</span>',
    )


def _data_url(kind: str, url: str) -> str:
    header, _, payload = url[5:].partition(",")
    params = header.split(";")
    media_type = params[0] or "text/plain"
    if "base64" in params[1:]:
        size = _base64_size(payload)
    else:
        from urllib.parse import unquote_to_bytes

        size = len(unquote_to_bytes(payload))
    if not media_type.lower().startswith(f"{kind}/"):
        return _summary(
            kind,
            f"data: URL of type {_esc(media_type)}, {_size(size)} "
            f'<span class="agentmsg-muted">(not embedded: not {_esc(kind)} data)</span>',
        )
    if len(url) > INLINE_MEDIA_LIMIT:
        return _too_large(kind, media_type, size)
    return _player(kind, url, media_type, size)


def _media(kind: str, source: Mapping[str, Any]) -> str:
    """An image, audio or video source: embedded, summarised or linked.

    Base64 payloads and ``data:`` URLs up to :data:`INLINE_MEDIA_LIMIT` characters are
    embedded. Remote URLs become a link: an ``<img>`` or player would make the browser
    fetch them, and the docs site is built and tested without network. Local files
    (``file://`` URLs and absolute paths) are shown as their path, never as a link or an
    ``<img>``: the page's reader has no such file, and a page should not point into the
    reader's own disk.
    """
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
        link = f'<a href="{_esc(url)}" rel="nofollow noopener noreferrer">{_esc(url)}</a>'
        return _summary(kind, f'{link} <span class="agentmsg-muted">(remote, not loaded)</span>')
    note = "local file, not loaded" if is_local_path(url) or is_file_url(url) else "not loaded"
    return _summary(kind, f'<code>{_esc(url)}</code> <span class="agentmsg-muted">({note})</span>')


# -- blocks ------------------------------------------------------------------------


def _caption(title: str, block: Mapping[str, Any]) -> str:
    return (
        f'<caption><span class="agentmsg-tag">{title}</span> '
        f"<code>{_esc(str(block.get('name', '')))}</code> "
        f'<span class="agentmsg-muted">id</span> <code>{_esc(str(block.get("id", "")))}</code>'
        "</caption>"
    )


def _tool_use(block: Mapping[str, Any]) -> str:
    arguments = block.get("input")
    if isinstance(arguments, dict) and arguments:
        rows = "".join(
            f'<tr><th scope="row"><code>{_esc(key)}</code></th><td>{_value(item)}</td></tr>'
            for key, item in arguments.items()
        )
    else:
        rows = '<tr><td colspan="2" class="agentmsg-muted">no arguments</td></tr>'
    return (
        f'<table class="agentmsg-table agentmsg-tool-use">{_caption("Tool call", block)}'
        '<thead><tr><th scope="col">argument</th><th scope="col">value</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )


def _parsed_json(text: str) -> Any:
    """The dict or list that *text* holds as JSON, or None when it holds something else."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return None
    try:
        value = json.loads(stripped)
    except ValueError:
        return None
    return value if isinstance(value, dict | list) else None


def _output(output: Any) -> str:
    if isinstance(output, str):
        parsed = _parsed_json(output)
        if parsed is not None:
            return _json_block(parsed)
        return f'<div class="agentmsg-text">{_esc(output)}</div>'
    if (
        isinstance(output, list)
        and output
        and all(
            isinstance(item, dict)
            and isinstance(item.get("type"), str)
            and item["type"] in _OUTPUT_BLOCKS
            for item in output
        )
    ):
        return f'<div class="agentmsg-body">{render_blocks(output)}</div>'
    return _value(output)


_OUTPUT_BLOCKS = frozenset({"text", "image", "audio", "video"})


def _tool_result(block: Mapping[str, Any]) -> str:
    return (
        f'<table class="agentmsg-table agentmsg-tool-result">{_caption("Tool result", block)}'
        f'<tbody><tr><th scope="row">output</th><td>{_output(block.get("output"))}</td></tr>'
        "</tbody></table>"
    )


def _text(text: str) -> str:
    if not text:
        return '<p class="agentmsg-text agentmsg-muted">(empty text)</p>'
    return f'<div class="agentmsg-text">{_esc(text)}</div>'


def _block(block: Mapping[str, Any]) -> str:
    kind = block.get("type")
    if kind == "text":
        return _text(str(block.get("text", "")))
    if kind == "thinking":
        thinking = str(block.get("thinking", ""))
        return (
            '<details class="agentmsg-thinking"><summary>Thinking '
            f'<span class="agentmsg-muted">({len(thinking):,} characters)</span></summary>'
            f'<div class="agentmsg-text">{_esc(thinking)}</div></details>'
        )
    if kind in ("image", "audio", "video"):
        source = block.get("source")
        return _media(str(kind), source if isinstance(source, dict) else {})
    if kind == "tool_use":
        return _tool_use(block)
    if kind == "tool_result":
        return _tool_result(block)
    return _summary(str(kind), _json_block(dict(block)))


def render_blocks(content: str | Iterable[Mapping[str, Any]]) -> str:
    """Render message content (a string or content blocks) as HTML, without the card.

    Args:
        content: A message's ``content``: a string, or validated content blocks.

    Returns:
        One HTML element per block, all text escaped.
    """
    if isinstance(content, str):
        return _text(content)
    parts = [_block(block) for block in content]
    return "".join(parts) if parts else '<p class="agentmsg-muted">(no content)</p>'


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
    """Render a chat card from a message's parts.

    Args:
        name: The sender, shown in bold.
        role: The role, shown as a coloured badge (user, assistant and system have
            their own colours, any other role a neutral one).
        content: A string or a list of content blocks.
        timestamp: Shown small at the right of the header, when given.
        metadata: Shown as a table of keys and JSON values under the content, when
            not None.
        label: A short kind name shown after the sender, such as ``"Msg"``.
        extras: ``(label, value)`` pairs shown in the header, such as
            ``("tokens", "12")``.
        message_id: Written to the card's ``data-agentmsg-id`` attribute.

    Returns:
        An ``<article>`` element with its own ``<style>`` block.
    """
    head = [
        f'<span class="agentmsg-badge">{_esc(role)}</span>',
        f'<strong class="agentmsg-name">{_esc(name)}</strong>',
    ]
    if label:
        head.append(f'<span class="agentmsg-kind">{_esc(label)}</span>')
    head.extend(
        f'<span class="agentmsg-extra">{_esc(key)} {_esc(value)}</span>' for key, value in extras
    )
    if timestamp:
        head.append(
            f'<time class="agentmsg-time" datetime="{_esc(timestamp)}">{_esc(timestamp)}</time>'
        )
    body = render_blocks(content)
    if metadata is not None:
        if metadata:
            rows = "".join(
                f'<tr><th scope="row"><code>{_esc(key)}</code></th><td>{_value(item)}</td></tr>'
                for key, item in metadata.items()
            )
        else:
            rows = '<tr><td colspan="2" class="agentmsg-muted">empty</td></tr>'
        body += (
            '<table class="agentmsg-table agentmsg-metadata">'
            '<caption><span class="agentmsg-tag">Metadata</span></caption>'
            '<thead><tr><th scope="col">key</th><th scope="col">value</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>"
        )
    data_id = "" if message_id is None else f' data-agentmsg-id="{_esc(message_id)}"'
    aria = f"{role} message from {name}"
    return (
        f'<article class="agentmsg-card {_role_class(role)}"{data_id} aria-label="{_esc(aria)}">'
        f"<style>{STYLE}</style>"
        f'<div class="agentmsg-head">{"".join(head)}</div>'
        f'<div class="agentmsg-body">{body}</div>'
        "</article>"
    )


def render_msg(
    msg: MessageLike, *, label: str | None = None, extras: Iterable[tuple[str, str]] = ()
) -> str:
    """Render *msg* as a chat card (what :meth:`Msg._repr_html_` returns).

    Args:
        msg: A :class:`~agentmsg.Msg`, or any object with its fields.
        label: The kind shown after the sender; the class name by default.
        extras: ``(label, value)`` pairs shown in the header.
    """
    return render_card(
        name=msg.name,
        role=msg.role,
        content=msg.content,
        timestamp=msg.timestamp,
        metadata=msg.metadata,
        label=type(msg).__name__ if label is None else label,
        extras=extras,
        message_id=msg.id,
    )
