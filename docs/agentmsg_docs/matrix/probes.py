"""The rows of the conversion tables: what each ``to_*`` and ``from_*`` conversion keeps,
carries another way or loses, found by running it.

Each row is a small probe (a conversation holding one thing, marked with a string no
other part of the probe holds); each cell runs the converter on it and reads the result
(:mod:`.cells`). The docs build writes these cells as the conversion matrix page, and the
tests compare that page with a fresh run, so the page cannot say what the code does not do.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, NamedTuple

from agentmsg import Msg

from .cells import (
    ABSENT,
    CARRIED,
    FORMATS,
    KEPT,
    NONE,
    RECORD,
    STATE_KEY,
    UNREPORTED,
    Cell,
    Format,
    b64,
    from_losses,
    marker_places,
    under,
)


class Probe(NamedTuple):
    """One row: a thing, the conversation that holds it and where it sits there.

    ``native`` (by format key) replaces the conversation with provider data read first:
    for what only a provider gives (a signed thinking block, redacted thinking).
    """

    key: str
    marker: str
    path: str
    conversation: Callable[[], list[Msg]] | None = None
    native: dict[str, dict[str, Any]] | None = None
    record: bool = False  # a field of agentmsg's record: never sent


def _media(kind: str, marker: str, media_type: str) -> dict[str, Any]:
    return {
        "type": kind,
        "source": {"type": "base64", "media_type": media_type, "data": b64(marker)},
    }


def _url(kind: str, marker: str, extension: str) -> dict[str, Any]:
    return {
        "type": kind,
        "source": {"type": "url", "url": f"https://example.com/{marker}.{extension}"},
    }


def _user(*blocks: dict[str, Any]) -> list[Msg]:
    return [Msg("user", list(blocks), "user")]  # type: ignore[arg-type]


def _assistant(*blocks: dict[str, Any]) -> list[Msg]:
    return [
        Msg("user", "Go on.", "user"),
        Msg("assistant", list(blocks), "assistant"),  # type: ignore[arg-type]
    ]


def _call(marker: str = "call_1", **extra: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": marker, "name": "lookup", "input": {"q": "x"}, **extra}


def _results(output: Any, role: str = "system") -> list[Msg]:
    """A tool call and its result, sent in a message of *role*."""
    result = {"type": "tool_result", "id": "call_1", "name": "lookup", "output": output}
    return [
        Msg("user", "Look it up.", "user"),
        Msg("assistant", [_call()], "assistant"),  # type: ignore[list-item]
        Msg(role, [result], role),  # type: ignore[list-item, arg-type]
    ]


def _record_field(key: str, marker: str, **field: Any) -> Probe:
    """A probe of one field of agentmsg's record, which no format sends, on a user's
    message."""
    [name] = field

    def conversation() -> list[Msg]:
        return [Msg("user", "Hi.", "user", **field)]

    return Probe(key, marker, f"messages[0].{name}", conversation, record=True)


#: Each media kind: its markers' code, a media type, its file name extension and what a
#: tool result holding it says.
_MEDIA = (
    ("image", "IMG", "image/png", "png", "Seen."),
    ("audio", "AUD", "audio/wav", "wav", "Heard."),
    ("video", "VID", "video/mp4", "mp4", "Watched."),
)


def _media_blocks() -> list[Probe]:
    """A block of each media kind in a user's message, its data in base64, then by URL."""
    probes = []
    for kind, code, media_type, extension, _ in _MEDIA:
        base64, url = f"PROBE_{code}_B64", f"PROBE_{code}_URL"
        probes += [
            Probe(
                f"{kind} block, base64",
                base64,
                "messages[0].content[0]",
                functools.partial(_user, _media(kind, base64, media_type)),
            ),
            Probe(
                f"{kind} block, URL",
                url,
                "messages[0].content[0]",
                functools.partial(_user, _url(kind, url, extension)),
            ),
        ]
    return probes


def _media_in_results() -> list[Probe]:
    """A tool result of a text and a block of each media kind."""
    return [
        Probe(
            f"{kind} in a tool result",
            f"PROBE_OUT_{code}",
            "messages[2].content[0].output[1]",
            functools.partial(
                _results,
                [{"type": "text", "text": said}, _media(kind, f"PROBE_OUT_{code}", media_type)],
            ),
        )
        for kind, code, media_type, _, said in _MEDIA
    ]


