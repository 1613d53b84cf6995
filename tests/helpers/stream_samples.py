"""Streamed replies of the four APIs, each beside the unstreamed response it stands for.

Written from the providers' API references and the SDKs' stream event types: the
events a reply streams and, separately, the response the same reply returns when it is
not streamed. ``SAMPLES`` maps a name to ``(format, events, response)``; the tests check
that the accumulator of the format turns the events into what the conversion makes of
the response.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

from agentmsg import MessageError

# -- OpenAI Chat Completions -----------------------------------------------------------

_CHAT_HEAD = {
    "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
    "object": "chat.completion.chunk",
    "created": 1741569952,
    "model": "gpt-4.1-2025-04-14",
    "system_fingerprint": "fp_44709d6fcb",
    "service_tier": "default",
}


def _chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
    return {**_CHAT_HEAD, "choices": [choice], "usage": None, **extra}


def _call(index: int, call_id: str | None, name: str | None, arguments: str) -> dict[str, Any]:
    fragment: dict[str, Any] = {"index": index, "function": {"arguments": arguments}}
    if call_id is not None:
        fragment["id"] = call_id
        fragment["type"] = "function"
        fragment["function"]["name"] = name
    return {"tool_calls": [fragment]}


def _chat_response(message: dict[str, Any], finish: str, **extra: Any) -> dict[str, Any]:
    """The unstreamed response of one choice, *message* said by the assistant; the
    head as the chunks have it."""
    choice = {
        "index": 0,
        "message": {"role": "assistant", **message},
        "logprobs": None,
        "finish_reason": finish,
    }
    return {
        "id": _CHAT_HEAD["id"],
        "object": "chat.completion",
        "created": _CHAT_HEAD["created"],
        "model": _CHAT_HEAD["model"],
        "choices": [choice],
        **extra,
        "service_tier": _CHAT_HEAD["service_tier"],
        "system_fingerprint": _CHAT_HEAD["system_fingerprint"],
    }


CHAT_TOOLS_EVENTS = [
    _chunk({"role": "assistant", "content": "", "refusal": None}),
    _chunk({"content": "Let me check "}),
    _chunk({"content": "both cities."}),
    _chunk(_call(0, "call_DdmO9pD3xa9XTPNJ32zg2hcA", "get_weather", "")),
    _chunk(_call(0, None, None, '{"ci')),
    _chunk(_call(0, None, None, 'ty": "Li')),
    _chunk(_call(0, None, None, 'ma"}')),
    _chunk(_call(1, "call_ABCDEFGHIJKLMNOPQRSTUVWX", "get_weather", "")),
    _chunk(_call(1, None, None, '{"city": ')),
    _chunk(_call(1, None, None, '"Oslo", "unit": "c"}')),
    _chunk({}, "tool_calls"),
    {
        **_CHAT_HEAD,
        "choices": [],
        "usage": {"prompt_tokens": 82, "completion_tokens": 48, "total_tokens": 130},
    },
]
CHAT_TOOLS_RESPONSE = _chat_response(
    {
        "content": "Let me check both cities.",
        "refusal": None,
        "annotations": [],
        "tool_calls": [
            {
                "id": "call_DdmO9pD3xa9XTPNJ32zg2hcA",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Lima"}'},
            },
            {
                "id": "call_ABCDEFGHIJKLMNOPQRSTUVWX",
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "arguments": '{"city": "Oslo", "unit": "c"}',
                },
            },
        ],
    },
    "tool_calls",
    usage={"prompt_tokens": 82, "completion_tokens": 48, "total_tokens": 130},
)

CHAT_REFUSAL_EVENTS = [
    _chunk({"role": "assistant", "content": None, "refusal": ""}),
    _chunk({"refusal": "I can't help "}),
    _chunk({"refusal": "with that."}),
    _chunk({}, "stop"),
]
CHAT_REFUSAL_RESPONSE = _chat_response(
    {"content": None, "refusal": "I can't help with that.", "annotations": []}, "stop"
)


def _two(index: int, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    choice = {"index": index, "delta": delta, "logprobs": None, "finish_reason": finish}
    return {**_CHAT_HEAD, "choices": [choice]}


CHAT_TWO_CHOICES_EVENTS = [
    _two(0, {"role": "assistant", "content": ""}),
    _two(1, {"role": "assistant", "content": ""}),
    _two(0, {"content": "Lima is "}),
    _two(1, {"content": "It is "}),
    _two(1, {"content": "cloudy."}),
    _two(0, {"content": "cloudy."}),
    _two(1, {}, "stop"),
    _two(0, {}, "stop"),
]
CHAT_TWO_CHOICES_RESPONSE = {
    **{key: CHAT_REFUSAL_RESPONSE[key] for key in ("id", "created", "model")},
    "object": "chat.completion",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "Lima is cloudy."},
            "finish_reason": "stop",
        },
        {
            "index": 1,
            "message": {"role": "assistant", "content": "It is cloudy."},
            "finish_reason": "stop",
        },
    ],
}

# -- OpenAI Responses --------------------------------------------------------------------

_RESPONSE_ID = "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b"
_RESPONSE_HEAD = {
    "id": _RESPONSE_ID,
    "object": "response",
    "created_at": 1741476542,
    "model": "gpt-5-2025-08-07",
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
}
_REASONING = {
    "type": "reasoning",
    "id": "rs_67ccd2bf1e308190b8a2e84d2e3b4a8f",
    "summary": [
        {"type": "summary_text", "text": "**Planning the lookup**"},
        {"type": "summary_text", "text": "Two cities, two calls."},
    ],
    "encrypted_content": "gAAAAABoISQ24OyVRYbkYfukBMRsWPHnZbU",
}
_MESSAGE = {
    "type": "message",
    "id": "msg_67ccd2bf17f0819081ff3bb2cf6508e6",
    "status": "completed",
    "role": "assistant",
    "content": [
        {"type": "output_text", "text": "Checking Lima and Oslo.", "annotations": []},
    ],
}
_CALLS = [
    {
        "type": "function_call",
        "id": "fc_67ccd3c2dbf88190a6e7f6e4a4fb7d84",
        "call_id": "call_12345xyz",
        "name": "get_weather",
        "arguments": '{"city": "Lima"}',
        "status": "completed",
    },
    {
        "type": "function_call",
        "id": "fc_67ccd3c2dbf88190a6e7f6e4a4fb7d85",
        "call_id": "call_67890abc",
        "name": "get_weather",
        "arguments": '{"city": "Oslo"}',
        "status": "completed",
    },
]
_USAGE = {
    "input_tokens": 75,
    "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
    "output_tokens": 123,
    "output_tokens_details": {"reasoning_tokens": 64},
    "total_tokens": 198,
}


def _responses_events() -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []

    def add(kind: str, **fields: Any) -> None:
        events.append({"type": kind, "sequence_number": len(events), **fields})

    started = {**_RESPONSE_HEAD, "status": "in_progress", "output": [], "usage": None}
    add("response.created", response=started)
    add("response.in_progress", response=started)
    reasoning_id = _REASONING["id"]
    add(
        "response.output_item.added",
        output_index=0,
        item={"type": "reasoning", "id": reasoning_id, "summary": []},
    )
    for number, pieces in enumerate(
        (["**Planning", " the lookup**"], ["Two cities,", " two calls."])
    ):
        part = {"type": "summary_text", "text": ""}
        where = {"item_id": reasoning_id, "output_index": 0, "summary_index": number}
        add("response.reasoning_summary_part.added", part=part, **where)
        for piece in pieces:
            add("response.reasoning_summary_text.delta", delta=piece, **where)
        text = "".join(pieces)
        add("response.reasoning_summary_text.done", text=text, **where)
        add("response.reasoning_summary_part.done", part={**part, "text": text}, **where)
    add("response.output_item.done", output_index=0, item=_REASONING)
    message_id = _MESSAGE["id"]
    add(
        "response.output_item.added",
        output_index=1,
        item={**_MESSAGE, "status": "in_progress", "content": []},
    )
    where = {"item_id": message_id, "output_index": 1, "content_index": 0}
    part = {"type": "output_text", "text": "", "annotations": []}
    add("response.content_part.added", part=part, **where)
    for piece in ("Checking ", "Lima and", " Oslo."):
        add("response.output_text.delta", delta=piece, logprobs=[], **where)
    add("response.output_text.done", text="Checking Lima and Oslo.", logprobs=[], **where)
    add("response.content_part.done", part=_MESSAGE["content"][0], **where)
    add("response.output_item.done", output_index=1, item=_MESSAGE)
    for position, call in enumerate(_CALLS, start=2):
        add(
            "response.output_item.added",
            output_index=position,
            item={**call, "arguments": "", "status": "in_progress"},
        )
        text = call["arguments"]
        where = {"item_id": call["id"], "output_index": position}
        for start in range(0, len(text), 6):
            add("response.function_call_arguments.delta", delta=text[start : start + 6], **where)
        add("response.function_call_arguments.done", arguments=text, **where)
        add("response.output_item.done", output_index=position, item=call)
    add("response.completed", response=RESPONSES_RESPONSE)
    return events


RESPONSES_RESPONSE = {
    **_RESPONSE_HEAD,
    "status": "completed",
    "output": [_REASONING, _MESSAGE, *_CALLS],
    "usage": _USAGE,
}
RESPONSES_EVENTS = _responses_events()

# -- Anthropic ---------------------------------------------------------------------------

_SIGNATURE = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"


def anthropic_delta(index: int, kind: str, **fields: Any) -> dict[str, Any]:
    """A ``content_block_delta`` event of an Anthropic stream: a piece of block *index*."""
    return {"type": "content_block_delta", "index": index, "delta": {"type": kind, **fields}}


def anthropic_block(
    index: int, block: dict[str, Any], *deltas: dict[str, Any]
) -> list[dict[str, Any]]:
    """The events of Anthropic content block *index*: its start (*block*, still empty), a
    ``content_block_delta`` for each of *deltas*, its stop."""
    return [
        {"type": "content_block_start", "index": index, "content_block": block},
        *({"type": "content_block_delta", "index": index, "delta": delta} for delta in deltas),
        {"type": "content_block_stop", "index": index},
    ]


def anthropic_end(stop_reason: str, output_tokens: int) -> list[dict[str, Any]]:
    """The last two events of an Anthropic stream."""
    delta = {"stop_reason": stop_reason, "stop_sequence": None}
    usage = {"output_tokens": output_tokens}
    return [{"type": "message_delta", "delta": delta, "usage": usage}, {"type": "message_stop"}]


def _tool_use(call_id: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": "get_weather", "input": {}}


ANTHROPIC_EVENTS = [
    {
        "type": "message_start",
        "message": {
            "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
            "type": "message",
            "role": "assistant",
            "content": [],
            "model": "claude-sonnet-4-5-20250929",
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 472, "output_tokens": 2},
        },
    },
    {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "thinking", "thinking": "", "signature": ""},
    },
    {"type": "ping"},
    anthropic_delta(0, "thinking_delta", thinking="The user asks for two "),
    anthropic_delta(0, "thinking_delta", thinking="cities: two calls."),
    anthropic_delta(0, "signature_delta", signature=_SIGNATURE),
    {"type": "content_block_stop", "index": 0},
    *anthropic_block(
        1,
        {"type": "text", "text": ""},
        {"type": "text_delta", "text": "Checking "},
        {"type": "text_delta", "text": "both."},
    ),
    *anthropic_block(
        2,
        _tool_use("toolu_01T1x1fJ34qAmk2tNTrN7Up6"),
        {"type": "input_json_delta", "partial_json": ""},
        {"type": "input_json_delta", "partial_json": '{"city": "Li'},
        {"type": "input_json_delta", "partial_json": 'ma"}'},
    ),
    *anthropic_block(
        3,
        _tool_use("toolu_01CvD5xWcYe8nXAaPcH6nBxi"),
        {"type": "input_json_delta", "partial_json": '{"city": "Oslo", "unit": "c"}'},
    ),
    *anthropic_end("tool_use", 89),
]
ANTHROPIC_RESPONSE = {
    "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5-20250929",
    "content": [
        {
            "type": "thinking",
            "thinking": "The user asks for two cities: two calls.",
            "signature": _SIGNATURE,
        },
        {"type": "text", "text": "Checking both."},
        {
            "type": "tool_use",
            "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
            "name": "get_weather",
            "input": {"city": "Lima"},
        },
        {
            "type": "tool_use",
            "id": "toolu_01CvD5xWcYe8nXAaPcH6nBxi",
            "name": "get_weather",
            "input": {"city": "Oslo", "unit": "c"},
        },
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 472, "output_tokens": 89},
}

# -- Gemini (REST, camelCase) ------------------------------------------------------------

# Standard base64 of bytes (the SDK decodes it), with the characters URL-safe base64 differs in.
_THOUGHT_SIGNATURE = base64.b64encode(b"\xfb\xff\xbe signature of the thought \x00\x01").decode()
_GEMINI_HEAD = {"modelVersion": "gemini-2.5-flash", "responseId": "mXS7aK6hCPXunvgPj5SmyA4"}
_GEMINI_USAGE = {
    "promptTokenCount": 31,
    "candidatesTokenCount": 24,
    "thoughtsTokenCount": 40,
    "totalTokenCount": 95,
}


def _piece(parts: list[dict[str, Any]], **candidate: Any) -> dict[str, Any]:
    usage = {"promptTokenCount": 31, "candidatesTokenCount": 5, "totalTokenCount": 36}
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "index": 0, **candidate}],
        "usageMetadata": usage,
        **_GEMINI_HEAD,
    }


GEMINI_EVENTS = [
    _piece([{"text": "**Weighing the request** Two ", "thought": True}]),
    _piece([{"text": "cities, two calls.", "thought": True}]),
    _piece([{"text": "Checking "}]),
    _piece([{"text": "both."}]),
    _piece(
        [
            {
                "functionCall": {"name": "get_weather", "args": {"city": "Lima"}},
                "thoughtSignature": _THOUGHT_SIGNATURE,
            },
            {"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}},
        ]
    ),
    {
        "candidates": [
            {"content": {"role": "model", "parts": []}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": _GEMINI_USAGE,
        **_GEMINI_HEAD,
    },
]
GEMINI_RESPONSE = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [
                    {"text": "**Weighing the request** Two cities, two calls.", "thought": True},
                    {"text": "Checking both."},
                    {
                        "functionCall": {"name": "get_weather", "args": {"city": "Lima"}},
                        "thoughtSignature": _THOUGHT_SIGNATURE,
                    },
                    {"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}},
                ],
            },
            "finishReason": "STOP",
            "index": 0,
        }
    ],
    "usageMetadata": _GEMINI_USAGE,
    **_GEMINI_HEAD,
}

# A text reply whose signature comes in a last, empty text piece (snake_case, as the SDK
# dumps its objects).
_SIGNED_USAGE = {"prompt_token_count": 4, "candidates_token_count": 3, "total_token_count": 7}
GEMINI_SIGNED_EVENTS = [
    {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "It is "}]}}],
        "response_id": "r2",
    },
    {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "sunny."}]}}],
        "response_id": "r2",
    },
    {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"text": "", "thought_signature": _THOUGHT_SIGNATURE}],
                },
                "finish_reason": "STOP",
            }
        ],
        "usage_metadata": _SIGNED_USAGE,
        "response_id": "r2",
    },
]
GEMINI_SIGNED_RESPONSE = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [{"text": "It is sunny.", "thought_signature": _THOUGHT_SIGNATURE}],
            },
            "finish_reason": "STOP",
        }
    ],
    "usage_metadata": _SIGNED_USAGE,
    "response_id": "r2",
}

SAMPLES: dict[str, tuple[str, list[dict[str, Any]], dict[str, Any]]] = {
    "chat_tools": ("openai_chat", CHAT_TOOLS_EVENTS, CHAT_TOOLS_RESPONSE),
    "chat_refusal": ("openai_chat", CHAT_REFUSAL_EVENTS, CHAT_REFUSAL_RESPONSE),
    "chat_two_choices": ("openai_chat", CHAT_TWO_CHOICES_EVENTS, CHAT_TWO_CHOICES_RESPONSE),
    "responses_tools": ("openai_responses", RESPONSES_EVENTS, RESPONSES_RESPONSE),
    "anthropic_tools": ("anthropic", ANTHROPIC_EVENTS, ANTHROPIC_RESPONSE),
    "gemini_tools": ("gemini", GEMINI_EVENTS, GEMINI_RESPONSE),
    "gemini_signed": ("gemini", GEMINI_SIGNED_EVENTS, GEMINI_SIGNED_RESPONSE),
}


# -- the least a stream starts with, and the error an event gets ---------------------

#: A ``message_start`` with an empty message: the least an Anthropic stream starts with.
ANTHROPIC_START = {
    "type": "message_start",
    "message": {"id": "m", "type": "message", "role": "assistant", "content": [], "model": "x"},
}
#: A ``response.created`` with no output yet: the least a Responses stream starts with.
RESPONSES_START = {
    "type": "response.created",
    "sequence_number": 0,
    "response": {"id": "r", "status": "in_progress", "model": "m", "output": []},
}


def rejected(stream: Any, events: list[dict[str, Any]]) -> str:
    """The text of the MessageError the stream raises on the last of *events*."""
    stream.extend(events[:-1])
    with pytest.raises(MessageError) as raised:
        stream.add(events[-1])
    return str(raised.value)
