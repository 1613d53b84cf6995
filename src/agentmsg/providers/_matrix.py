"""What each conversion keeps, carries another way or loses, found by running it.

Each row is a small probe (a conversation holding one thing, marked with a string no
other part of the probe holds); each cell runs the converter on it and reads the result:
the losses reported at the thing's path, and where the marker turns up. The docs build
writes these cells as the conversion matrix page, and the tests compare that page with
a fresh run, so the page cannot say what the code does not do.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from .._message import Msg
from . import anthropic, gemini, openai_chat, openai_responses
from ._common import STATE_KEY, Conversion, Loss, Parsed
from ._stream import Stream
from ._stream_anthropic import AnthropicStream
from ._stream_gemini import GeminiStream
from ._stream_openai_chat import OpenAIChatStream
from ._stream_openai_responses import OpenAIResponsesStream

#: Cell statuses. "record": agentmsg's own record of a message, which no request has a
#: field for (not a loss, see the API docs); "absent": the request holds nothing of it to
#: read back; "none": the format has no such thing; "unreported": gone without a loss
#: (a defect the tests refuse).
KEPT, CARRIED, LOST, RECORD, ABSENT, NONE, UNREPORTED = (
    "kept",
    "carried",
    "lost",
    "record",
    "absent",
    "none",
    "unreported",
)


class Format(NamedTuple):
    """One provider format: its title, state key, its two conversions and its stream class."""

    key: str
    title: str
    to: Callable[..., Conversion]
    read: Callable[..., Parsed]
    stream: type[Stream]


FORMATS = (
    Format(
        "openai_chat",
        "Chat Completions",
        openai_chat.to_openai_chat,
        openai_chat.from_openai_chat,
        OpenAIChatStream,
    ),
    Format(
        "openai_responses",
        "Responses",
        openai_responses.to_openai_responses,
        openai_responses.from_openai_responses,
        OpenAIResponsesStream,
    ),
    Format(
        "anthropic",
        "Anthropic Messages",
        anthropic.to_anthropic,
        anthropic.from_anthropic,
        AnthropicStream,
    ),
    Format("gemini", "Gemini", gemini.to_gemini, gemini.from_gemini, GeminiStream),
)


class Cell(NamedTuple):
    """What one conversion does with one thing.

    ``where`` is set when the thing is carried another way and the losses do not say
    how: ``"provider_state"`` (in the message's provider state), ``"moved"`` (in
    another place of the conversation), ``"role_system"``, and for a reply
    ``"invocation_id"`` or ``"metadata"``. ``losses`` are the exact texts reported.
    ``events``, in a stream's cell, names the events of the stream that hold the thing.
    """

    status: str
    losses: tuple[str, ...] = ()
    where: str | None = None
    events: tuple[str, ...] = ()


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
    data = base64.b64encode(marker.encode()).decode()
    return {"type": kind, "source": {"type": "base64", "media_type": media_type, "data": data}}


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


def _b64(marker: str) -> str:
    return base64.b64encode(marker.encode()).decode()


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
                                "thought_signature": _b64("PROBE_SEAL"),
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
    Probe(
        "image block, base64",
        "PROBE_IMG_B64",
        "messages[0].content[0]",
        lambda: _user(_media("image", "PROBE_IMG_B64", "image/png")),
    ),
    Probe(
        "image block, URL",
        "PROBE_IMG_URL",
        "messages[0].content[0]",
        lambda: _user(_url("image", "PROBE_IMG_URL", "png")),
    ),
    Probe(
        "audio block, base64",
        "PROBE_AUD_B64",
        "messages[0].content[0]",
        lambda: _user(_media("audio", "PROBE_AUD_B64", "audio/wav")),
    ),
    Probe(
        "audio block, URL",
        "PROBE_AUD_URL",
        "messages[0].content[0]",
        lambda: _user(_url("audio", "PROBE_AUD_URL", "wav")),
    ),
    Probe(
        "video block, base64",
        "PROBE_VID_B64",
        "messages[0].content[0]",
        lambda: _user(_media("video", "PROBE_VID_B64", "video/mp4")),
    ),
    Probe(
        "video block, URL",
        "PROBE_VID_URL",
        "messages[0].content[0]",
        lambda: _user(_url("video", "PROBE_VID_URL", "mp4")),
    ),
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
    Probe(
        "image in a tool result",
        "PROBE_OUT_IMG",
        "messages[2].content[0].output[1]",
        lambda: _results(
            [{"type": "text", "text": "Seen."}, _media("image", "PROBE_OUT_IMG", "image/png")]
        ),
    ),
    Probe(
        "audio in a tool result",
        "PROBE_OUT_AUD",
        "messages[2].content[0].output[1]",
        lambda: _results(
            [{"type": "text", "text": "Heard."}, _media("audio", "PROBE_OUT_AUD", "audio/wav")]
        ),
    ),
    Probe(
        "video in a tool result",
        "PROBE_OUT_VID",
        "messages[2].content[0].output[1]",
        lambda: _results(
            [{"type": "text", "text": "Watched."}, _media("video", "PROBE_OUT_VID", "video/mp4")]
        ),
    ),
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
    Probe(
        "metadata",
        "PROBE_META",
        "messages[0].metadata",
        lambda: [Msg("user", "Hi.", "user", {"note": "PROBE_META"})],
        record=True,
    ),
    Probe(
        "message id",
        "PROBE_ID",
        "messages[0].id",
        lambda: [Msg("user", "Hi.", "user", id="PROBE_ID")],
        record=True,
    ),
    Probe(
        "timestamp",
        "2001-02-03",
        "messages[0].timestamp",
        lambda: [Msg("user", "Hi.", "user", timestamp="2001-02-03 04:05:06.000")],
        record=True,
    ),
    Probe(
        "invocation id",
        "PROBE_INV",
        "messages[0].invocation_id",
        lambda: [Msg("user", "Hi.", "user", invocation_id="PROBE_INV")],
        record=True,
    ),
)


def _places(messages: list[Msg], marker: str | int) -> list[str]:
    """The paths in *messages* whose value holds *marker* (base64 data decoded too), or,
    for an integer marker, whose value is that number."""
    found: list[str] = []

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{path}.{key}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{path}[{index}]")
        elif not isinstance(marker, str):
            if type(value) is int and value == marker:
                found.append(path)
        elif isinstance(value, str) and (marker in value or marker in _decoded(value)):
            found.append(path)

    for index, msg in enumerate(messages):
        content = msg.content
        if isinstance(content, str):  # a string is one text block
            content = [{"type": "text", "text": content}]
        fields = {
            "name": msg.name,
            "role": msg.role,
            "content": content,
            "metadata": msg.metadata,
            "invocation_id": msg.invocation_id,
        }
        walk(fields, f"messages[{index}]")
    return found


def _decoded(text: str) -> str:
    try:
        return base64.b64decode(text, validate=True).decode("utf-8", "replace")
    except ValueError:
        return ""


def _under(loss: Loss, path: str) -> bool:
    return loss.path == path or loss.path.startswith((f"{path}.", f"{path}["))


def _from_losses(losses: tuple[Loss, ...]) -> Cell | None:
    if not losses:
        return None
    texts = tuple(str(loss) for loss in losses)
    return Cell(LOST if any(loss.dropped for loss in losses) else CARRIED, texts)


def _role_cell(probe: Probe, messages: list[Msg], original: list[Msg]) -> Cell:
    """Whether the message holding the marker came back with the role it went with."""
    index = int(probe.path.split("]")[0].split("[")[1])
    places = _places(messages, probe.marker)
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
    places = _places(messages, probe.marker)
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
    losses = tuple(loss for loss in result.losses if _under(loss, probe.path))
    if losses:
        return _from_losses(losses)  # type: ignore[return-value]
    if probe.record:
        return Cell(RECORD)
    text = json.dumps(result.payload, ensure_ascii=False)
    if probe.marker in text or _b64(probe.marker) in text:
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
        if probe.record or any(
            loss.dropped and _under(loss, probe.path) for loss in written.losses
        ):
            return Cell(ABSENT)
        data = written.payload
    parsed = fmt.read(data)
    reported = _from_losses(parsed.losses)
    if reported is not None:
        return reported
    return _read_back(probe, parsed.messages, original)


def matrix() -> dict[str, dict[str, tuple[Cell, Cell]]]:
    """Every cell: ``{format key: {probe key: (to cell, from cell)}}``."""
    return {
        fmt.key: {probe.key: (to_cell(fmt, probe), from_cell(fmt, probe)) for probe in PROBES}
        for fmt in FORMATS
    }


# -- replies: what a response holds beside its messages, unstreamed and streamed ----------


class ReplyProbe(NamedTuple):
    """One row of the reply tables: a thing only a response holds, marked by *marker* (a
    string, or an integer for a count), in a response of each format that has it."""

    key: str
    marker: str | int
    responses: dict[str, Callable[[], dict[str, Any]]]


def _chat(
    message: dict[str, Any] | None = None, choice: dict[str, Any] | None = None, **top: Any
) -> dict[str, Any]:
    reply = {"role": "assistant", "content": "Hi.", **(message or {})}
    first = {"index": 0, "message": reply, "finish_reason": "stop", "logprobs": None}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4.1",
        "choices": [{**first, **(choice or {})}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7},
        **top,
    }


def _responses(output: list[dict[str, Any]] | None = None, **top: Any) -> dict[str, Any]:
    text = {"type": "output_text", "text": "Hi.", "annotations": []}
    message = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [text],
    }
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "model": "gpt-5",
        "status": "completed",
        "output": output or [message],
        "usage": {"input_tokens": 5, "output_tokens": 2, "total_tokens": 7},
        **top,
    }


def _responses_text(**part: Any) -> list[dict[str, Any]]:
    content = [{"type": "output_text", "text": "Hi.", "annotations": [], **part}]
    return [
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": content,
        }
    ]


def _anthropic(content: list[dict[str, Any]] | None = None, **top: Any) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": content or [{"type": "text", "text": "Hi."}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 5, "output_tokens": 2},
        **top,
    }


def _gemini(
    parts: list[dict[str, Any]] | None = None,
    candidate: dict[str, Any] | None = None,
    more: tuple[dict[str, Any], ...] = (),
    **top: Any,
) -> dict[str, Any]:
    first = {
        "content": {"role": "model", "parts": parts or [{"text": "Hi."}]},
        "finish_reason": "STOP",
        "index": 0,
        **(candidate or {}),
    }
    return {
        "candidates": [first, *more],
        "model_version": "gemini-2.5-flash",
        "response_id": "r1",
        "usage_metadata": {
            "prompt_token_count": 5,
            "candidates_token_count": 2,
            "total_token_count": 7,
        },
        **top,
    }


_HI = {"type": "text", "text": "Hi."}
_ARGS = {"q": "PROBE_CALL"}
REPLY_PROBES: tuple[ReplyProbe, ...] = (
    ReplyProbe(
        "text block",
        "PROBE_TEXT",
        {
            "openai_chat": lambda: _chat(message={"content": "PROBE_TEXT"}),
            "openai_responses": lambda: _responses(
                [
                    {
                        "type": "message",
                        "id": "msg_1",
                        "role": "assistant",
                        "status": "completed",
                        "content": [
                            {"type": "output_text", "text": "PROBE_TEXT", "annotations": []}
                        ],
                    }
                ]
            ),
            "anthropic": lambda: _anthropic([{"type": "text", "text": "PROBE_TEXT"}]),
            "gemini": lambda: _gemini([{"text": "PROBE_TEXT"}]),
        },
    ),
    ReplyProbe(
        "thinking block",
        "PROBE_THINK",
        {
            "openai_responses": lambda: _responses(
                [
                    {
                        "type": "reasoning",
                        "id": "rs_1",
                        "summary": [{"type": "summary_text", "text": "PROBE_THINK"}],
                    },
                    *_responses_text(),
                ]
            ),
            "anthropic": lambda: _anthropic(
                [{"type": "thinking", "thinking": "PROBE_THINK", "signature": "c2ln"}, _HI]
            ),
            "gemini": lambda: _gemini([{"text": "PROBE_THINK", "thought": True}, {"text": "Hi."}]),
        },
    ),
    ReplyProbe(
        "tool use block",
        "PROBE_CALL",
        {
            "openai_chat": lambda: _chat(
                message={
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "PROBE_CALL",
                            "type": "function",
                            "function": {"name": "lookup", "arguments": json.dumps(_ARGS)},
                        }
                    ],
                },
                choice={"finish_reason": "tool_calls"},
            ),
            "openai_responses": lambda: _responses(
                [
                    {
                        "type": "function_call",
                        "id": "fc_1",
                        "call_id": "PROBE_CALL",
                        "name": "lookup",
                        "arguments": json.dumps(_ARGS),
                        "status": "completed",
                    }
                ]
            ),
            "anthropic": lambda: _anthropic(
                [{"type": "tool_use", "id": "PROBE_CALL", "name": "lookup", "input": _ARGS}],
                stop_reason="tool_use",
            ),
            "gemini": lambda: _gemini(
                [{"function_call": {"id": "PROBE_CALL", "name": "lookup", "args": _ARGS}}]
            ),
        },
    ),
    ReplyProbe(
        "response id",
        "PROBE_RESP_ID",
        {
            "openai_chat": lambda: _chat(id="PROBE_RESP_ID"),
            "openai_responses": lambda: _responses(id="PROBE_RESP_ID"),
            "anthropic": lambda: _anthropic(id="PROBE_RESP_ID"),
            "gemini": lambda: _gemini(response_id="PROBE_RESP_ID"),
        },
    ),
    ReplyProbe(
        "model",
        "PROBE_MODEL",
        {
            "openai_chat": lambda: _chat(model="PROBE_MODEL"),
            "openai_responses": lambda: _responses(model="PROBE_MODEL"),
            "anthropic": lambda: _anthropic(model="PROBE_MODEL"),
            "gemini": lambda: _gemini(model_version="PROBE_MODEL"),
        },
    ),
    ReplyProbe(
        "stop reason",
        "PROBE_STOP",
        {
            "openai_chat": lambda: _chat(choice={"finish_reason": "PROBE_STOP"}),
            "openai_responses": lambda: _responses(
                status="incomplete", incomplete_details={"reason": "PROBE_STOP"}
            ),
            "anthropic": lambda: _anthropic(stop_reason="PROBE_STOP"),
            "gemini": lambda: _gemini(candidate={"finish_reason": "PROBE_STOP"}),
        },
    ),
    ReplyProbe(
        "token usage",
        4242,
        {
            "openai_chat": lambda: _chat(
                usage={"prompt_tokens": 4242, "completion_tokens": 2, "total_tokens": 4244}
            ),
            "openai_responses": lambda: _responses(
                usage={"input_tokens": 4242, "output_tokens": 2, "total_tokens": 4244}
            ),
            "anthropic": lambda: _anthropic(usage={"input_tokens": 4242, "output_tokens": 2}),
            "gemini": lambda: _gemini(
                usage_metadata={
                    "prompt_token_count": 4242,
                    "candidates_token_count": 2,
                    "total_token_count": 4244,
                }
            ),
        },
    ),
    ReplyProbe(
        "refusal",
        "PROBE_REFUSAL",
        {
            "openai_chat": lambda: _chat(message={"content": None, "refusal": "PROBE_REFUSAL"}),
            "openai_responses": lambda: _responses(
                [
                    {
                        "type": "message",
                        "id": "msg_1",
                        "role": "assistant",
                        "status": "completed",
                        "content": [{"type": "refusal", "refusal": "PROBE_REFUSAL"}],
                    }
                ]
            ),
        },
    ),
    ReplyProbe(
        "thinking the API signed or encrypted",
        "PROBE_SEAL",
        {
            "openai_responses": lambda: _responses(
                [
                    {
                        "type": "reasoning",
                        "id": "rs_1",
                        "summary": [{"type": "summary_text", "text": "Hm."}],
                        "encrypted_content": "PROBE_SEAL",
                    },
                    *_responses_text(),
                ]
            ),
            "anthropic": lambda: _anthropic(
                [{"type": "thinking", "thinking": "Hm.", "signature": "PROBE_SEAL"}, _HI]
            ),
            "gemini": lambda: _gemini(
                [
                    {"text": "Hm.", "thought": True, "thought_signature": _b64("PROBE_SEAL")},
                    {"text": "Hi."},
                ]
            ),
        },
    ),
    ReplyProbe(
        "redacted thinking",
        "PROBE_REDACTED",
        {
            "anthropic": lambda: _anthropic(
                [{"type": "redacted_thinking", "data": "PROBE_REDACTED"}, _HI]
            ),
        },
    ),
    ReplyProbe(
        "log probabilities",
        "PROBE_LOGPROB",
        {
            "openai_chat": lambda: _chat(
                choice={
                    "logprobs": {
                        "content": [
                            {
                                "token": "PROBE_LOGPROB",
                                "logprob": -0.1,
                                "bytes": None,
                                "top_logprobs": [],
                            }
                        ],
                        "refusal": None,
                    }
                }
            ),
            "openai_responses": lambda: _responses(
                _responses_text(
                    logprobs=[
                        {"token": "PROBE_LOGPROB", "logprob": -0.1, "bytes": [], "top_logprobs": []}
                    ]
                )
            ),
            "gemini": lambda: _gemini(
                candidate={
                    "logprobs_result": {
                        "top_candidates": [],
                        "chosen_candidates": [{"token": "PROBE_LOGPROB", "log_probability": -0.1}],
                    }
                }
            ),
        },
    ),
    ReplyProbe(
        "citations",
        "PROBE_CITE",
        {
            "openai_chat": lambda: _chat(
                message={
                    "annotations": [
                        {
                            "type": "url_citation",
                            "url_citation": {
                                "url": "https://example.com/PROBE_CITE",
                                "title": "Source",
                                "start_index": 0,
                                "end_index": 3,
                            },
                        }
                    ]
                }
            ),
            "openai_responses": lambda: _responses(
                _responses_text(
                    annotations=[
                        {
                            "type": "url_citation",
                            "url": "https://example.com/PROBE_CITE",
                            "title": "Source",
                            "start_index": 0,
                            "end_index": 3,
                        }
                    ]
                )
            ),
            "anthropic": lambda: _anthropic(
                [
                    {
                        "type": "text",
                        "text": "Hi.",
                        "citations": [
                            {
                                "type": "char_location",
                                "cited_text": "PROBE_CITE",
                                "document_index": 0,
                                "document_title": "Source",
                                "start_char_index": 0,
                                "end_char_index": 3,
                            }
                        ],
                    }
                ]
            ),
            "gemini": lambda: _gemini(
                candidate={
                    "citation_metadata": {"citations": [{"uri": "https://example.com/PROBE_CITE"}]}
                }
            ),
        },
    ),
    ReplyProbe(
        "another choice or candidate",
        "PROBE_CHOICE",
        {
            "openai_chat": lambda: {
                **_chat(),
                "choices": [
                    _chat()["choices"][0],
                    {
                        "index": 1,
                        "message": {"role": "assistant", "content": "PROBE_CHOICE"},
                        "finish_reason": "stop",
                        "logprobs": None,
                    },
                ],
            },
            "gemini": lambda: _gemini(
                more=(
                    {
                        "content": {"role": "model", "parts": [{"text": "PROBE_CHOICE"}]},
                        "finish_reason": "STOP",
                        "index": 1,
                    },
                )
            ),
        },
    ),
)


# The events each format streams for a response, as its stream class takes them.


def _chat_events(response: dict[str, Any]) -> list[dict[str, Any]]:
    head = {
        "id": response["id"],
        "object": "chat.completion.chunk",
        "created": response["created"],
        "model": response["model"],
    }

    def chunk(number: int, delta: dict[str, Any], **choice: Any) -> dict[str, Any]:
        return {**head, "choices": [{"index": number, "delta": delta, **choice}]}

    events = []
    for choice in response["choices"]:
        number, message = choice["index"], choice["message"]
        events.append(chunk(number, {"role": "assistant"}))
        for key in ("content", "refusal", "annotations"):
            if message.get(key):
                events.append(chunk(number, {key: message[key]}))
        for position, call in enumerate(message.get("tool_calls") or []):
            events.append(chunk(number, {"tool_calls": [{"index": position, **call}]}))
        events.append(
            chunk(number, {}, finish_reason=choice["finish_reason"], logprobs=choice["logprobs"])
        )
    events.append({**head, "choices": [], "usage": response["usage"]})
    return events


def _responses_events(response: dict[str, Any]) -> list[dict[str, Any]]:
    start = {**response, "status": "in_progress", "output": [], "usage": None}
    start.pop("incomplete_details", None)
    events: list[dict[str, Any]] = [{"type": "response.created", "response": start}]
    for position, item in enumerate(response["output"]):
        # an item is added empty, as the API streams it, and done whole
        opened = {key: value for key, value in item.items() if key != "encrypted_content"}
        for key, empty in (("content", []), ("summary", []), ("arguments", "")):
            if key in opened:
                opened[key] = empty
        events.append(
            {"type": "response.output_item.added", "output_index": position, "item": opened}
        )
        events.append({"type": "response.output_item.done", "output_index": position, "item": item})
    final = "response.incomplete" if response["status"] == "incomplete" else "response.completed"
    events.append({"type": final, "response": response})
    return [{**event, "sequence_number": number} for number, event in enumerate(events)]


def _anthropic_events(response: dict[str, Any]) -> list[dict[str, Any]]:
    usage = response["usage"]
    start = {
        **response,
        "content": [],
        "stop_reason": None,
        "usage": {"input_tokens": usage["input_tokens"], "output_tokens": 1},
    }
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}]
    for number, block in enumerate(response["content"]):
        kind = block["type"]
        deltas: list[dict[str, Any]] = []
        if kind == "text":
            opened: dict[str, Any] = {"type": "text", "text": ""}
            deltas.append({"type": "text_delta", "text": block["text"]})
            deltas += [
                {"type": "citations_delta", "citation": citation}
                for citation in block.get("citations") or []
            ]
        elif kind == "thinking":
            opened = {"type": "thinking", "thinking": "", "signature": ""}
            deltas.append({"type": "thinking_delta", "thinking": block["thinking"]})
            deltas.append({"type": "signature_delta", "signature": block["signature"]})
        elif kind == "tool_use":
            opened = {**block, "input": {}}
            deltas.append({"type": "input_json_delta", "partial_json": json.dumps(block["input"])})
        else:
            opened = block
        events.append({"type": "content_block_start", "index": number, "content_block": opened})
        events += [{"type": "content_block_delta", "index": number, "delta": d} for d in deltas]
        events.append({"type": "content_block_stop", "index": number})
    delta = {"stop_reason": response["stop_reason"], "stop_sequence": None}
    events.append(
        {
            "type": "message_delta",
            "delta": delta,
            "usage": {"output_tokens": usage["output_tokens"]},
        }
    )
    events.append({"type": "message_stop"})
    return events


def _gemini_events(response: dict[str, Any]) -> list[dict[str, Any]]:
    head = {"response_id": response["response_id"], "model_version": response["model_version"]}
    events = []
    for candidate in response["candidates"]:
        parts = candidate["content"]["parts"]
        for position, part in enumerate(parts):
            piece: dict[str, Any] = {"content": {"role": "model", "parts": [part]}}
            if candidate.get("index"):
                piece["index"] = candidate["index"]
            if position == len(parts) - 1:  # the last piece of a candidate ends it
                piece.update((k, v) for k, v in candidate.items() if k not in ("content", "index"))
            events.append({**head, "candidates": [piece]})
    events[-1]["usage_metadata"] = response["usage_metadata"]
    return events


EVENTS: dict[str, Callable[[dict[str, Any]], list[dict[str, Any]]]] = {
    "openai_chat": _chat_events,
    "openai_responses": _responses_events,
    "anthropic": _anthropic_events,
    "gemini": _gemini_events,
}


def _reply_read(parsed: Parsed, marker: str | int) -> Cell:
    """What became of *marker* in a reply read: its losses, else where it is kept."""
    reported = _from_losses(parsed.losses)
    if reported is not None:
        return reported
    places = _places(parsed.messages, marker)
    if not places:
        return Cell(UNREPORTED)
    for where, part in (
        ("invocation_id", ".invocation_id"),
        ("provider_state", f".metadata.{STATE_KEY}."),
        ("metadata", ".metadata."),
    ):
        if any(part in place for place in places):
            return Cell(CARRIED, where=where)
    return Cell(KEPT)


def reply_cells(fmt: Format, probe: ReplyProbe) -> tuple[Cell, Cell]:
    """What ``from_*`` of *fmt* keeps of the thing of *probe* in an unstreamed response,
    and what the stream class keeps of it in the same response's events."""
    build = probe.responses.get(fmt.key)
    if build is None:
        return Cell(NONE), Cell(NONE)
    unstreamed = _reply_read(fmt.read(build()), probe.marker)
    events = EVENTS[fmt.key](build())
    stream = fmt.stream()
    stream.extend(events)
    streamed = _reply_read(stream.result(), probe.marker)
    labels = (_event_label(event, probe.marker) for event in events)
    return unstreamed, streamed._replace(events=tuple(dict.fromkeys(filter(None, labels))))


