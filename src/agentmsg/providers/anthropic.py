"""Anthropic Messages: ``system`` and ``messages`` both ways, and a streamed reply's
events back into one ``Message`` (:class:`AnthropicStream`)."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from .._message import Msg
from .._validate import label, show
from ._common import (
    DEFAULT_NAMES,
    STATE_KEY,
    TOOL_RESULTS_NAME,
    CallIds,
    Conversion,
    Pairing,
    Parsed,
    Reader,
    Writer,
    duplicate_why,
    repeated_id_why,
)
from ._stream import Stream, clean_text, joined, trusted_msg

__all__ = ["AnthropicStream", "from_anthropic", "to_anthropic"]

FORMAT = "Anthropic Messages"
STREAM_FORMAT = "Anthropic"  # the stream's name for its API in error texts
STATE_FORMAT = "anthropic"


# -- to ----------------------------------------------------------------------------------


def to_anthropic(messages: Any, *, strict: bool = False) -> Conversion:
    """Convert a conversation to the ``system`` and ``messages`` of an Anthropic request.

    {writer args}

    Returns:
        A :class:`~agentmsg.Conversion` whose payload holds ``messages``, and
        ``system`` when there is a system message, with what could not be carried as it
        was.

    {writer raises}

    The text of the system messages becomes the one system prompt. Tool results travel
    as ``tool_result`` blocks in a user message and may hold images. Anthropic has no
    sender names and takes no audio or video. A thinking block is sent with the signature
    the API gave it, which :func:`from_anthropic` keeps in the message's metadata; without
    one, it cannot be sent. See :ref:`provider-formats`.

    Example:
        >>> from agentmsg import Msg, to_anthropic
        >>> conversation = [Msg("system", "Be brief.", "system"), Msg("user", "Hi", "user")]
        >>> to_anthropic(conversation).payload
        {'system': 'Be brief.', 'messages': [{'role': 'user', 'content': 'Hi'}]}
    """
    writer = _Writer(FORMAT, strict)
    writer.start(messages)
    writer.pairing.ids.reserve_later(writer.call_ids())
    texts, as_str = writer.system_prompt()
    for index, msg in enumerate(writer.conversation):
        writer.message(msg, index)
    writer.end()
    payload: dict[str, Any] = {}
    if texts:
        payload["system"] = texts[0] if as_str else [{"type": "text", "text": t} for t in texts]
    payload["messages"] = writer.out
    return Conversion(payload, tuple(writer.losses))


#: The rules of :ref:`rules-anthropic` that the writer enforces, as Loss texts.
UNANSWERED = (
    "Anthropic wants a tool_result block for each tool_use block in the user turn right after it"
)
ORPHAN = (
    "Anthropic takes a tool_result block only in the user turn right after the assistant "
    "turn with its tool_use block"
)
RESULTS_FIRST = "Anthropic wants the tool_result blocks first in the user turn after the tool calls"
EMPTY_TEXT = "Anthropic refuses empty text blocks"
EMPTY_MESSAGE = "Anthropic refuses a message with empty content, but for a final assistant message"
TRAILING_SPACE = "Anthropic refuses a final assistant message whose text ends with white space"
REPEATED_ID = repeated_id_why("Anthropic")
ID_CHARACTERS = (
    "Anthropic takes tool call ids of letters, digits, '_' and '-' only; the call's results "
    "follow the new id, and they come back with it"
)
DUPLICATE = duplicate_why(FORMAT)
NAMED_ONLY_BY_ID = (
    "an Anthropic tool result names only the call id, and the tool call with that id names "
    "another tool"
)
IMAGES = "Anthropic takes JPEG, PNG, GIF and WebP images"


class _Writer(Writer):
    """The Anthropic messages of one conversation, and the report of what they cost.

    ``pairing`` knows which tool calls of the last assistant turn wait for a result;
    ``run`` is where the user turns after that assistant turn start in ``out``, and
    ``results_end`` where its leading tool-result turns end.
    """

    __slots__ = ("last_assistant", "pairing", "results_end", "run")

    def __init__(self, format: str, strict: object) -> None:
        Writer.__init__(self, format, strict)
        self.pairing = Pairing(CallIds(REPEATED_ID, _legal_id, ID_CHARACTERS))
        self.run = 0
        self.results_end = 0
        # the last assistant message sent: (index, its content, its entry in out)
        self.last_assistant: tuple[int, Any, dict[str, Any]] | None = None

    def message(self, msg: Any, index: int) -> None:
        role = msg.role
        content: Any = msg.content
        has_results = not isinstance(content, str) and any(
            b["type"] == "tool_result" for b in content
        )
        if has_results and self.results(msg, content, index):
            return  # the message is tool results only, sent
        if role == "system":
            return  # the text went to the system prompt, the tool results are sent
        self.name(msg, index, DEFAULT_NAMES[role])
        calls = []
        if isinstance(content, str):
            blocks: Any = content
        else:
            blocks = []
            for position, block in enumerate(content):
                kind = block["type"]
                if kind == "text" and len(block) == 2 and block["text"]:
                    blocks.append({"type": "text", "text": block["text"]})  # the common case
                elif kind != "tool_result":
                    path = f"messages[{index}].content[{position}]"
                    sent = _BLOCK_WRITERS.get(kind, _Writer.other)(self, msg, block, path, position)
                    if sent is not None:
                        blocks.append(sent)
                        if kind == "tool_use":
                            calls.append((position, block, sent))
            if not blocks and content:
                return  # every block was reported
        final = index == len(self.conversation) - 1
        if not blocks and (role != "assistant" or not final):
            self.change(f"messages[{index}]", "empty message", "not sent", EMPTY_MESSAGE)
            return
        entry = {"role": role, "content": blocks}
        if role == "assistant":
            self.settle()
            self.out.append(entry)
            self.last_assistant = (index, content, entry)
            self.run = self.results_end = len(self.out)
            for position, block, sent in calls:
                sent["id"] = self.pairing.call(self, block, index, position)
        else:
            self.out.append(entry)

    def trimmed(self, blocks: Any, content: Any, index: int) -> Any:
        """The blocks of the final assistant turn, its last text without trailing white
        space (the API takes that turn as the start of its reply)."""
        if not blocks:
            return blocks
        if isinstance(blocks, str):
            text, path = blocks, f"messages[{index}].content"
        elif blocks[-1]["type"] == "text":
            position = max(
                p for p, block in enumerate(content) if block["type"] == "text" and block["text"]
            )
            text, path = blocks[-1]["text"], f"messages[{index}].content[{position}]"
        else:
            return blocks
        kept = text.rstrip()
        if kept == text:
            return blocks
        self.change(path, "white space at the end of the text", "not sent", TRAILING_SPACE)
        if isinstance(blocks, str):
            return kept
        return [*blocks[:-1], {"type": "text", "text": kept}] if kept else blocks[:-1]

    # -- the blocks of a user or assistant message (see _BLOCK_WRITERS) ------------------

    def text(self, msg: Any, block: dict[str, Any], path: str, position: int) -> Any:
        self.signature(block, path)
        if not block["text"]:
            self.change(path, "empty text block", "not sent", EMPTY_TEXT)
            return None
        return {"type": "text", "text": block["text"]}

    def tool_use(self, msg: Any, block: dict[str, Any], path: str, position: int) -> Any:
        if msg.role != "assistant":
            why = "Anthropic tool calls come from the assistant only"
            self.drop(path, "tool call in a user message", why, block)
            return None
        if "raw_input" in block:
            self.raw_input(block, path)
        self.signature(block, path)
        return {
            "type": "tool_use",
            "id": block["id"],
            "name": block["name"],
            "input": block["input"],
        }

    def image(self, msg: Any, block: dict[str, Any], path: str, position: int) -> Any:
        if msg.role != "user":
            why = "Anthropic assistant messages hold text, thinking and tool calls"
            self.drop(path, "image block in an assistant message", why, block)
            return None
        return self.image_block(block, path)

    def thinking(self, msg: Any, block: dict[str, Any], path: str, position: int) -> Any:
        if msg.role != "assistant":
            why = "Anthropic takes thinking from the assistant only"
            self.drop(path, "thinking block", why, block)
            return None
        state = self.kept(msg, STATE_FORMAT)
        signature = block.get("signature") or self.field(state, position, "signature")
        if signature:
            return {"type": "thinking", "thinking": block["thinking"], "signature": signature}
        redacted = self.field(state, position, "redacted")
        if redacted is not None:
            return {"type": "redacted_thinking", "data": redacted}
        why = (
            "an Anthropic thinking block needs the signature the API gave it, and this "
            "message's metadata keeps none for it"
        )
        self.drop(path, "thinking block", why, block)
        return None

    def other(self, msg: Any, block: dict[str, Any], path: str, position: int) -> Any:
        kind = block["type"]
        self.drop(path, f"{kind} block", f"Anthropic Messages takes no {kind}", block)
        return None

    def image_block(self, block: dict[str, Any], path: str) -> dict[str, Any] | None:
        media = self.media(block, path)
        if media is None:
            return None
        if media.form == "url":
            return {"type": "image", "source": {"type": "url", "url": media.data}}
        if media.form == "data_url":
            why = "Anthropic takes base64 data or an http URL"
            self.drop(path, "image in a data: URL that is not base64", why, block)
            return None
        if not self.image_type(block, path, media, IMAGES):
            return None
        source = {"type": "base64", "media_type": media.media_type, "data": media.data}
        return {"type": "image", "source": source}

    # -- tool results and the pairing of calls ---------------------------------------

    def results(self, msg: Any, content: Any, index: int) -> bool:
        """The tool results of *msg*, as one user turn of ``tool_result`` blocks; whether
        *msg* holds nothing else."""
        only = self.tool_message(msg, index)
        if only:
            self.name(msg, index, TOOL_RESULTS_NAME)
        blocks = []
        names = self.pairing.names
        for path, sent_id, block in self.pairing.results(self, msg, content, index, ORPHAN, False):
            if names[sent_id] != block["name"]:
                self.tool_name(block, path, names[sent_id], NAMED_ONLY_BY_ID)
            output = block["output"]
            if type(output) is not str:
                output = self.output(block, path, self.result_part)
            blocks.append({"type": "tool_result", "tool_use_id": sent_id, "content": output})
        if not blocks:
            return only
        entry = {"role": "user", "content": blocks}
        if len(self.out) > self.results_end:
            what = "tool results after other content of the user turn"
            self.change(f"messages[{index}]", what, "moved before it", RESULTS_FIRST)
            self.out.insert(self.results_end, entry)
        else:
            self.out.append(entry)
        self.results_end += 1
        return only

    def result_part(self, item: dict[str, Any], path: str) -> Any:
        """The block of a tool result's output block, or None (reported)."""
        if item["type"] == "text":
            if item["text"]:
                return {"type": "text", "text": item["text"]}
            self.change(path, "empty text block", "not sent", EMPTY_TEXT)
        elif item["type"] == "image":
            return self.image_block(item, path)
        else:
            what = f"{item['type']} block in a tool result"
            self.drop(path, what, "Anthropic tool results hold text and images", item)
        return None

    def settle(self) -> None:
        """Drop the tool calls that the user turns after them left unanswered."""
        if self.pairing.waiting:
            self.unanswered(self.pairing, self.run - 1, "content", _call_id, UNANSWERED)

    def end(self) -> None:
        """Drop the calls of the last assistant turn if other turns follow it unanswered;
        a conversation that ends with tool calls waits for their results."""
        if self.pairing.waiting and len(self.out) > self.run:
            self.settle()
        # The last turn sent starts the reply when it is the assistant's, whatever came
        # after it and was not sent (an empty message, a system message moved up).
        last = self.last_assistant
        if last is not None and self.out and self.out[-1] is last[2]:
            last[2]["content"] = self.trimmed(last[2]["content"], last[1], last[0])


