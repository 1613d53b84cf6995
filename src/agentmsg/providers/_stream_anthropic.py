"""Anthropic Messages: a streamed reply's events back into one ``Message``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .._validate import show
from ._common import STATE_KEY, Report
from ._stream import Stream, reject, trusted_msg
from .anthropic import STATE_FORMAT, _block, from_anthropic

if TYPE_CHECKING:
    from .._message import Msg
    from ._common import Parsed

__all__ = ["AnthropicStream"]

FORMAT = "Anthropic"
# Which field of a block each kind of delta extends, and the block types it fits.
_DELTAS: dict[str, tuple[str, tuple[str, ...]]] = {
    "text_delta": ("text", ("text",)),
    "thinking_delta": ("thinking", ("thinking",)),
    "input_json_delta": ("partial_json", ("tool_use", "server_tool_use", "mcp_tool_use")),
}


# The fields of a starting block that must be text when given.
_TEXT_FIELDS = {
    "text": ("text",),
    "thinking": ("thinking", "signature"),
    "tool_use": ("id", "name"),
    "redacted_thinking": ("data",),
}
_KNOWN = frozenset(
    {
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    }
)


def _check_usage(usage: Any, index: int, path: str) -> None:
    if usage is None:
        return
    if not isinstance(usage, dict):
        reject(FORMAT, index, path, usage, "it must be an object")
    for key in ("input_tokens", "output_tokens"):
        value = usage.get(key)
        if value is not None and (type(value) is not int or value < 0):
            reject(FORMAT, index, f"{path}.{key}", value, "it must be an integer >= 0")


class AnthropicStream(Stream):
    """A reply streamed by Anthropic Messages, assembled event by event.

    Feed it the events of ``client.messages.create(..., stream=True)`` (or their JSON as
    dicts) with :meth:`add`; :attr:`msg` is the reply so far, and :meth:`result`, once
    ``message_stop`` has come, gives what :func:`~agentmsg.from_anthropic` gives for the
    unstreamed ``Message``.

    ``message_start`` opens the message; each content block comes as a
    ``content_block_start``, deltas (``text_delta``, ``thinking_delta``,
    ``signature_delta``, ``input_json_delta``, ``citations_delta``) and a
    ``content_block_stop``, one block after another; ``message_delta`` brings the stop
    reason and the final usage; ``ping`` events carry nothing. A tool call's input is the
    JSON its ``input_json_delta`` pieces make together, read when its block stops (until
    then the partial message shows the text so far in ``raw_input``, with an empty input).

    A reply cut short (``max_tokens``) may end with a block open: ``message_delta``
    closes it, and a tool input that is not yet whole JSON is reported as a loss. A new
    kind of delta grows its block's fields (the conversion reports what it cannot
    carry); a new kind of event is passed over and reported. Rejected: an event before
    ``message_start`` or after ``message_stop``, a second ``message_start`` (another
    stream's), a block that starts out of turn or twice, a delta or a stop for a block
    that is not open, a delta of the wrong kind for its block, a value of the wrong
    type, a second ``message_delta``, an event of another API, and an ``error`` event
    (its message is in the error's).

    Example:
        >>> from agentmsg import AnthropicStream
        >>> stream = AnthropicStream()
        >>> stream.extend([
        ...     {"type": "message_start", "message": {"id": "msg_1", "type": "message",
        ...      "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
        ...      "usage": {"input_tokens": 9, "output_tokens": 1}}},
        ...     {"type": "content_block_start", "index": 0,
        ...      "content_block": {"type": "text", "text": ""}},
        ...     {"type": "content_block_delta", "index": 0,
        ...      "delta": {"type": "text_delta", "text": "Hello"}},
        ... ])
        >>> stream.msg.content
        [{'type': 'text', 'text': 'Hello'}]
    """

    __slots__ = (
        "_blocks",
        "_converted",
        "_delta_seen",
        "_done",
        "_envelope",
        "_message",
        "_open",
        "_parts",
        "_state",
        "_stopped",
    )
    _FORMAT = FORMAT
    _LAST = "message_stop"

    def __init__(self) -> None:
        super().__init__()
        self._message: dict[str, Any] | None = None
        self._blocks: list[dict[str, Any]] = []
        # The open block's index and the pieces of its growing field, joined when it stops.
        self._open: int | None = None
        self._parts: list[str] = []
        self._delta_seen = False
        self._stopped = False
        # For the partial message, built a block at a time: the converted blocks of the
        # stopped blocks, their provider state, and the message's metadata and id.
        self._done: list[dict[str, Any]] = []
        self._state: dict[str, Any] = {}
        self._envelope: tuple[dict[str, Any] | None, str | None] | None = None
        self._converted = 0

    def _take(self, event: dict[str, Any], index: int) -> None:
        kind = event.get("type")
        if kind == "content_block_delta":
            self._delta(event, index)
            return
        if kind == "ping":
            return
        if kind == "error":
            error = event.get("error")
            message = error.get("message", error) if isinstance(error, dict) else error
            reject(
                FORMAT, index, "error.message", message, "the API ended the stream with an error"
            )
        if type(kind) is not str or kind not in _KNOWN:
            self._refuse_foreign(event, index)
            if type(kind) is not str or not kind:
                reject(FORMAT, index, "type", kind, "an Anthropic stream event has a `type`")
            # The API may add event types (its versioning policy says clients tolerate
            # them): the event is passed over and said.
            self._lose(f"events[{index}]", f"{kind!r} event", "agentmsg does not know this event")
            return
        if self._stopped:
            reject(FORMAT, index, "type", kind, "it comes after message_stop")
        if kind == "message_start":
            message = event.get("message")
            if self._message is not None:
                reject(FORMAT, index, "type", kind, "a second message_start: another stream's")
            if not isinstance(message, dict):
                reject(FORMAT, index, "message", message, "it must be an object")
            content = message.get("content") or []
            if not isinstance(content, list):
                reject(FORMAT, index, "message.content", content, "it must be a list")
            for position, block in enumerate(content):
                if not isinstance(block, dict) or type(block.get("type")) is not str:
                    here = f"message.content[{position}]"
                    reject(FORMAT, index, here, block, "it must be an object with a `type`")
            usage = message.get("usage")
            _check_usage(usage, index, "message.usage")
            for key in ("id", "model", "stop_reason"):
                value = message.get(key)
                if value is not None and type(value) is not str:
                    reject(FORMAT, index, f"message.{key}", value, "it must be text")
            if message.get("role") not in (None, "assistant"):
                reject(FORMAT, index, "message.role", message["role"], "a reply is 'assistant'")
            message = dict(message)
            self._blocks = list(content)
            if isinstance(usage, dict):
                message["usage"] = dict(usage)
            self._message = message
            self._envelope = None
            return
        if self._message is None:
            reject(FORMAT, index, "type", kind, "the stream starts with message_start")
        if kind == "content_block_start":
            self._start(event, index)
        elif kind == "content_block_stop":
            self._stop(event, index)
        elif kind == "message_delta":
            if self._delta_seen:
                reject(FORMAT, index, "type", kind, "a second message_delta: a duplicated event")
            delta = event.get("delta") or {}
            usage = event.get("usage") or {}
            if not isinstance(delta, dict):
                reject(FORMAT, index, "delta", delta, "it must be an object")
            _check_usage(usage, index, "usage")
            for key in ("stop_reason", "stop_sequence"):
                value = delta.get(key)
                if value is not None and type(value) is not str:
                    reject(FORMAT, index, f"delta.{key}", value, "it must be text")
            if self._open is not None:
                # Cut by max_tokens: the open block gets no content_block_stop.
                self._cut(index)
            message = self._message
            for key, value in delta.items():
                if value is not None:
                    message[key] = value
            if usage:
                # Counts are totals so far, not increments: the last one stands.
                totals = message.get("usage")
                totals = dict(totals) if isinstance(totals, dict) else {}
                totals.update((key, value) for key, value in usage.items() if value is not None)
                message["usage"] = totals
            self._delta_seen = True
            self._envelope = None
        elif kind == "message_stop":
            if self._open is not None:
                self._cut(index)
            self._stopped = True

    def _cut(self, index: int) -> None:
        """Close the open block of a reply cut short; its tool input so far is said."""
        number = self._open
        assert number is not None  # callers check it
        block = self._blocks[number]
        text = "".join(self._parts)
        if block["type"] in _DELTAS["input_json_delta"][1] and text:
            try:
                json.loads(text)
            except (ValueError, RecursionError):
                self._parts = []
                self._lose(
                    f"content[{number}].input",
                    "cut tool input",
                    f"the reply stopped before its input was whole JSON; it was {show(text)}",
                )
        self._blocks[number] = self._finish(block, index)
        self._open = None
        self._parts = []

    def _start(self, event: dict[str, Any], index: int) -> None:
        number = event.get("index")
        blocks = self._blocks
        if self._open is not None:
            reject(FORMAT, index, "index", number, f"content block {self._open} is still open")
        if self._delta_seen:
            reject(FORMAT, index, "type", "content_block_start", "it comes after message_delta")
        if number != len(blocks):
            why = (
                f"content block {number} had started already: a duplicated event"
                if type(number) is int and 0 <= number < len(blocks)
                else f"the next content block is number {len(blocks)}"
            )
            reject(FORMAT, index, "index", number, why)
        block = event.get("content_block")
        if not isinstance(block, dict) or type(block.get("type")) is not str:
            reject(FORMAT, index, "content_block", block, "it must be an object with a `type`")
        for field in _TEXT_FIELDS.get(block["type"], ()):
            value = block.get(field)
            if value is not None and type(value) is not str:
                reject(FORMAT, index, f"content_block.{field}", value, "it must be text")
        if block["type"] == "tool_use" and not isinstance(block.get("input", {}), dict):
            reject(FORMAT, index, "content_block.input", block["input"], "it must be an object")
        block = dict(block)
        if block["type"] in _DELTAS["input_json_delta"][1]:
            # The pieces make the whole input; the start holds an empty one.
            self._parts = []
        else:
            field = "text" if block["type"] == "text" else "thinking"
            start = block.get(field)
            self._parts = [start] if type(start) is str and start else []
        blocks.append(block)
        self._open = number

    def _delta(self, event: dict[str, Any], index: int) -> None:
        number = event.get("index")
        if number is None or number != self._open:
            why = (
                f"content block {number} has stopped"
                if type(number) is int and 0 <= number < len(self._blocks)
                else "no content block of that index is open"
            )
            reject(FORMAT, index, "index", number, why)
        delta = event.get("delta")
        if not isinstance(delta, dict):
            reject(FORMAT, index, "delta", delta, "it must be an object")
        kind = delta.get("type")
        if type(kind) is not str:
            reject(FORMAT, index, "delta.type", kind, "a delta has a `type`")
        block = self._blocks[number]
        entry = _DELTAS.get(kind)
        if entry is not None:
            field, fits = entry
            piece = delta.get(field)
            if block["type"] not in fits:
                reject(FORMAT, index, "delta.type", kind, f"block {number} is a {block['type']}")
            if type(piece) is not str:
                reject(FORMAT, index, f"delta.{field}", piece, "it must be text")
            self._parts.append(piece)
        elif kind == "signature_delta":
            signature = delta.get("signature")
            if block["type"] != "thinking":
                reject(FORMAT, index, "delta.type", kind, f"block {number} is a {block['type']}")
            if type(signature) is not str:
                reject(FORMAT, index, "delta.signature", signature, "it must be text")
            block["signature"] = signature
        elif kind == "citations_delta":
            citation = delta.get("citation")
            if block["type"] != "text":
                reject(FORMAT, index, "delta.type", kind, f"block {number} is a {block['type']}")
            if not isinstance(citation, dict):
                reject(FORMAT, index, "delta.citation", citation, "it must be an object")
            citations = block.get("citations")
            if type(citations) is not list:
                citations = block["citations"] = []
            citations.append(citation)
        else:
            # A new kind of delta (compaction_delta): its text fields grow the block's,
            # the rest replace them; the conversion says what it cannot carry.
            for key, value in delta.items():
                if key == "type" or value is None:
                    continue
                old = block.get(key)
                block[key] = old + value if type(old) is str and type(value) is str else value

    def _stop(self, event: dict[str, Any], index: int) -> None:
        given = event.get("index")
        number = self._open
        if given != number or number is None:
            why = (
                f"content block {given} had stopped already: a duplicated event"
                if type(given) is int and 0 <= given < len(self._blocks)
                else "no content block of that index is open"
            )
            reject(FORMAT, index, "index", given, why)
        self._blocks[number] = self._finish(self._blocks[number], index)
        self._open = None
        self._parts = []

    def _finish(self, block: dict[str, Any], index: int) -> dict[str, Any]:
        """The open block with its pieces joined in (raises on tool input that is not JSON)."""
        kind = block["type"]
        text = "".join(self._parts)
        block = dict(block)
        if kind in _DELTAS["input_json_delta"][1]:
            if text:
                try:
                    block["input"] = json.loads(text)
                except (ValueError, RecursionError):
                    reject(
                        FORMAT,
                        index,
                        "",
                        text,
                        f"the input_json_delta pieces of block {self._open} do not make JSON",
                    )
        elif kind == "text" or kind == "thinking":
            block[kind] = text
        return block

    def _ended(self) -> bool:
        return self._stopped

    def _snapshot(self) -> dict[str, Any] | None:
        message = self._message
        if message is None:
            return None
        blocks = self._blocks
        if self._open is not None:
            blocks = list(blocks)
            block = dict(blocks[self._open])
            if block["type"] == "text" or block["type"] == "thinking":
                block[block["type"]] = "".join(self._parts)
            blocks[self._open] = block
        return {**message, "content": blocks}

    def _built(self) -> Msg | None:
        message = self._message
        if message is None:
            return None
        made = None
        if self._envelope is None:
            # Converted with no blocks: the metadata and the id, and nothing said.
            made = from_anthropic({**message, "content": []}).messages[0]
            metadata = made.to_dict()["metadata"]
            if metadata is not None:
                metadata.pop(STATE_KEY, None)
            self._envelope = (metadata, made.invocation_id)
        metadata, invocation_id = self._envelope
        # The stopped blocks not yet converted, each converted once, as the response's
        # conversion converts it (what it drops is said by the result, not here).
        stopped = len(self._blocks) - (self._open is not None)
        if self._converted < stopped:
            report = Report(FORMAT, False)
            done, state = self._done, self._state
            for position in range(self._converted, stopped):
                keep: dict[str, Any] = {}
                block = _block(
                    report, self._blocks[position], "content", {}, "assistant", keep, len(done)
                )
                if block is not None:
                    state.update(keep)
                    done.append(block)
            self._converted = stopped
        content = list(self._done)
        state = self._state
        if self._open is not None:
            block = self._blocks[self._open]
            kind = block["type"]
            text = "".join(self._parts)
            if len(self._parts) > 1:
                self._parts[:] = [text]  # joined once: the next read joins two pieces
            if kind == "text":
                content.append({"type": "text", "text": text})
            elif kind == "thinking":
                content.append({"type": "thinking", "thinking": text})
                if block.get("signature"):
                    state = {**state, str(len(self._done)): {"signature": block["signature"]}}
            elif kind == "tool_use":
                shown = {"type": "tool_use", "id": block["id"], "name": block["name"]}
                shown["input"] = block.get("input") or {}
                if text:
                    shown["raw_input"] = text
                content.append(shown)
            else:
                report = Report(FORMAT, False)
                kept: dict[str, Any] = {}
                shown_block = _block(report, block, "content", {}, "assistant", kept, len(content))
                if shown_block is not None:
                    content.append(shown_block)
                    state = {**state, **kept}
        if state:
            metadata = {**(metadata or {}), STATE_KEY: {STATE_FORMAT: dict(state)}}
        return trusted_msg(content, metadata, invocation_id, made)

    def _shown(self, msg: Msg) -> Msg:
        # An open tool call shows its input text so far, as the other formats' partial
        # messages do (its input is JSON only once the block stops).
        if self._open is None or not self._parts:
            return msg
        block = self._blocks[self._open]
        content = msg.content
        if block["type"] != "tool_use" or isinstance(content, str):
            return msg
        shown = [
            {**item, "raw_input": "".join(self._parts)}
            if item["type"] == "tool_use" and item["id"] == block.get("id")
            else item
            for item in content
        ]
        return type(msg)(msg.name, shown, msg.role, msg.metadata, None, msg.invocation_id)  # type: ignore[arg-type]

    def _convert(self, response: dict[str, Any], strict: bool) -> Parsed:
        return from_anthropic(response, strict=strict)
