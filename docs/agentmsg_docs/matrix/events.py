"""The events each format streams for a response, as its stream class takes them: the
reply tables feed them to the stream classes and compare what comes out with ``from_*``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


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
