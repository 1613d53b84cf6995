"""OpenAI Responses: a streamed reply's events back into one ``Response``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._stream import Stream, reject, trusted_msg
from .openai_responses import from_openai_responses

if TYPE_CHECKING:
    from .._message import Msg
    from ._common import Parsed

__all__ = ["OpenAIResponsesStream"]

FORMAT = "Responses"
_FINAL = frozenset({"response.completed", "response.incomplete", "response.failed"})
# Text deltas: the list of parts within the item, the part type, its text field, and
# the index field naming the part.
_TEXT_DELTAS: dict[str, tuple[str, str, str, str]] = {
    "response.output_text.delta": ("content", "output_text", "text", "content_index"),
    "response.refusal.delta": ("content", "refusal", "refusal", "content_index"),
    "response.reasoning_summary_text.delta": ("summary", "summary_text", "text", "summary_index"),
    "response.reasoning_text.delta": ("content", "reasoning_text", "text", "content_index"),
}
_TEXT_DONES = {
    "response.output_text.done": "response.output_text.delta",
    "response.refusal.done": "response.refusal.delta",
    "response.reasoning_summary_text.done": "response.reasoning_summary_text.delta",
    "response.reasoning_text.done": "response.reasoning_text.delta",
}
_PART_EVENTS = {
    "response.content_part.added": ("content", "content_index", True),
    "response.content_part.done": ("content", "content_index", False),
    "response.reasoning_summary_part.added": ("summary", "summary_index", True),
    "response.reasoning_summary_part.done": ("summary", "summary_index", False),
}


_OPENING = frozenset({"response.in_progress", "response.queued"})
_KNOWN = frozenset({"error"})


class _Item:
    """One output item so far: the item, and the growing text of each of its parts."""

    __slots__ = ("arguments", "done", "item", "texts")

    def __init__(self, item: dict[str, Any]) -> None:
        self.item = item
        self.done = False
        # (list key, part index) -> text pieces of a part still growing.
        self.texts: dict[tuple[str, int], list[str]] = {}
        self.arguments: list[str] | None = None

    def dump(self) -> dict[str, Any]:
        if self.done:
            return self.item
        item = dict(self.item)
        for (key, number), pieces in self.texts.items():
            parts = item[key] = list(item[key])
            part = dict(parts[number])
            part[_TEXT_FIELD[part["type"]]] = "".join(pieces)
            parts[number] = part
        if self.arguments is not None:
            item["arguments"] = "".join(self.arguments)
        return item


_TEXT_FIELD = {"output_text": "text", "refusal": "refusal", "summary_text": "text"}
_TEXT_FIELD["reasoning_text"] = "text"


class OpenAIResponsesStream(Stream):
    """A reply streamed by OpenAI Responses, assembled event by event.

    Feed it the events of ``client.responses.create(..., stream=True)`` (or their JSON
    as dicts) with :meth:`add`; :attr:`msg` is the reply so far, and :meth:`result`, once
    the stream has ended, gives what :func:`~agentmsg.from_openai_responses` gives for
    the unstreamed ``Response``.

    ``response.created`` opens the response; each output item comes as an
    ``output_item.added``, its parts (``content_part.added``,
    ``reasoning_summary_part.added``) and their deltas (``output_text.delta``,
    ``refusal.delta``, ``reasoning_summary_text.delta``, ``reasoning_text.delta``,
    ``function_call_arguments.delta``), and an ``output_item.done`` with the whole item.
    ``response.completed`` (or ``response.incomplete``, ``response.failed``) ends the
    stream and holds the whole response, which :meth:`result` converts. Events of other
    kinds (tool progress, annotations) are checked for their place and otherwise left
    to the items that hold their outcome.

    An event's ``sequence_number``, when it has one, is one more than the event
    before: a missing, repeated or late event is rejected, as is an event before the
    start (``response.created``, or ``response.queued`` or ``response.in_progress`` for
    a stream resumed with ``starting_after``) or after the end, an event for an output
    item, part or response id other than the open ones (another stream's), an event of
    another API, and an ``error`` event (its message is in the error's). An event type
    agentmsg does not know is passed over and reported as a loss.

    Example:
        >>> from agentmsg import OpenAIResponsesStream
        >>> stream = OpenAIResponsesStream()
        >>> response = {"id": "resp_1", "object": "response", "created_at": 1,
        ...             "model": "gpt-5", "status": "in_progress", "output": []}
        >>> item = {"type": "message", "id": "msg_1", "role": "assistant",
        ...         "status": "in_progress", "content": []}
        >>> part = {"type": "output_text", "text": "", "annotations": []}
        >>> stream.extend([
        ...     {"type": "response.created", "sequence_number": 0, "response": response},
        ...     {"type": "response.output_item.added", "sequence_number": 1,
        ...      "output_index": 0, "item": item},
        ...     {"type": "response.content_part.added", "sequence_number": 2,
        ...      "output_index": 0, "item_id": "msg_1", "content_index": 0, "part": part},
        ...     {"type": "response.output_text.delta", "sequence_number": 3,
        ...      "output_index": 0, "item_id": "msg_1", "content_index": 0, "delta": "Hi"},
        ... ])
        >>> stream.msg.get_text_content()
        'Hi'
    """

    __slots__ = ("_final", "_frame", "_items", "_next", "_response")
    _FORMAT = FORMAT
    _LAST = "response.completed"

    def __init__(self) -> None:
        super().__init__()
        self._response: dict[str, Any] | None = None
        self._items: list[_Item] = []
        self._final: dict[str, Any] | None = None
        self._next: int | None = None
        # The partial message's content (but the growing text), metadata and id, while
        # only the text of the last part of the last output item grows; with the pieces
        # of that text.
        self._frame: tuple[list[Any], dict[str, Any] | None, str | None, list[str]] | None = None

    def _take(self, event: dict[str, Any], index: int) -> None:
        kind = event.get("type")
        if kind != "response.output_text.delta":
            self._frame = None
        number = event.get("sequence_number")
        expected = self._next
        if kind == "error":
            error = event.get("error")
            message = event.get("message")
            if message is None and isinstance(error, dict):
                message = error.get("message", error)
            reject(FORMAT, index, "message", message, "the API reported an error")
        if type(kind) is not str or (kind not in _KNOWN and not kind.startswith("response.")):
            self._refuse_foreign(event, index)
            if type(kind) is not str or not kind:
                reject(FORMAT, index, "type", kind, "a Responses stream event has a `type`")
        if number is None:
            # The API reference's own examples have none: order is then not checked.
            pass
        elif type(number) is not int:
            reject(FORMAT, index, "sequence_number", number, "it must be an integer")
        elif expected is not None and number != expected:
            if number < expected:
                why = f"event {number} had come already: a duplicated or late event"
            else:
                why = f"event {expected} is the next one: an event is missing or out of order"
            reject(FORMAT, index, "sequence_number", number, why)
        if self._final is not None:
            reject(FORMAT, index, "type", kind, "it comes after the end of the response")
        if kind in _TEXT_DELTAS:
            self._text(event, index, _TEXT_DELTAS[kind])
        elif kind == "response.function_call_arguments.delta":
            item = self._item(event, index)
            delta = event.get("delta")
            if item.item.get("type") != "function_call":
                reject(FORMAT, index, "type", kind, "its item is not a function call")
            if type(delta) is not str:
                reject(FORMAT, index, "delta", delta, "it must be text")
            if item.arguments is None:
                item.arguments = [item.item.get("arguments") or ""]
            item.arguments.append(delta)
        elif kind == "response.created":
            if self._response is not None:
                reject(FORMAT, index, "type", kind, "a second response.created: another stream's")
            self._response = self._envelope(event, index, kind)
        elif kind in _OPENING:
            # A stream resumed with starting_after begins here, without response.created.
            self._response = self._envelope(event, index, kind)
        elif self._response is None:
            reject(FORMAT, index, "type", kind, "the stream starts with response.created")
        elif kind == "response.output_item.added":
            position = event.get("output_index")
            items = self._items
            if position != len(items):
                why = (
                    f"output item {position} was added already: a duplicated event"
                    if type(position) is int and 0 <= position < len(items)
                    else f"the next output item is number {len(items)}"
                )
                reject(FORMAT, index, "output_index", position, why)
            added = event.get("item")
            if not isinstance(added, dict):
                reject(FORMAT, index, "item", added, "it must be an object")
            items.append(_Item(dict(added)))
        elif kind == "response.output_item.done":
            entry = self._item(event, index, "item")
            done = event.get("item")
            if not isinstance(done, dict):
                reject(FORMAT, index, "item", done, "it must be an object")
            entry.item = done
            entry.texts = {}
            entry.arguments = None
            entry.done = True
        elif kind in _PART_EVENTS:
            self._part(event, index, _PART_EVENTS[kind])
        elif kind in _TEXT_DONES:
            key, _, field, at = _TEXT_DELTAS[_TEXT_DONES[kind]]
            entry = self._item(event, index)
            pieces = self._pieces(entry, event, index, key, at)
            value = event.get(field)
            if type(value) is not str:
                reject(FORMAT, index, field, value, "it must be text")
            pieces[:] = [value]
        elif kind == "response.function_call_arguments.done":
            entry = self._item(event, index)
            arguments = event.get("arguments")
            if type(arguments) is not str:
                reject(FORMAT, index, "arguments", arguments, "it must be text")
            entry.arguments = [arguments]
        elif kind in _FINAL:
            self._final = self._envelope(event, index, kind)
        elif type(kind) is str and kind.startswith("response."):
            if "output_index" in event:
                self._item(event, index)
        elif type(kind) is str and kind:
            # A new kind of event: passed over, and said.
            self._lose(f"events[{index}]", f"{kind!r} event", "agentmsg does not know this event")
        else:
            reject(FORMAT, index, "type", kind, "a Responses stream event has a `type`")
        if number is not None:
            self._next = number + 1

    def _envelope(self, event: dict[str, Any], index: int, kind: str) -> dict[str, Any]:
        response = event.get("response")
        if not isinstance(response, dict):
            reject(FORMAT, index, "response", response, f"a {kind} event holds the response")
        for key in ("id", "status", "model"):
            value = response.get(key)
            if value is not None and type(value) is not str:
                reject(FORMAT, index, f"response.{key}", value, "it must be text")
        output = response.get("output")
        if output is not None and not isinstance(output, list):
            reject(FORMAT, index, "response.output", output, "it must be a list")
        known = self._response
        if known is not None and response.get("id") != known.get("id"):
            reject(
                FORMAT, index, "response.id", response.get("id"), f"the stream is {known['id']!r}"
            )
        return response

    def _item(self, event: dict[str, Any], index: int, also: str = "") -> _Item:
        """The open output item the event names by ``output_index`` (and ``item_id``)."""
        position = event.get("output_index")
        items = self._items
        if type(position) is not int or not 0 <= position < len(items):
            reject(
                FORMAT, index, "output_index", position, "no output item of that index was added"
            )
        entry = items[position]
        if entry.done:
            reject(FORMAT, index, "output_index", position, f"output item {position} is done")
        if also:
            holder = event.get(also)
            given = holder.get("id") if isinstance(holder, dict) else None
        else:
            given = event.get("item_id")
        known = entry.item.get("id")
        if given is not None and known is not None and given != known:
            field = "item_id" if not also else f"{also}.id"
            reject(FORMAT, index, field, given, f"output item {position} is {known!r}")
        return entry

    def _part(self, event: dict[str, Any], index: int, spec: tuple[str, str, bool]) -> None:
        key, at, added = spec
        entry = self._item(event, index)
        number = event.get(at)
        part = event.get("part")
        parts = entry.item.get(key)
        parts = list(parts) if isinstance(parts, list) else []
        if not isinstance(part, dict) or type(part.get("type")) is not str:
            reject(FORMAT, index, "part", part, "it must be an object with a `type`")
        if added:
            if number != len(parts):
                why = (
                    f"part {number} was added already: a duplicated event"
                    if type(number) is int and 0 <= number < len(parts)
                    else f"the next part is number {len(parts)}"
                )
                reject(FORMAT, index, at, number, why)
            parts.append(dict(part))
            field = _TEXT_FIELD.get(part["type"])
            if field is not None:
                start = part.get(field)
                entry.texts[(key, number)] = [start] if type(start) is str and start else []
        else:
            if type(number) is not int or not 0 <= number < len(parts):
                reject(FORMAT, index, at, number, "no part of that index was added")
            entry.texts.pop((key, number), None)
            parts[number] = part
        entry.item[key] = parts

    def _pieces(
        self, entry: _Item, event: dict[str, Any], index: int, key: str, at: str
    ) -> list[str]:
        number = event.get(at)
        pieces = entry.texts.get((key, number)) if type(number) is int else None
        if pieces is None:
            reject(FORMAT, index, at, number, "no open part of that index takes text")
        return pieces

    def _text(self, event: dict[str, Any], index: int, spec: tuple[str, str, str, str]) -> None:
        key, part_type, _, at = spec
        entry = self._item(event, index)
        pieces = self._pieces(entry, event, index, key, at)
        delta = event.get("delta")
        if type(delta) is not str:
            reject(FORMAT, index, "delta", delta, "it must be text")
        if entry.item[key][event[at]].get("type") != part_type:
            reject(FORMAT, index, "type", event.get("type"), f"its part is no {part_type} part")
        pieces.append(delta)
        frame = self._frame
        if frame is not None and pieces is not frame[3]:
            self._frame = None  # another part's text grew: the frame is not this one's

    def _built(self) -> Msg | None:
        frame = self._frame
        made = None
        if frame is None:
            frame_made = self._new_frame()
            if frame_made is None:
                return None
            frame, made = frame_made
        content, metadata, invocation_id, pieces = frame
        text = "".join(pieces)
        if len(pieces) > 1:
            pieces[:] = [text]  # joined once: the next read joins two pieces
        return trusted_msg(
            [*content, {"type": "text", "text": text}], metadata, invocation_id, made
        )

    def _new_frame(self) -> tuple[Any, Msg] | None:
        """The frame of the partial message when the last part of the last output item is
        output text still growing (then only its text changes from event to event)."""
        items = self._items
        if self._final is not None or not items or self._response is None:
            return None
        entry = items[-1]
        parts = entry.item.get("content")
        if entry.done or entry.item.get("type") != "message" or not isinstance(parts, list):
            return None
        pieces = entry.texts.get(("content", len(parts) - 1))
        if pieces is None or parts[-1].get("type") != "output_text":
            return None
        snapshot = self._snapshot()
        assert snapshot is not None  # the response has started
        made = from_openai_responses(snapshot).messages[-1]
        content = made.to_dict()["content"]
        if type(content) is not list or content[-1:] != [{"type": "text", "text": "".join(pieces)}]:
            return None
        frame = (content[:-1], made.to_dict()["metadata"], made.invocation_id, pieces)
        self._frame = frame
        return frame, made

    def _ended(self) -> bool:
        return self._final is not None

    def _snapshot(self) -> dict[str, Any] | None:
        if self._final is not None:
            return self._final
        response = self._response
        if response is None:
            return None
        return {**response, "output": [entry.dump() for entry in self._items]}

    def _convert(self, response: dict[str, Any], strict: bool) -> Parsed:
        return from_openai_responses(response, strict=strict)
