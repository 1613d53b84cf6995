"""Streamed replies made up by hypothesis, as each API streams them: runs of thinking,
text and tool calls, each cut into random pieces (for the partial-message properties)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

_PIECE = st.text(alphabet="ab \u00e9\u4e16\n", max_size=4)


@st.composite
def _cut(draw: Any, text: str) -> list[str]:
    """*text* cut at random places into pieces (some empty)."""
    places = sorted(draw(st.lists(st.integers(0, len(text)), max_size=6)))
    pieces, start = [], 0
    for place in [*places, len(text)]:
        pieces.append(text[start:place])
        start = place
    return pieces


@st.composite
def replies(draw: Any) -> list[tuple[str, list[str]]]:
    """A reply: runs of ``thinking``, ``text`` or ``tool`` (its JSON input), each as its
    pieces."""
    runs = []
    for kind in draw(st.lists(st.sampled_from(["thinking", "text", "tool"]), max_size=4)):
        if kind == "tool":
            text = json.dumps({"q": draw(st.text(alphabet="ab\u00e9", max_size=8))})
            runs.append((kind, draw(_cut(text))))
        else:
            runs.append((kind, draw(st.lists(_PIECE, min_size=1, max_size=8))))
    return runs


def openai_chat(runs: list[tuple[str, list[str]]], logprobs: bool) -> list[dict[str, Any]]:
    head = {"id": "chatcmpl-g", "object": "chat.completion.chunk", "created": 1, "model": "m"}

    def chunk(delta: dict[str, Any], **choice: Any) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, **choice}]}

    events = [chunk({"role": "assistant", "content": ""})]
    calls = 0
    for kind, pieces in runs:
        if kind == "tool":
            function = {"name": "f", "arguments": ""}
            first = {"index": calls, "id": f"call_{calls}", "type": "function"}
            events.append(chunk({"tool_calls": [{**first, "function": function}]}))
            for piece in pieces:
                fragment = {"index": calls, "function": {"arguments": piece}}
                events.append(chunk({"tool_calls": [fragment]}))
            calls += 1
        elif kind == "thinking":
            events.extend(chunk({"reasoning": piece}) for piece in pieces)
        else:
            for piece in pieces:
                extra: dict[str, Any] = {}
                if logprobs:
                    token = {"token": piece, "logprob": -0.5, "bytes": [], "top_logprobs": []}
                    extra["logprobs"] = {"content": [token], "refusal": None}
                events.append(chunk({"content": piece}, **extra))
    events.append(chunk({}, finish_reason="tool_calls" if calls else "stop"))
    usage = {"prompt_tokens": 3, "completion_tokens": 5, "total_tokens": 8}
    events.append({**head, "choices": [], "usage": usage})
    return events


def openai_responses(runs: list[tuple[str, list[str]]]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []

    def add(kind: str, **fields: Any) -> None:
        events.append({"type": kind, "sequence_number": len(events), **fields})

    head = {"id": "resp_g", "object": "response", "created_at": 1, "model": "m"}
    add("response.created", response={**head, "status": "in_progress", "output": []})
    items = []
    for position, (kind, pieces) in enumerate(runs):
        text = "".join(pieces)
        item_id = f"item_{position}"
        at = {"output_index": position, "item_id": item_id}
        if kind == "tool":
            item = {"type": "function_call", "id": item_id, "call_id": f"call_{position}"}
            item |= {"name": "f", "arguments": "", "status": "in_progress"}
            add("response.output_item.added", output_index=position, item=item)
            for piece in pieces:
                add("response.function_call_arguments.delta", delta=piece, **at)
            add("response.function_call_arguments.done", arguments=text, **at)
            done = {**item, "arguments": text, "status": "completed"}
        else:
            if kind == "thinking":
                item = {"type": "reasoning", "id": item_id, "summary": []}
                key, part_type, index = "summary", "summary_text", "summary_index"
                events_of = "response.reasoning_summary_text"
                part_events = "response.reasoning_summary_part"
            else:
                item = {"type": "message", "id": item_id, "role": "assistant", "content": []}
                item["status"] = "in_progress"
                key, part_type, index = "content", "output_text", "content_index"
                events_of = "response.output_text"
                part_events = "response.content_part"
            add("response.output_item.added", output_index=position, item=item)
            part = {"type": part_type, "text": ""}
            if part_type == "output_text":
                part["annotations"] = []
            where = {**at, index: 0}
            add(f"{part_events}.added", part=part, **where)
            for piece in pieces:
                add(f"{events_of}.delta", delta=piece, **where)
            add(f"{events_of}.done", text=text, **where)
            add(f"{part_events}.done", part={**part, "text": text}, **where)
            done = {**item, key: [{**part, "text": text}]}
            if kind == "text":
                done["status"] = "completed"
        add("response.output_item.done", output_index=position, item=done)
        items.append(done)
    usage = {"input_tokens": 3, "output_tokens": 5, "total_tokens": 8}
    response = {**head, "status": "completed", "output": items, "usage": usage}
    add("response.completed", response=response)
    return events


def anthropic(runs: list[tuple[str, list[str]]], pings: bool) -> list[dict[str, Any]]:
    message = {"id": "msg_g", "type": "message", "role": "assistant", "model": "m"}
    message |= {"content": [], "usage": {"input_tokens": 3, "output_tokens": 1}}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": message}]
    for number, (kind, pieces) in enumerate(runs):
        if kind == "tool":
            block: dict[str, Any] = {"type": "tool_use", "id": f"toolu_{number}", "name": "f"}
            block["input"] = {}
            deltas = [{"type": "input_json_delta", "partial_json": piece} for piece in pieces]
        elif kind == "thinking":
            block = {"type": "thinking", "thinking": ""}
            deltas = [{"type": "thinking_delta", "thinking": piece} for piece in pieces]
            deltas.append({"type": "signature_delta", "signature": f"sig{number}"})
        else:
            block = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": piece} for piece in pieces]
        events.append({"type": "content_block_start", "index": number, "content_block": block})
        for delta in deltas:
            events.append({"type": "content_block_delta", "index": number, "delta": delta})
            if pings:
                events.append({"type": "ping"})
        events.append({"type": "content_block_stop", "index": number})
    stop = "tool_use" if any(kind == "tool" for kind, _ in runs) else "end_turn"
    delta = {"type": "message_delta", "delta": {"stop_reason": stop}}
    events.append({**delta, "usage": {"output_tokens": 5}})
    events.append({"type": "message_stop"})
    return events


def gemini(runs: list[tuple[str, list[str]]], camel: bool) -> list[dict[str, Any]]:
    usage_key, model_key, id_key = (
        ("usageMetadata", "modelVersion", "responseId")
        if camel
        else ("usage_metadata", "model_version", "response_id")
    )
    count_key = "candidatesTokenCount" if camel else "candidates_token_count"
    events: list[dict[str, Any]] = []

    def piece(part: dict[str, Any] | None, finish: str | None = None) -> dict[str, Any]:
        candidate: dict[str, Any] = {
            "content": {"role": "model", "parts": [part] if part else []},
            "index": 0,
        }
        if finish:
            candidate["finishReason" if camel else "finish_reason"] = finish
        usage = {count_key: len(events)}
        return {"candidates": [candidate], usage_key: usage, model_key: "m", id_key: "r_g"}

    for kind, pieces in runs:
        if kind == "tool":
            call = {"name": "f", "args": json.loads("".join(pieces))}
            events.append(piece({"functionCall" if camel else "function_call": call}))
        else:
            for text in pieces:
                part: dict[str, Any] = {"text": text}
                if kind == "thinking":
                    part["thought"] = True
                events.append(piece(part))
    events.append(piece(None, "STOP"))
    return events


@st.composite
def streams(draw: Any) -> tuple[str, list[dict[str, Any]]]:
    """The events of one made-up reply, in one API's stream: (format key, events)."""
    runs = draw(replies())
    format = draw(st.sampled_from(["openai_chat", "openai_responses", "anthropic", "gemini"]))
    if format == "openai_chat":
        return format, openai_chat(runs, draw(st.booleans()))
    if format == "openai_responses":
        return format, openai_responses(runs)
    if format == "anthropic":
        return format, anthropic(runs, draw(st.booleans()))
    return format, gemini(runs, draw(st.booleans()))


_EXAMPLE = [("thinking", ["Two ", "cities."]), ("text", ["Sun", "ny in ", "Lima."])]
_EXAMPLE.append(("tool", ['{"q": ', '"Oslo"}']))
#: One made-up reply in each API's stream, for tests that need one.
EXAMPLES = {
    "openai_chat": openai_chat(_EXAMPLE, True),
    "openai_responses": openai_responses(_EXAMPLE),
    "anthropic": anthropic(_EXAMPLE, True),
    "gemini": gemini(_EXAMPLE, True),
}