PROBES: tuple[Probe, ...] = (
    Probe(
        "text block",
        "PROBE_TEXT",
        "messages[0].content[0]",
        lambda: _user({"type": "text", "text": "PROBE_TEXT"}),
    ),
    Probe(
        "thought signature of a text block",
        "PROBETSG",
        "messages[1].content[0]",
        lambda: _assistant({"type": "text", "text": "Hi.", "thought_signature": "PROBETSG"}),
    ),
    Probe(
        "thinking block",
        "PROBE_THINK",
        "messages[1].content[0]",
        lambda: _assistant(
            {"type": "thinking", "thinking": "PROBE_THINK"}, {"type": "text", "text": "Hi."}
        ),
    ),
    Probe(
        "signature of a thinking block",
        "PROBE_SIG",
        "messages[1].content[0]",
        lambda: _assistant(
            {"type": "thinking", "thinking": "Hm.", "signature": "PROBE_SIG"},
            {"type": "text", "text": "Hi."},
        ),
    ),
    Probe(
        "thinking the API signed or encrypted",
        "PROBE_SEAL",
        "messages[1].content[0]",
        native={
            "openai_responses": {
                "input": [
                    {"type": "message", "role": "user", "content": "Go on."},
                    {
                        "type": "reasoning",
                        "id": "rs_PROBE_SEAL",
                        "encrypted_content": "PROBE_SEAL",
                        "summary": [{"type": "summary_text", "text": "Hm."}],
                    },
                    {
                        "type": "message",
                        "role": "assistant",
                        "id": "msg_1",
                        "content": [{"type": "output_text", "text": "Hi."}],
                    },
                ]
            },
            "anthropic": {
                "messages": [
                    {"role": "user", "content": "Go on."},
                    {
                        "role": "assistant",
                        "content": [
                            {"type": "thinking", "thinking": "Hm.", "signature": "PROBE_SEAL"},
                            {"type": "text", "text": "Hi."},
                        ],
                    },
                ]
            },
            "gemini": {
                "contents": [
                    {"role": "user", "parts": [{"text": "Go on."}]},
                    {
                        "role": "model",
                        "parts": [
                            {
                                "text": "Hm.",
                                "thought": True,
                                "thought_signature": b64("PROBE_SEAL"),
                            },
                            {"text": "Hi."},
                        ],
                    },
                ]
            },
        },
    ),
    Probe(
        "redacted thinking",
        "PROBE_REDACTED",
        "messages[1].content[0]",
        native={
            "anthropic": {
                "messages": [
                    {"role": "user", "content": "Go on."},
                    {
                        "role": "assistant",
                        "content": [
                            {"type": "redacted_thinking", "data": "PROBE_REDACTED"},
                            {"type": "text", "text": "Hi."},
                        ],
                    },
                ]
            }
        },
    ),
    *_media_blocks(),
    Probe(
        "tool use block",
        "PROBE_CALL",
        "messages[1].content[0]",
        lambda: _assistant(_call("PROBE_CALL")),
    ),
    Probe(
        "thought signature of a tool use block",
        "PROBECSG",
        "messages[1].content[0]",
        lambda: _assistant(_call(thought_signature="PROBECSG")),
    ),
    Probe(
        "tool result of text", "PROBE_OUT", "messages[2].content[0]", lambda: _results("PROBE_OUT")
    ),
    Probe(
        "tool result of JSON",
        "PROBE_JSON",
        "messages[2].content[0]",
        lambda: _results({"answer": "PROBE_JSON"}),
    ),
    *_media_in_results(),
    Probe(
        "sender name", "PROBE_NAME", "messages[0].name", lambda: [Msg("PROBE_NAME", "Hi.", "user")]
    ),
    Probe(
        "role `user`",
        "PROBE_ROLE_U",
        "messages[0].role",
        lambda: [Msg("user", "PROBE_ROLE_U", "user")],
    ),
    Probe(
        "role `assistant`",
        "PROBE_ROLE_A",
        "messages[1].role",
        lambda: [Msg("user", "Hi.", "user"), Msg("assistant", "PROBE_ROLE_A", "assistant")],
    ),
    Probe(
        "role `system`",
        "PROBE_ROLE_S",
        "messages[0].role",
        lambda: [Msg("system", "PROBE_ROLE_S", "system"), Msg("user", "Hi.", "user")],
    ),
    Probe(
        "role of a message of tool results, not `system`",
        "PROBE_ROLE_T",
        "messages[2].role",
        lambda: _results("PROBE_ROLE_T", role="user"),
    ),
    _record_field("metadata", "PROBE_META", metadata={"note": "PROBE_META"}),
    _record_field("message id", "PROBE_ID", id="PROBE_ID"),
    _record_field("timestamp", "2001-02-03", timestamp="2001-02-03 04:05:06.000"),
    _record_field("invocation id", "PROBE_INV", invocation_id="PROBE_INV"),
)