def _event_label(event: dict[str, Any], marker: str | int) -> str | None:
    """The name of *event*'s kind when it holds *marker*: its type (with its delta's type),
    or for the formats whose events have no type, where in the event the marker is."""
    places = _places([Msg("user", "-", "user", {"event": event})], marker)
    if not places:
        return None
    kind = event.get("type")
    if type(kind) is str:
        delta = event.get("delta")
        if isinstance(delta, dict) and type(delta.get("type")) is str:
            return f"{kind} ({delta['type']})"
        return kind
    kept = []  # the path down to the first field that is not a list or an envelope
    for segment in re.sub(r"\[\d+\]", "[]", places[0].split(".metadata.event.", 1)[1]).split("."):
        kept.append(segment.removesuffix("[]"))
        if kept[-1] not in _ENVELOPES:
            break
        kept[-1] = segment
    return ".".join(kept)


_ENVELOPES = frozenset({"choices", "delta", "candidates", "content", "parts"})


def reply_matrix() -> dict[str, dict[str, tuple[Cell, Cell]]]:
    """Every reply cell: ``{format key: {probe key: (from_* cell, stream cell)}}``."""
    return {
        fmt.key: {probe.key: reply_cells(fmt, probe) for probe in REPLY_PROBES} for fmt in FORMATS
    }
