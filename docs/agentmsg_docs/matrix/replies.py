"""The rows of the reply tables: what a response holds beside its messages (its id, the
model, the stop reason, ...), read unstreamed by ``from_*`` and streamed, as the events of
:mod:`.events`, by the format's stream class.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from agentmsg import Msg
from agentmsg.providers import Parsed

from .cells import (
    CARRIED,
    FORMATS,
    KEPT,
    NONE,
    STATE_KEY,
    UNREPORTED,
    Cell,
    Format,
    b64,
    from_losses,
    marker_places,
)
from .events import EVENTS


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


def _top_level(key: str, marker: str, field: str, gemini_field: str) -> ReplyProbe:
    """A probe of a field at a response's top level: *field* in every format but Gemini,
    which names it *gemini_field*."""
    top: dict[str, Any] = {field: marker}
    gemini: dict[str, Any] = {gemini_field: marker}
    return ReplyProbe(
        key,
        marker,
        {
            "openai_chat": functools.partial(_chat, **top),
            "openai_responses": functools.partial(_responses, **top),
            "anthropic": functools.partial(_anthropic, **top),
            "gemini": functools.partial(_gemini, **gemini),
        },
    )


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
    _top_level("response id", "PROBE_RESP_ID", "id", "response_id"),
    _top_level("model", "PROBE_MODEL", "model", "model_version"),
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
                    {"text": "Hm.", "thought": True, "thought_signature": b64("PROBE_SEAL")},
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


def _reply_read(parsed: Parsed, marker: str | int) -> Cell:
    """What became of *marker* in a reply read: its losses, else where it is kept."""
    reported = from_losses(parsed.losses)
    if reported is not None:
        return reported
    places = marker_places(parsed.messages, marker)
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
    places = marker_places([Msg("user", "-", "user", {"event": event})], marker)
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