def _role_cell(probe: Probe, messages: list[Msg], original: list[Msg]) -> Cell:
    """Whether the message holding the marker came back with the role it went with."""
    index = int(probe.path.split("]")[0].split("[")[1])
    places = marker_places(messages, probe.marker)
    if not places:
        return Cell(UNREPORTED)
    back = messages[int(places[0].split("]")[0].split("[")[1])]
    if back.role == original[index].role:
        return Cell(KEPT)
    # a role the request had no place for comes back as agentmsg's convention says
    return Cell(CARRIED, where="role_system") if back.role == "system" else Cell(UNREPORTED)


def _read_back(probe: Probe, messages: list[Msg], original: list[Msg] | None) -> Cell:
    """Where the marker is in *messages*, read back from a request or from provider data."""
    if original is not None and probe.key.startswith("role "):
        return _role_cell(probe, messages, original)
    places = marker_places(messages, probe.marker)
    if not places:
        return Cell(UNREPORTED)
    if any(place.startswith(probe.path) for place in places):
        return Cell(KEPT)
    if any(f".metadata.{STATE_KEY}." in place for place in places):
        return Cell(CARRIED, where="provider_state")
    return Cell(CARRIED, where="moved")


def _conversation(probe: Probe) -> list[Msg]:
    if probe.conversation is None:
        msg = f"probe {probe.key!r} has neither a conversation nor provider data"
        raise TypeError(msg)
    return probe.conversation()


def to_cell(fmt: Format, probe: Probe) -> Cell:
    """What ``to_*`` of *fmt* does with the thing of *probe*."""
    if probe.native is not None:
        data = probe.native.get(fmt.key)
        if data is None:
            return Cell(NONE)
        conversation = fmt.read(data).messages
    else:
        conversation = _conversation(probe)
    result = fmt.to(conversation)
    losses = tuple(loss for loss in result.losses if under(loss, probe.path))
    if losses:
        return from_losses(losses)  # type: ignore[return-value]
    if probe.record:
        return Cell(RECORD)
    text = json.dumps(result.payload, ensure_ascii=False)
    if probe.marker in text or b64(probe.marker) in text:
        return Cell(KEPT)
    if probe.key.startswith("role "):
        return Cell(KEPT)  # a role is said by the message's place or field, checked on the way back
    return Cell(UNREPORTED)


def from_cell(fmt: Format, probe: Probe) -> Cell:
    """What ``from_*`` of *fmt* does with the thing of *probe*, as the provider gives it.

    For a conversation probe the provider data is the request ``to_*`` wrote for it (a
    request holds what a response does, with the same fields); for a native probe, the
    provider's own data.
    """
    original: list[Msg] | None = None
    if probe.native is not None:
        data = probe.native.get(fmt.key)
        if data is None:
            return Cell(NONE)
    else:
        original = _conversation(probe)
        written = fmt.to(original)
        if probe.record or any(loss.dropped and under(loss, probe.path) for loss in written.losses):
            return Cell(ABSENT)
        data = written.payload
    parsed = fmt.read(data)
    reported = from_losses(parsed.losses)
    if reported is not None:
        return reported
    return _read_back(probe, parsed.messages, original)


def matrix() -> dict[str, dict[str, tuple[Cell, Cell]]]:
    """Every cell: ``{format key: {probe key: (to cell, from cell)}}``."""
    return {
        fmt.key: {probe.key: (to_cell(fmt, probe), from_cell(fmt, probe)) for probe in PROBES}
        for fmt in FORMATS
    }