_NOT_IN_IDS = re.compile(r"[^a-zA-Z0-9_-]")
_legal_id = functools.partial(_NOT_IN_IDS.sub, "_")


def _call_id(block: dict[str, Any]) -> str | None:
    return block["id"] if block["type"] == "tool_use" else None


_BLOCK_WRITERS = {
    "text": _Writer.text,
    "tool_use": _Writer.tool_use,
    "image": _Writer.image,
    "thinking": _Writer.thinking,
}


# -- from --------------------------------------------------------------------------------

_MESSAGE_KEYS = frozenset({"role", "content"})
_RESPONSE_KEYS = frozenset(
    {"id", "type", "role", "content", "model", "stop_reason", "stop_sequence", "usage"}
    | {"container", "stop_details"}
)


def from_anthropic(data: Any, *, strict: bool = False) -> Parsed:
    """Read messages from Anthropic Messages data.

    Args:
        data: A request payload (a dict with ``messages`` and maybe ``system``), a list
            of messages, or a response: a ``Message`` of the ``anthropic`` package or its
            JSON as a dict.
        strict: Raise instead of reporting something dropped.

    {reader returns}

    The system prompt becomes a first system message. The tool results of a user message
    become a message of tool results with role ``"system"``, apart from the rest of it;
    each result takes its tool name from the call with the same id. A thinking block
    keeps its text, and its signature goes to the message's metadata, under
    ``provider_state``, for :func:`to_anthropic` to send back. A
    response's id is the message's ``invocation_id``; its metadata holds ``model``,
    ``stop_reason`` and ``token_usage``.
    """
    reader = _Reader(FORMAT, strict)
    data = reader.plain(data)
    turns = reader.turns
    if (
        isinstance(data, dict)
        and "messages" not in data
        and ("content" in data or "type" in data)
        and data.get("type") != "error"  # the API's answer to a failed call: refused below
    ):
        reader.envelope(data)
        reader.message(data, "", response=True)
        return reader.parsed()
    if isinstance(data, list):
        messages = data
    elif isinstance(data, dict) and "messages" in data:
        system = data.get("system")
        if type(system) is str:
            turns.add("system", system, "system", "system")
        elif system is not None:
            turns.add("system", reader.blocks(system, "system", SYSTEM_KEPT), "system", "system")
        messages = reader.array(data["messages"], "messages")
    else:
        shapes = "a request payload with `messages`, a list of messages or a response message"
        reader.refuse(data, shapes, "Anthropic")
    for index, message in enumerate(messages):
        path = f"messages[{index}]"
        reader.message(reader.obj(message, path), path)
    turns.flush("messages")
    return reader.parsed()


#: The blocks a system prompt keeps (:meth:`_Reader.blocks`).
SYSTEM_KEPT = (("text",), "block", "agentmsg's system messages hold text here")
#: The blocks a tool result keeps (:meth:`_Reader.blocks`).
RESULT_KEPT = (
    ("text", "image"),
    "block in a tool result",
    "agentmsg's tool output holds text, image, audio and video",
)


class _Reader(Reader):
    """Reads Anthropic requests and responses."""

    __slots__ = ()

    def envelope(self, data: dict[str, Any]) -> None:
        metadata: dict[str, Any] = {}
        for key in ("model", "stop_reason"):
            if data.get(key) is not None:
                metadata[key] = self.text(data[key], key)
        usage = data.get("usage")
        if usage is not None:
            usage = self.obj(usage, "usage")
            prompt, completion = self.usage(usage, "usage", ("input_tokens", "output_tokens"))
            metadata["token_usage"] = {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            }
        for key in ("container", "stop_details", "stop_sequence"):
            if data.get(key):
                self.no_place(key, f"`{key}` field", data[key])
        self.begin(data, metadata)

    def message(self, message: dict[str, Any], path: str, *, response: bool = False) -> None:
        turns = self.turns
        roles = ("user", "assistant", "system")
        role = self.choice(message.get("role"), f"{path}.role" if path else "role", roles)
        if not response:
            self.extra(message, _MESSAGE_KEYS, path)
        here = f"{path}.content" if path else "content"
        content = self.key(message, "content", path or "message")
        name, at = DEFAULT_NAMES[role], path or "content"
        if type(content) is str:
            turns.add(name, content, role, at)
            return
        items = self.array(content, here)
        pending: list[Any] = []
        keep: dict[str, Any] = {}
        for position, item in enumerate(items):
            item_path = f"{here}[{position}]"
            item = self.obj(item, item_path)
            if item.get("type") == "tool_result" and role == "user":
                if pending:
                    turns.add(name, pending, role, at, (STATE_FORMAT, keep))
                    pending, keep = [], {}
                self.tool_result(item, item_path)
                continue
            block = self.block(item, item_path, role, keep, len(pending))
            if block is not None:
                if not pending:
                    turns.flush(item_path)
                pending.append(block)
        if pending or not items or response:
            # A reply whose every block was dropped still brings its id, usage and stop reason.
            turns.add(name, pending, role, at, (STATE_FORMAT, keep))
        turns.flush(here)  # a message's tool results stay apart from the next message's

    def blocks(self, content: Any, path: str, kept: tuple[tuple[str, ...], str, str]) -> list[Any]:
        """The blocks of the list *content*; with *kept* ``(types, what, why)``, a block of
        another type is reported dropped as ``"<type> <what>"``, because *why*."""
        blocks = []
        for position, item in enumerate(self.array(content, path)):
            item_path = f"{path}[{position}]"
            item = self.obj(item, item_path)
            if item.get("type") not in kept[0]:
                self.drop(item_path, f"{label(item.get('type'))} {kept[1]}", kept[2], item)
                continue
            block = self.block(item, item_path, "user")
            if block is not None:
                blocks.append(block)
        return blocks

    def block(
        self,
        item: dict[str, Any],
        path: str,
        role: str,
        keep: dict[str, Any] | None = None,
        index: int = 0,
    ) -> Any:
        """The agentmsg block of one Anthropic block, or None (reported) when there is none.

        *keep* collects, by block *index*, what the block needs to be sent back (a thinking
        block's signature) for the message's provider state; without it, that is dropped.
        """
        kind = item.get("type")
        extra = self.extra
        if kind == "text":
            extra(item, "type text", path)
            return {"type": "text", "text": self.text_at(item, "text", path)}
        if kind == "image":
            extra(item, "type source", path)
            source = self.obj_at(item, "source", path)
            at = f"{path}.source"
            source_type = source.get("type")
            if source_type == "base64":
                extra(source, "type media_type data", at)
                media_type = self.text_at(source, "media_type", at)
                data = self.text_at(source, "data", at)
                return {
                    "type": "image",
                    "source": {"type": "base64", "media_type": media_type, "data": data},
                }
            if source_type == "url":
                extra(source, "type url", at)
                return {"type": "image", "source": self.source(self.text_at(source, "url", at))}
            why = "agentmsg has no source for it"
            self.drop(path, f"image from a {label(source_type)} source", why, item)
            return None
        if kind == "thinking":
            extra(item, "type thinking signature", path)
            thinking = self.text_at(item, "thinking", path)
            signature = item.get("signature")
            if signature:
                signature = self.text(signature, f"{path}.signature")
                if keep is not None:
                    keep[str(index)] = {"signature": signature}
                else:
                    why = "agentmsg keeps signatures of assistant messages only"
                    self.drop(f"{path}.signature", "thinking signature", why, signature)
            return {"type": "thinking", "thinking": thinking}
        if kind == "redacted_thinking" and keep is not None:
            extra(item, "type data", path)
            keep[str(index)] = {"redacted": self.ident_at(item, "data", path)}
            instead = "kept as an empty thinking block, its data in the message's provider state"
            rule = "agentmsg has no block for encrypted thinking"
            self.change(path, "redacted thinking", instead, rule)
            return {"type": "thinking", "thinking": ""}
        if kind == "tool_use":
            extra(item, "type id name input", path)
            call_id = self.ident_at(item, "id", path)
            name = self.names[call_id] = self.ident_at(item, "name", path)
            tool_input = item.get("input", {})
            if not isinstance(tool_input, dict):
                self.obj(tool_input, f"{path}.input")  # raises
            return {"type": "tool_use", "id": call_id, "name": name, "input": tool_input}
        self.unknown(path, f"{label(kind)} block", item)
        return None

    def tool_result(self, item: dict[str, Any], path: str) -> None:
        self.extra(item, frozenset({"type", "tool_use_id", "content", "is_error"}), path)
        call_id = self.ident_at(item, "tool_use_id", path)
        if item.get("is_error"):
            why = "agentmsg's tool result has no field for it"
            self.drop(f"{path}.is_error", "error flag of a tool result", why, True)
        content = item.get("content", "")
        output: Any = content
        if type(content) is not str:
            output = self.blocks(content, f"{path}.content", RESULT_KEPT) or ""
        self.result(call_id, self.result_name(call_id, None, f"{path}.tool_use_id"), output)


def _shown_block(item: dict[str, Any], keep: dict[str, Any], index: int) -> Any:
    """*item* converted as :func:`from_anthropic` converts it (the result says what it drops)."""
    return _Reader(STREAM_FORMAT, False).block(item, "content", "assistant", keep, index)


# Which field of a block each kind of delta extends, and the block types it fits.
_DELTAS: dict[str, tuple[str, tuple[str, ...]]] = {
    "text_delta": ("text", ("text",)),
    "thinking_delta": ("thinking", ("thinking",)),
    "input_json_delta": ("partial_json", ("tool_use", "server_tool_use", "mcp_tool_use")),
}
_TOOL_TYPES = _DELTAS["input_json_delta"][1]
# The block types each kind of delta fits.
_FITS = {kind: fits for kind, (_, fits) in _DELTAS.items()}
_FITS.update(signature_delta=("thinking",), citations_delta=("text",))
# The fields of a starting block that must be text when given.
_TEXT_FIELDS = {
    "text": ("text",),
    "thinking": ("thinking", "signature"),
    "tool_use": ("id", "name"),
    "redacted_thinking": ("data",),
}
_KNOWN = frozenset(
    {"message_start", "message_delta", "message_stop"}
    | {f"content_block_{step}" for step in ("start", "delta", "stop")}
)


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
        "_growing",
        "_message",
        "_open",
        "_parts",
        "_state",
        "_stopped",
    )
    _FORMAT = STREAM_FORMAT
    _EVENT_TYPES = _KNOWN
    _LAST = "message_stop"
    _ONE_ID = True

    def __init__(self) -> None:
        super().__init__()
        self._message: dict[str, Any] | None = None
        self._blocks: list[dict[str, Any]] = []
        # The open block's index and the pieces of its growing field, joined when it stops.
        self._open: int | None = None
        self._parts: list[str] = []
        self._delta_seen = False
        self._stopped = False
        # The partial message, built a block at a time: the stopped blocks converted (how
        # many), their provider state, and the message's metadata and id.
        self._done: list[dict[str, Any]] = []
        self._converted = 0
        self._state: dict[str, Any] = {}
        self._envelope: tuple[dict[str, Any] | None, str | None] | None = None
        # The open block's last delta type and field: the next such delta takes the quick way.
        self._growing: tuple[str, str] | None = None

    def _take(self, event: dict[str, Any], index: int) -> None:
        kind = event.get("type")
        if kind == "content_block_delta":
            growing = self._growing
            delta = event.get("delta")
            if growing is not None and type(delta) is dict and delta.get("type") == growing[0]:
                # The next piece of the open block, of the kind the last delta was: taken
                # with the fewest checks that still catch a delta out of its place
                # (bench streams.recorded, Anthropic rows: one call fewer per delta).
                piece = delta.get(growing[1])
                if (
                    type(piece) is str
                    and (piece.isascii() or clean_text(piece))
                    and event.get("index") == self._open
                ):
                    self._parts.append(piece)
                    return
            self._delta(event, index)
            return
        if kind == "ping":
            return
        self._growing = self._grows = None
        if kind == "error":
            error = event.get("error")
            message = error.get("message", error) if isinstance(error, dict) else error
            self._no(index, "error.message", message, "the API ended the stream with an error")
        if type(kind) is not str or kind not in _KNOWN:
            self._refuse_foreign(event, index)
            if type(kind) is not str or not kind:
                self._no(index, "type", kind, "an Anthropic stream event has a `type`")
            # The API may add event types (its versioning policy says clients tolerate
            # them): the event is passed over and said.
            self._lose(f"events[{index}]", f"{kind!r} event", "agentmsg does not know this event")
            return
        if self._stopped:
            self._no(index, "type", kind, "it comes after message_stop")
        if kind == "message_start":
            self._begin(event, index)
            return
        if self._message is None:
            self._no(index, "type", kind, "the stream starts with message_start")
        if kind == "content_block_start":
            self._start(event, index)
        elif kind == "content_block_stop":
            given, number = event.get("index"), self._open
            if given != number or number is None:
                why = (
                    f"content block {given} had stopped already: a duplicated event"
                    if type(given) is int and 0 <= given < len(self._blocks)
                    else "no content block of that index is open"
                )
                self._no(index, "index", given, why)
            self._close(index)
        elif kind == "message_delta":
            if self._delta_seen:
                self._no(index, "type", kind, "a second message_delta: a duplicated event")
            delta = event.get("delta") or {}
            usage = event.get("usage") or {}
            if not isinstance(delta, dict):
                self._no(index, "delta", delta, "it must be an object")
            self._check_usage(usage, index, "usage")
            for key in ("stop_reason", "stop_sequence"):
                self._need_text(index, f"delta.{key}", delta.get(key))
            self._need_json(index, "", event)  # the delta and usage are kept
            if self._open is not None:  # cut by max_tokens: the block gets no stop
                self._close(index, cut=True)
            message = self._message
            message.update((key, value) for key, value in delta.items() if value is not None)
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
                self._close(index, cut=True)
            self._stopped = True

    def _begin(self, event: dict[str, Any], index: int) -> None:
        message = event.get("message")
        if self._message is not None:
            self._no(index, "type", "message_start", "a second message_start: another stream's")
        if not isinstance(message, dict):
            self._no(index, "message", message, "it must be an object")
        content = message.get("content") or []
        if not isinstance(content, list):
            self._no(index, "message.content", content, "it must be a list")
        for position, block in enumerate(content):
            if not isinstance(block, dict) or type(block.get("type")) is not str:
                why = "it must be an object with a `type`"
                self._no(index, f"message.content[{position}]", block, why)
        self._need_json(index, "message", message)
        usage = message.get("usage")
        self._check_usage(usage, index, "message.usage")
        for key in ("id", "model", "stop_reason"):
            self._need_text(index, f"message.{key}", message.get(key))
        if message.get("role") not in (None, "assistant"):
            self._no(index, "message.role", message["role"], "a reply is 'assistant'")
        message = dict(message)
        self._blocks = list(content)
        if isinstance(usage, dict):
            message["usage"] = dict(usage)
        self._message = message
        self._envelope = None

    def _check_usage(self, usage: Any, index: int, path: str) -> None:
        if usage is not None and not isinstance(usage, dict):
            self._no(index, path, usage, "it must be an object")
        for key in ("input_tokens", "output_tokens"):
            value = (usage or {}).get(key)
            if value is not None and (type(value) is not int or value < 0):
                self._no(index, f"{path}.{key}", value, "it must be an integer >= 0")

    def _start(self, event: dict[str, Any], index: int) -> None:
        number = event.get("index")
        blocks = self._blocks
        if self._open is not None:
            self._no(index, "index", number, f"content block {self._open} is still open")
        if self._delta_seen:
            self._no(index, "type", "content_block_start", "it comes after message_delta")
        if type(number) is not int or number != len(blocks):  # -0.0 == 0, but no index
            self._out_of_order(index, "index", number, len(blocks), "content block", "had started")
        block = event.get("content_block")
        if not isinstance(block, dict) or type(block.get("type")) is not str:
            self._no(index, "content_block", block, "it must be an object with a `type`")
        kind = block["type"]
        for field in _TEXT_FIELDS.get(kind, ()):
            self._need_text(index, f"content_block.{field}", block.get(field))
        if kind == "tool_use":
            # The open call shows in the partial Msg as it starts: its id and name first.
            for field in ("id", "name"):
                value = block.get(field)
                if type(value) is not str or not value:
                    why = f"a tool_use block starts with its {field}"
                    self._no(index, f"content_block.{field}", value, why)
        self._need_json(index, "content_block", block)
        if kind == "tool_use" and not isinstance(block.get("input", {}), dict):
            self._no(index, "content_block.input", block["input"], "it must be an object")
        # A tool's pieces make its whole input (the start holds an empty one).
        start = None if kind in _TOOL_TYPES else block.get("text" if kind == "text" else "thinking")
        self._parts = [start] if type(start) is str and start else []
        block = dict(block)
        if type(block.get("citations")) is list:
            block["citations"] = list(block["citations"])  # grown by citations_delta
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
            self._no(index, "index", number, why)
        delta = event.get("delta")
        if not isinstance(delta, dict):
            self._no(index, "delta", delta, "it must be an object")
        kind = delta.get("type")
        if type(kind) is not str:
            self._no(index, "delta.type", kind, "a delta has a `type`")
        block = self._blocks[number]
        entry = _DELTAS.get(kind)
        self._growing = None
        fits = _FITS.get(kind)
        if fits is not None and block["type"] not in fits:
            self._no(index, "delta.type", kind, f"block {number} is a {block['type']}")
        if entry is not None:
            field = entry[0]
            self._parts.append(self._need_text(index, f"delta.{field}", delta.get(field), False))
            self._growing = (kind, field)  # the next such delta may take the quick way
            return
        self._grows = None
        if kind == "signature_delta":
            block["signature"] = self._need_text(
                index, "delta.signature", delta.get("signature"), False
            )
        elif kind == "citations_delta":
            citation = delta.get("citation")
            if not isinstance(citation, dict):
                self._no(index, "delta.citation", citation, "it must be an object")
            self._need_json(index, "delta.citation", citation)
            citations = block.get("citations")
            if type(citations) is not list:
                citations = block["citations"] = []
            citations.append(citation)
        else:
            # A new kind of delta (compaction_delta): its text fields grow the block's,
            # the rest replace them; the conversion says what it cannot carry.
            self._need_json(index, "delta", delta)
            for key, value in delta.items():
                if key == "type" or value is None:
                    continue
                old = block.get(key)
                block[key] = old + value if type(old) is str and type(value) is str else value

    def _close(self, index: int, cut: bool = False) -> None:
        """Close the open block, its pieces joined in; a reply *cut* short says its tool
        input so far when it is not whole JSON (otherwise such input is refused)."""
        number = self._open
        assert number is not None  # callers check it
        block = dict(self._blocks[number])
        kind = block["type"]
        text = "".join(self._parts)
        if kind in _TOOL_TYPES and text:
            try:
                block["input"] = json.loads(text)
            except (ValueError, RecursionError):
                if not cut:
                    why = f"the input_json_delta pieces of block {number} do not make JSON"
                    self._no(index, "", text, why)
                why = f"the reply stopped before its input was whole JSON; it was {show(text)}"
                self._lose(f"content[{number}].input", "cut tool input", why)
            else:
                # JSON text may still hold what no message can (a lone surrogate's escape).
                self._need_json(index, f"content[{number}].input", block["input"])
        elif kind == "text" or kind == "thinking":
            block[kind] = text
        self._blocks[number] = block
        self._open = None
        self._parts = []

    def _ended(self) -> bool:
        return self._stopped

    def _snapshot(self) -> dict[str, Any] | None:
        message = self._message
        if message is None:
            return None
        blocks, number = self._blocks, self._open
        kind = None if number is None else blocks[number]["type"]
        if kind == "text" or kind == "thinking":  # the open block is the last
            blocks = [*blocks[:-1], {**blocks[-1], kind: "".join(self._parts)}]
        return {**message, "content": blocks}

    def _built(self) -> Msg | None:
        message = self._message
        if message is None:
            return None
        if self._envelope is None:
            # Converted with no blocks: the metadata and the id, and nothing said.
            made = from_anthropic({**message, "content": []}).messages[0]
            metadata = made.to_dict()["metadata"]
            if metadata is not None:
                metadata.pop(STATE_KEY, None)
            self._envelope = (metadata, made.invocation_id)
        metadata, invocation_id = self._envelope
        # The stopped blocks not yet converted, each converted once.
        done, state, number = self._done, self._state, self._open
        stopped = len(self._blocks) - (number is not None)
        for position in range(self._converted, stopped):
            keep: dict[str, Any] = {}
            block = _shown_block(self._blocks[position], keep, len(done))
            if block is not None:
                state.update(keep)
                done.append(block)
        self._converted = stopped
        content = list(done)
        if number is not None:
            # The open block as converted (a tool call shows its input text so far), and
            # the frame: the field its pieces fill (None: they do not show).
            block, text = self._blocks[number], joined(self._parts)
            kind = block["type"]
            field = {"text": "text", "thinking": "thinking", "tool_use": "raw_input"}.get(kind)
            if kind == "text" or kind == "thinking":
                block = {**block, kind: text}
            kept: dict[str, Any] = {}
            shown = _shown_block(block, kept, len(done))
            if shown is not None:
                state = {**state, **kept}
                if kind == "tool_use" and text:
                    shown["raw_input"] = text
                content.append(shown)
            if field is None:
                self._grows = (content[:], {}, None, self._parts)
            elif shown is not None and shown.get(field) == text:
                rest = {key: value for key, value in shown.items() if key != field}
                self._grows = (content[:-1], rest, field, self._parts)
        if state:
            metadata = {**(metadata or {}), STATE_KEY: {STATE_FORMAT: dict(state)}}
        return trusted_msg(content, metadata, invocation_id)

    def _shown(self, msg: Msg) -> Msg:
        # An open tool call shows its input text so far, as the other formats' partial
        # messages do (its input is JSON only once the block stops).
        text = "".join(self._parts)
        block = self._blocks[self._open] if self._open is not None else None
        content = msg.content
        if not text or block is None or block["type"] != "tool_use" or isinstance(content, str):
            return msg
        shown = [
            {**item, "raw_input": text}
            if item["type"] == "tool_use" and item["id"] == block.get("id")
            else item
            for item in content
        ]
        return type(msg)(msg.name, shown, msg.role, msg.metadata, None, msg.invocation_id)  # type: ignore[arg-type]

    def _convert(self, response: dict[str, Any], strict: bool) -> Parsed:
        return from_anthropic(response, strict=strict)
