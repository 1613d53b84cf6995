"""OpenAI Responses: ``input`` items both ways, and a streamed reply's events back into
one ``Response`` (:class:`OpenAIResponsesStream`)."""

from __future__ import annotations

from typing import Any

from .._blocks import MEDIA_KINDS
from .._message import Msg
from .._validate import label, show
from ._common import (
    DEFAULT_NAMES,
    STATE_KEY,
    TOOL_RESULTS_NAME,
    CallIds,
    Conversion,
    Parsed,
    Reader,
    Writer,
    duplicate_why,
    repeated_id_why,
)
from ._stream import Stream, clean_text, trusted_msg

__all__ = ["OpenAIResponsesStream", "from_openai_responses", "to_openai_responses"]

FORMAT = "Responses"
STATE_FORMAT = "openai_responses"


# -- to ----------------------------------------------------------------------------------


def to_openai_responses(messages: Any, *, strict: bool = False) -> Conversion:
    """Convert a conversation to the ``input`` items of an OpenAI Responses request.

    {writer args}

    Returns:
        A :class:`~agentmsg.Conversion` whose payload holds ``input``, with what could
        not be carried as it was.

    {writer raises}

    Messages become ``message`` items, tool calls ``function_call`` items and tool
    results ``function_call_output`` items, whose output may hold images. Responses has
    no sender names, and takes no audio or video. A thinking block becomes a reasoning
    item with the id the API gave it, which :func:`from_openai_responses` keeps in the
    message's metadata; without one, it cannot be sent. See :ref:`provider-formats`.

    Example:
        >>> from agentmsg import Msg, to_openai_responses
        >>> to_openai_responses([Msg("user", "Hi", "user")]).payload
        {'input': [{'type': 'message', 'role': 'user', 'content': 'Hi'}]}
    """
    writer = _Writer(FORMAT, strict)
    results_only = writer.pair(writer.start(messages))
    previous_role = ""
    for index, msg in enumerate(writer.conversation):
        role = msg.role
        content: Any = msg.content
        results = results_only[index]
        kind = "tools" if results else role
        if kind == previous_role and kind in ("assistant", "tools"):
            thing = "message right after another of the same kind"
            why = (
                "Responses input is a flat list of items; consecutive assistant items, and "
                "consecutive tool outputs, come back as one message"
            )
            writer.change(f"messages[{index}]", thing, "merged with the one before", why)
        previous_role = kind
        writer.name(msg, index, TOOL_RESULTS_NAME if results else DEFAULT_NAMES[role])
        if role == "assistant":
            writer.assistant(msg, content, index)
        elif isinstance(content, str):
            writer.out.append({"type": "message", "role": role, "content": content})
        else:
            writer.user_or_system(msg, content, index)
    return Conversion({"input": writer.out}, tuple(writer.losses))


#: The rules of :ref:`rules-openai-responses` that the writer enforces, as Loss texts.
UNANSWERED = "Responses refuses a function call without a function call output later in the input"
ORPHAN = "Responses takes a function call output only after the function call with its id"
DUPLICATE = duplicate_why(FORMAT)
NAMED_ONLY_BY_ID = (
    "a Responses function call output names only the call id, and the tool call with that "
    "id names another tool"
)
REPEATED_ID = repeated_id_why(FORMAT)
MAX_ID = 64
LONG_ID = (
    f"Responses takes call ids of {MAX_ID} characters at most; the call's results follow "
    "the new id, and they come back with it"
)
NO_ID = (
    "a Responses reasoning item needs the id the API gave it, and this message's metadata "
    "keeps none for it"
)
ITEM_ID_AFTER_REASONING = (
    "Responses takes the id of an item after the reasoning item it follows, and once in the "
    "input; that reasoning item was not sent or the id went before"
)
SENT_BEFORE = (
    "Responses refuses two input items with one id, and a reasoning item with this one was "
    "sent before; the item after it goes without its id"
)
NOT_FOLLOWED = (
    "a Responses reasoning item must be followed by the item it belongs to, sent with the "
    "id the API gave that item, and nothing with a kept id follows it here"
)


class _Writer(Writer):
    """The Responses input items of one conversation, and the report of what they cost.

    A result may come any number of messages after its call, and a call without one is
    dropped where it stands, so :meth:`pair` looks ahead: ``answers`` maps each result
    (message index, block position) to the call it answers, the oldest without a result
    of the last message with calls of its id; ``shared`` the results so paired among calls
    sharing an id, with how many. ``sent`` is the id each call is sent with (by ``ids``),
    ``calls`` the tool of each id sent; calls after ``last_other`` (the last message not
    tool results) wait for their outputs. ``state``, ``index``: the assistant message
    being written."""

    __slots__ = (
        "answered",
        "answers",
        "calls",
        "ids",
        "index",
        "item_ids",
        "last_other",
        "sent",
        "shared",
        "state",
    )

    def __init__(self, format: str, strict: object) -> None:
        Writer.__init__(self, format, strict)
        self.calls: dict[str, str] = {}
        self.ids = CallIds(REPEATED_ID, None, LONG_ID, MAX_ID)
        self.sent: dict[tuple[int, int], str] = {}
        self.item_ids: set[str] = set()  # the ids of the items sent with theirs
        self.answers: dict[tuple[int, int], tuple[int, int]] = {}
        self.answered: set[tuple[int, int]] = set()
        self.shared: dict[tuple[int, int], int] = {}
        self.last_other = -1
        self.state: dict[str, Any] = {}
        self.index = 0

    def pair(self, conversation: list[Msg]) -> list[bool]:
        """Pair each result with its call; return which messages are tool results."""
        answers, shared = self.answers, self.shared
        # call id -> [message index, how many calls of that message have the id, the
        # positions of those still without a result...], for the last message with one
        latest: dict[str, list[int]] = {}
        results_only = []
        for index, msg in enumerate(conversation):
            content: Any = msg.content
            only = type(content) is not str and bool(content)
            if type(content) is not str:
                for position, block in enumerate(content):
                    kind = block["type"]
                    if kind == "tool_result":
                        entry = latest.get(block["id"])
                        if entry is not None and len(entry) > 2:
                            answers[index, position] = (entry[0], entry.pop(2))
                            if entry[1] > 1:
                                shared[index, position] = entry[1]
                        continue
                    if kind == "tool_use":
                        entry = latest.get(block["id"])
                        if entry is None or entry[0] != index:
                            latest[block["id"]] = [index, 1, position]
                        else:
                            entry[1] += 1
                            entry.append(position)
                    only = False
            if not only:
                self.last_other = index
            results_only.append(only)
        self.answered = set(answers.values())
        self.ids.reserve(latest)
        return results_only

    def assistant(self, msg: Any, content: Any, index: int) -> None:
        """The items of an assistant message: reasoning, messages and function calls.

        An item is sent with the id the API gave it (kept in the provider state) when it
        follows a reasoning item, which the API pairs with it by that id; a reasoning item
        with nothing to pair with is dropped.
        """
        state = self.state = self.kept(msg, STATE_FORMAT)
        self.index = index
        if not state and (
            type(content) is str
            or all(block["type"] == "text" and len(block) == 2 for block in content)
        ):
            # the common case, with no ids to pair: one message item per text
            texts = [content] if type(content) is str else [block["text"] for block in content]
            for text in texts or [""]:
                self.out.append({"type": "message", "role": "assistant", "content": text})
            return
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        items: list[tuple[int, dict[str, Any]]] = []  # (position, item)
        results = []
        for position, block in enumerate(content):
            path = f"messages[{index}].content[{position}]"
            kind = block["type"]
            if kind == "tool_result":
                results.append((position, block))
                continue
            item = _ASSISTANT_ITEMS.get(kind, _Writer.other)(self, block, path, position)
            if item is not None:
                items.append((position, item))
        if not content:
            self.out.append({"type": "message", "role": "assistant", "content": ""})
        if not state:  # no ids kept: no reasoning item is sent, and nothing to pair
            self.out.extend(item for _, item in items)
            items = []
        # The items after a reasoning item sent keep their ids (the reasoning item's
        # response gave them); after one not sent, an item's id would name a reasoning
        # item the input lacks, and goes (reported), as an id sent before does.
        reasoning = ""  # "sent" or "dropped": what became of the last reasoning item
        last_id = None  # the id of the last item sent with its id
        reported: set[str] = set()
        for at, (position, item) in enumerate(items):
            path = f"messages[{index}].content[{position}]"
            if item["type"] == "reasoning":
                following = items[at + 1][1] if at + 1 < len(items) else None
                reasoning = "dropped"
                if following is None or following["type"] == "reasoning" or "id" not in following:
                    self.drop(path, "thinking block", NOT_FOLLOWED, content[position])
                    continue
                if item["id"] in self.item_ids:
                    self.drop(path, "thinking block sent before", SENT_BEFORE, content[position])
                    continue
                self.out.append(item)
                self.item_ids.add(item["id"])
                reasoning, last_id = "sent", None
                continue
            item_id = item.get("id")
            if (
                item_id is not None
                and item_id != last_id
                and (reasoning != "sent" or item_id in self.item_ids)
            ):
                item = _without_id(item)
                if reasoning and item_id not in reported:
                    reported.add(item_id)
                    what = f"item id {item_id!r}"
                    self.change(f"{path}.id", what, "not sent", ITEM_ID_AFTER_REASONING)
            previous = self.out[-1] if self.out else None
            if (
                last_id is not None
                and item["type"] == "message"
                and previous is not None
                and previous.get("id") == item.get("id")
            ):
                previous["content"].extend(item["content"])  # parts of one output message
            else:
                self.out.append(item)
            last_id = item.get("id")
            if last_id is not None:
                self.item_ids.add(last_id)
        if results:
            self.tool_message(msg, index)
            self.outputs(results, index)

    # -- the items of an assistant's blocks (see _ASSISTANT_ITEMS) ------------------------

    def text(self, block: dict[str, Any], path: str, position: int) -> Any:
        if len(block) != 2:  # a signature beside its type and text
            self.signature(block, path)
        item_id = self.field(self.state, position, "id") if self.state else None
        if item_id is None:
            return {"type": "message", "role": "assistant", "content": block["text"]}
        text = {"type": "output_text", "text": block["text"], "annotations": []}
        status = self.field(self.state, position, "status") or "completed"
        return {
            "type": "message",
            "role": "assistant",
            "id": item_id,
            "status": status,
            "content": [text],
        }

    def tool_use(self, block: dict[str, Any], path: str, position: int) -> Any:
        if len(block) != 4:  # raw input or a signature beside type, id, name and input
            if "raw_input" in block:
                self.raw_input(block, path, True)
            self.signature(block, path)
        index = self.index
        if (index, position) not in self.answered and index < self.last_other:
            self.drop(path, "tool call without a tool result after it", UNANSWERED, block)
            return None
        sent = block["id"]
        if not self.ids.own(sent):
            sent = self.ids.sent(self, sent, f"{path}.id")
        self.calls[sent] = block["name"]
        self.sent[index, position] = sent
        arguments = self.arguments_text(block)
        item = {"type": "function_call", "call_id": sent, "name": block["name"]}
        item["arguments"] = arguments
        item_id = self.field(self.state, position, "id") if self.state else None
        if item_id is not None:  # the id the API gave the item, and its status
            item["id"] = item_id
            status = self.field(self.state, position, "status")
            if status is not None:
                item["status"] = status
        return item

    def thinking(self, block: dict[str, Any], path: str, position: int) -> Any:
        self.signature(block, path)
        state = self.state
        reasoning_id = self.field(state, position, "id")
        if reasoning_id is None:
            self.drop(path, "thinking block", NO_ID, block)
            return None
        text = block["thinking"]
        parts = [{"type": "summary_text", "text": text}] if text else []
        item: dict[str, Any] = {"type": "reasoning", "id": reasoning_id, "summary": parts}
        if self.field(state, position, "text_in") == "content":
            item["summary"] = []
            item["content"] = [{"type": "reasoning_text", "text": text}] if text else []
        entry = state.get(str(position))
        parts_kept = entry.get("summary") if isinstance(entry, dict) else None
        if (
            "content" not in item
            and isinstance(parts_kept, list)
            and all(type(part) is str for part in parts_kept)
            and "\n\n".join(parts_kept) == text
        ):
            # the summary's parts as the API gave them, joined in the thinking block
            item["summary"] = [{"type": "summary_text", "text": part} for part in parts_kept]
        for key in ("encrypted_content", "status"):
            value = self.field(state, position, key)
            if value is not None:
                item[key] = value
        return item

    def other(self, block: dict[str, Any], path: str, position: int) -> Any:
        what = f"{block['type']} block in an assistant message"
        self.drop(path, what, "Responses assistant messages hold text only", block)
        return None

    # -- user and system messages, tool outputs -------------------------------------

    def user_or_system(self, msg: Any, content: Any, index: int) -> None:
        role = msg.role
        parts: list[dict[str, Any]] = []
        results = []
        for position, block in enumerate(content):
            kind = block["type"]
            path = f"messages[{index}].content[{position}]"
            if kind == "text":
                self.signature(block, path)
                parts.append({"type": "input_text", "text": block["text"]})
            elif kind == "tool_result":
                results.append((position, block))
            elif kind == "image" and role != "system":
                url = self.image_url(block, path)
                if url is not None:
                    parts.append({"type": "input_image", "image_url": url, "detail": "auto"})
            elif kind in MEDIA_KINDS:
                why = (
                    "Responses system messages hold text only"
                    if kind == "image"
                    else f"Responses messages take no {kind}"
                )
                self.drop(path, f"{kind} block", why, block)
            elif kind == "thinking":
                why = "Responses takes reasoning from the model only"
                self.drop(path, "thinking block", why, block)
            else:
                why = "Responses tool calls come from the assistant only"
                self.drop(path, f"tool call in a {role} message", why, block)
        if results:
            self.tool_message(msg, index)
            self.outputs(results, index)
        if parts or not content:
            self.out.append({"type": "message", "role": role, "content": parts})

    def outputs(self, results: list[tuple[int, Any]], index: int) -> None:
        for position, block in results:
            path = f"messages[{index}].content[{position}]"
            call = self.answers.get((index, position))
            sent_id = None if call is None else self.sent.get(call)
            if sent_id is None:
                if call is None and block["id"] in self.ids.reserved:
                    # every call of the last message with this id has its result
                    self.drop(path, "second tool result for one tool call", DUPLICATE, block)
                else:
                    self.drop(path, "tool result without its tool call before it", ORPHAN, block)
                continue
            count = self.shared.get((index, position)) if self.shared else None
            if count is not None:
                self.ambiguous(block["id"], count, sent_id, f"{path}.id")
            if self.calls[sent_id] != block["name"]:
                self.tool_name(block, path, self.calls[sent_id], NAMED_ONLY_BY_ID)
            sent = block["output"]
            if type(sent) is not str:
                sent = self.output(block, path, self.result_part)
            self.out.append({"type": "function_call_output", "call_id": sent_id, "output": sent})

    def result_part(self, item: dict[str, Any], path: str) -> Any:
        """The part of a tool result's output block, or None (reported)."""
        if item["type"] == "text":
            return {"type": "input_text", "text": item["text"]}
        if item["type"] == "image":
            url = self.image_url(item, path)
            return None if url is None else {"type": "input_image", "image_url": url}
        what = f"{item['type']} block in a tool result"
        why = "Responses function call outputs hold text, images and files"
        self.drop(path, what, why, item)
        return None

    def image_url(self, block: dict[str, Any], path: str) -> str | None:
        media = self.media(block, path)
        if media is None or media.form != "base64":
            return None if media is None else media.data
        why = "Responses takes PNG, JPEG, GIF and WebP images"
        if not self.image_type(block, path, media, why):
            return None
        return media.data_url()


def _without_id(item: dict[str, Any]) -> dict[str, Any]:
    """An item without the id the API gave it (and the message in its input shape)."""
    if item["type"] == "message":
        return {"type": "message", "role": "assistant", "content": item["content"][0]["text"]}
    return {key: value for key, value in item.items() if key not in ("id", "status")}


_ASSISTANT_ITEMS = {
    "text": _Writer.text,
    "tool_use": _Writer.tool_use,
    "thinking": _Writer.thinking,
}


# -- from --------------------------------------------------------------------------------

_MESSAGE_KEYS = frozenset({"type", "role", "content", "id", "status", "phase"})
_CALL_KEYS = frozenset({"type", "call_id", "name", "arguments", "id", "status"})
_OUTPUT_KEYS = frozenset({"type", "call_id", "output", "id", "status", "name"})
_REASONING_KEYS = frozenset({"type", "id", "summary", "content", "status", "encrypted_content"})


def from_openai_responses(data: Any, *, strict: bool = False) -> Parsed:
    """Read messages from OpenAI Responses data.

    Args:
        data: A request payload (a dict with ``input`` and maybe ``instructions``), a
            list of input items, or a response: a ``Response`` of the ``openai``
            package or its JSON as a dict.
        strict: Raise instead of reporting something dropped.

    {reader returns}

    Consecutive assistant items (messages, function calls, reasoning) make one assistant
    message; consecutive function call outputs one message of tool results with role
    ``"system"``. A reasoning item becomes one thinking block, and its id and encrypted
    content go to the message's metadata, under ``provider_state``, for
    :func:`to_openai_responses` to send back. A response's id is
    the messages' ``invocation_id``; their metadata holds ``model``, ``stop_reason`` and
    ``token_usage``.
    """
    reader = _Reader(FORMAT, strict)
    data = reader.plain(data)
    turns = reader.turns
    if isinstance(data, list):
        items, base = data, "input"
    elif isinstance(data, dict) and "output" in data:
        reader.envelope(data)
        items, base = reader.array(data["output"], "output"), "output"
    elif isinstance(data, dict) and "input" in data:
        instructions = data.get("instructions")
        if instructions is not None:
            text = reader.text(instructions, "instructions")
            turns.add("system", text, "system", "instructions")
        items, base = data["input"], "input"
        if type(items) is str:
            turns.add("user", items, "user", "input")
            return reader.parsed()
        reader.array(items, "input")
    else:
        shapes = "a request payload with `input`, a list of input items or a response with "
        reader.refuse(data, shapes + "`output`")
    for index, item in enumerate(items):
        path = f"{base}[{index}]"
        item = reader.obj(item, path)
        kind = item.get("type", "message")
        if kind == "message":
            reader.message(item, path)
        elif kind == "function_call":
            turns.flush(path)
            reader.extra(item, _CALL_KEYS, path)
            call_id = reader.ident_at(item, "call_id", path)
            name = reader.ident_at(item, "name", path)
            arguments = reader.arguments(item.get("arguments", "{}"), f"{path}.arguments")
            reader.only_text = None
            reader.blocks.append(reader.call(call_id, name, *arguments))
            reader.keep_id(item, path, len(reader.blocks) - 1)
        elif kind == "reasoning":
            turns.flush(path)
            reader.only_text = None
            reader.reasoning(item, path)
        elif kind == "function_call_output":
            reader.flush(path)
            reader.extra(item, _OUTPUT_KEYS, path)
            reader.drop_id(item, path)
            call_id = reader.ident_at(item, "call_id", path)
            name = reader.result_name(call_id, item.get("name"), f"{path}.call_id")
            output = reader.key(item, "output", path)
            if type(output) is not str:
                output = reader.parts(output, f"{path}.output")
            reader.result(call_id, name, output)
        else:
            reader.unknown(path, f"{label(kind)} item", item)
    reader.flush(base)
    turns.flush(base)
    if base == "output" and not turns.messages:
        # A reply whose every item was dropped still brings its id, usage and status.
        turns.add("assistant", [], "assistant", base)
    return reader.parsed()


class _Reader(Reader):
    """Reads Responses requests and responses: ``blocks`` are those of the assistant turn
    being read (items until the next message), ``state`` their provider state and
    ``only_text`` the text of a turn that is one string message so far."""

    __slots__ = ("blocks", "only_text", "state")

    def __init__(self, format: str, strict: object) -> None:
        Reader.__init__(self, format, strict)
        self.blocks: list[Any] = []
        self.only_text: str | None = None
        self.state: dict[str, Any] = {}

    def message(self, item: dict[str, Any], path: str) -> None:
        roles = ("user", "system", "developer", "assistant")
        role = self.choice(item.get("role"), f"{path}.role", roles)
        self.extra(item, _MESSAGE_KEYS, path)
        if item.get("phase") is not None:
            self.no_place(f"{path}.phase", "message phase", item["phase"])
        if role == "assistant":
            self.turns.flush(path)
            content = self.key(item, "content", path)
            first = len(self.blocks)
            if type(content) is str:
                if not self.blocks and self.only_text is None:
                    self.only_text = content
                self.blocks.append({"type": "text", "text": content})
            else:
                self.only_text = None
                self.blocks.extend(self.parts(content, f"{path}.content"))
            self.keep_id(item, path, first)
            return
        self.flush(path)
        self.drop_id(item, path)
        if role == "developer":
            role = self.developer(path)
        content = self.key(item, "content", path)
        if type(content) is not str:
            content = self.parts(content, f"{path}.content")
        self.turns.add(DEFAULT_NAMES[role], content, role, path)

    def keep_id(self, item: dict[str, Any], path: str, first: int) -> None:
        """Keep the id (and status) of an assistant item for its blocks from *first* on: the
        API pairs a reasoning item with the item after it by that id."""
        if item.get("id") is None:
            return
        kept = {"id": self.ident_at(item, "id", path)}
        if item.get("status") is not None:
            kept["status"] = self.text_at(item, "status", path)
        for position in range(first, len(self.blocks)):
            self.state[str(position)] = kept

    def drop_id(self, item: dict[str, Any], path: str) -> None:
        """Report the id and status of an item the API does not pair on (agentmsg keeps
        none)."""
        why = "agentmsg keeps the ids of the assistant's items only, which the API pairs on"
        for key in ("id", "status"):
            if item.get(key) is not None:
                self.drop(f"{path}.{key}", f"item {key}", why, item[key])

    def flush(self, path: str) -> None:
        """Add the assistant turn read so far, if any."""
        if not self.blocks:
            return
        single = self.only_text if len(self.blocks) == 1 else None
        content = single if single is not None else self.blocks
        self.turns.add("assistant", content, "assistant", path, (STATE_FORMAT, self.state))
        self.blocks = []
        self.only_text = None
        self.state = {}

    def envelope(self, data: dict[str, Any]) -> None:
        metadata: dict[str, Any] = {}
        if data.get("model") is not None:
            metadata["model"] = self.text(data["model"], "model")
        details = data.get("incomplete_details")
        if isinstance(details, dict) and details.get("reason") is not None:
            metadata["stop_reason"] = self.text(details["reason"], "incomplete_details.reason")
        elif data.get("status") is not None:
            metadata["stop_reason"] = self.text(data["status"], "status")
        if data.get("error"):
            why = "agentmsg's messages have no place for it"
            self.drop("error", "error of a failed response", why, data["error"])
        usage = data.get("usage")
        if usage is not None:
            keys = ("input_tokens", "output_tokens", "total_tokens")
            prompt, completion, total = self.usage(self.obj(usage, "usage"), "usage", keys)
            metadata["token_usage"] = {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": total,
            }
        self.begin(data, metadata)

    def reasoning(self, item: dict[str, Any], path: str) -> None:
        """One reasoning item as one thinking block, its id kept in the provider state."""
        self.extra(item, _REASONING_KEYS, path)
        texts: dict[str, list[str]] = {}
        for key, part_type in (("summary", "summary_text"), ("content", "reasoning_text")):
            parts = item.get(key)
            texts[key] = []
            if parts is None:
                continue
            for position, part in enumerate(self.array(parts, f"{path}.{key}")):
                here = f"{path}.{key}[{position}]"
                part = self.obj(part, here)
                if part.get("type") != part_type:
                    self.unknown(here, f"{label(part.get('type'))} part", part)
                    continue
                texts[key].append(self.text_at(part, "text", here))
        source = "summary" if texts["summary"] or not texts["content"] else "content"
        if source == "summary" and texts["content"]:
            rule = "agentmsg keeps one thinking block per reasoning item, made of the summary"
            self.drop(f"{path}.content", "reasoning text beside a summary", rule, item["content"])
        several = len(texts[source]) > 1
        if several and (source == "content" or item.get("id") is None):
            thing = f"{len(texts[source])} {source} parts"
            rule = "agentmsg keeps one thinking block per reasoning item"
            self.change(f"{path}.{source}", thing, "joined into one thinking block", rule)
        kept: dict[str, Any] = {}
        if item.get("id") is not None:
            kept["id"] = self.ident(item["id"], f"{path}.id")
            if several and source == "summary":  # the parts go back as they came
                kept["summary"] = texts["summary"]
            for key in ("status", "encrypted_content"):
                if item.get(key) is not None:
                    kept[key] = self.text(item[key], f"{path}.{key}")
            if source == "content":
                kept["text_in"] = "content"
            self.state[str(len(self.blocks))] = kept
        else:
            for key in ("encrypted_content", "status"):
                if item.get(key) is not None:
                    why = "Responses takes reasoning back only with its id"
                    what = f"`{key}` of a reasoning item without an id"
                    self.drop(f"{path}.{key}", what, why, item[key])
        self.blocks.append({"type": "thinking", "thinking": "\n\n".join(texts[source])})

    def parts(self, content: Any, path: str) -> list[Any]:
        blocks: list[Any] = []
        for position, part in enumerate(self.array(content, path)):
            here = f"{path}[{position}]"
            part = self.obj(part, here)
            kind = part.get("type")
            if kind in ("input_text", "output_text"):
                self.extra(part, "type text annotations logprobs", here)
                for key in ("annotations", "logprobs"):
                    if part.get(key):
                        why = "agentmsg's text block has no field for them"
                        self.drop(f"{here}.{key}", key, why, part[key])
                blocks.append({"type": "text", "text": self.text_at(part, "text", here)})
            elif kind == "input_image":
                self.extra(part, "type image_url detail file_id", here)
                self.detail(part.get("detail"), f"{here}.detail")
                url = part.get("image_url")
                if url is None:
                    why = "agentmsg has no source for uploaded files"
                    self.drop(here, "image given by file id", why, part)
                    continue
                url = self.text(url, f"{here}.image_url")
                blocks.append({"type": "image", "source": self.source(url)})
            elif kind == "refusal":
                blocks.append(self.refusal(here, self.text_at(part, "refusal", here)))
            else:
                self.unknown(here, f"{label(kind)} content part", part)
        return blocks


_FINAL = frozenset({"response.completed", "response.incomplete", "response.failed"})
_OPENING = frozenset({"response.in_progress", "response.queued"})
# Text deltas: the list of parts within the item, the part type, its text field, and
# the index field naming the part.
_TEXT_DELTAS: dict[str, tuple[str, str, str, str]] = {
    "response.output_text.delta": ("content", "output_text", "text", "content_index"),
    "response.refusal.delta": ("content", "refusal", "refusal", "content_index"),
    "response.reasoning_summary_text.delta": ("summary", "summary_text", "text", "summary_index"),
    "response.reasoning_text.delta": ("content", "reasoning_text", "text", "content_index"),
}
_TEXT_DONES = {kind.replace(".delta", ".done"): kind for kind in _TEXT_DELTAS}
_TEXT_FIELD = {part: field for _, part, field, _ in _TEXT_DELTAS.values()}
# The events after which the partial message's frame may still hold (see _take).
_KEEPING = frozenset(
    {*_TEXT_DELTAS, *_TEXT_DONES, *_OPENING}
    | {"response.content_part.done", "response.reasoning_summary_part.done"}
)
_FEW_ITEMS = 4  # a partial message of more output items is made an item at a time
_PART_EVENTS = {
    "response.content_part.added": ("content", "content_index", True),
    "response.content_part.done": ("content", "content_index", False),
    "response.reasoning_summary_part.added": ("summary", "summary_index", True),
    "response.reasoning_summary_part.done": ("summary", "summary_index", False),
}


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

    __slots__ = (
        "_converted",
        "_done",
        "_final",
        "_growing",
        "_head",
        "_items",
        "_next",
        "_response",
        "_state",
    )
    _FORMAT = FORMAT
    _TYPE_PREFIX = "response."
    _EVENT_KEYS = frozenset({"sequence_number"})
    _LAST = "response.completed"
    _ONE_ID = True

    def __init__(self) -> None:
        super().__init__()
        self._response: dict[str, Any] | None = None
        # The partial message, built an item at a time: the done items converted (how
        # many), their blocks and provider state, and the response's metadata and id.
        self._converted = 0
        self._done: list[Any] = []
        self._state: dict[str, Any] = {}
        self._head: tuple[dict[str, Any], dict[str, Any] | None, str | None] | None = None
        self._items: list[_Item] = []
        self._final: dict[str, Any] | None = None
        self._next: int | None = None
        # The part whose text the last event grew: its delta event type, output index,
        # index field and index, item id and text pieces (see _take).
        self._growing: tuple[str, int, str, int, Any, list[str]] | None = None

    def _take(self, event: dict[str, Any], index: int) -> None:
        kind = event.get("type")
        growing = self._growing
        if growing is not None and kind == growing[0]:
            # The next delta of the part whose text the last event grew, the most
            # frequent event: taken with the fewest checks that still catch an event of
            # another stream or out of its place (bench streams.recorded, Responses rows:
            # about 2x fewer steps per event than the full check).
            _, open_item, at, part, item_id, pieces = growing
            number = event.get("sequence_number")
            delta = event.get("delta")
            given = event.get("item_id")
            where = event.get("output_index")
            place = event.get(at)
            if (
                type(delta) is str
                and (delta.isascii() or clean_text(delta))
                and (given is None or given == item_id)
                and where == open_item
                and type(where) is int
                and place == part
                and type(place) is int
                and (
                    number is None
                    or (type(number) is int and (number == self._next or self._next is None))
                )
            ):
                pieces.append(delta)
                if number is not None:
                    self._next = number + 1
                return
        self._growing = None
        grows = self._grows
        if type(kind) is not str or kind not in _KEEPING:
            self._grows = None
        number = event.get("sequence_number")
        expected = self._next
        if kind == "error":
            error = event.get("error")
            message = event.get("message")
            if message is None and isinstance(error, dict):
                message = error.get("message", error)
            self._no(index, "message", message, "the API reported an error")
        if type(kind) is not str or not kind.startswith("response."):
            self._refuse_foreign(event, index)
            if type(kind) is not str or not kind:
                self._no(index, "type", kind, "a Responses stream event has a `type`")
        if number is None:
            pass  # the API reference's own examples have none: order is then not checked
        elif type(number) is not int:
            self._no(index, "sequence_number", number, "it must be an integer")
        elif expected is not None and number != expected:
            if number < expected:
                why = f"event {number} had come already: a duplicated or late event"
            else:
                why = f"event {expected} is the next one: an event is missing or out of order"
            self._no(index, "sequence_number", number, why)
        if self._final is not None:
            self._no(index, "type", kind, "it comes after the end of the response")
        if kind not in _TEXT_DELTAS and kind != "response.function_call_arguments.delta":
            # Kept whole (items, parts, the response): checked once, as they come.
            self._need_json(index, "", event)
        if kind in _TEXT_DELTAS:
            self._text_delta(event, index, _TEXT_DELTAS[kind])
        elif kind == "response.function_call_arguments.delta":
            item = self._item(event, index)
            if item.item.get("type") != "function_call":
                self._no(index, "type", kind, "its item is not a function call")
            delta = self._need_text(index, "delta", event.get("delta"), optional=False)
            if item.arguments is None:
                item.arguments = [item.item.get("arguments") or ""]
            item.arguments.append(delta)
        elif kind == "response.created":
            if self._response is not None:
                self._no(index, "type", kind, "a second response.created: another stream's")
            self._response = self._envelope(event, index, kind)
        elif kind in _OPENING:
            # A stream resumed with starting_after begins here, without response.created.
            response = self._envelope(event, index, kind)
            if response != self._response:
                self._grows = None
            self._response = response
        elif self._response is None:
            self._no(index, "type", kind, "the stream starts with response.created")
        elif kind == "response.output_item.added":
            position, count = event.get("output_index"), len(self._items)
            if type(position) is not int or position != count:  # -0.0 == 0, but no index
                self._out_of_order(
                    index, "output_index", position, count, "output item", "was added"
                )
            added = event.get("item")
            if not isinstance(added, dict):
                self._no(index, "item", added, "it must be an object")
            # A function call's argument deltas are added to its text (a tool search
            # call's arguments are an object).
            start = added.get("arguments") if added.get("type") == "function_call" else None
            self._need_text(index, "item.arguments", start)
            self._items.append(_Item(dict(added)))
        elif kind == "response.output_item.done":
            entry = self._item(event, index, "item")
            done = event.get("item")
            if not isinstance(done, dict):
                self._no(index, "item", done, "it must be an object")
            entry.item, entry.texts, entry.arguments, entry.done = done, {}, None, True
        elif kind in _PART_EVENTS:
            self._part(event, index, _PART_EVENTS[kind])
        elif kind in _TEXT_DONES:
            key, _, field, at = _TEXT_DELTAS[_TEXT_DONES[kind]]
            pieces = self._pieces(self._item(event, index), event, index, key, at)
            pieces[:] = [self._need_text(index, field, event.get(field), optional=False)]
            if grows is None or pieces is not grows[3]:
                self._grows = None  # the frame shows the text it grows, as it ends
        elif kind == "response.function_call_arguments.done":
            entry = self._item(event, index)
            arguments = self._need_text(index, "arguments", event.get("arguments"), False)
            entry.arguments = [arguments]
        elif kind in _FINAL:
            self._final = self._envelope(event, index, kind)
        elif kind.startswith("response."):
            if "output_index" in event:
                self._item(event, index)
        else:  # a new kind of event: passed over, and said
            self._lose(f"events[{index}]", f"{kind!r} event", "agentmsg does not know this event")
        if number is not None:
            self._next = number + 1

    def _envelope(self, event: dict[str, Any], index: int, kind: str) -> dict[str, Any]:
        response = event.get("response")
        if not isinstance(response, dict):
            self._no(index, "response", response, f"a {kind} event holds the response")
        for key in ("id", "status", "model"):
            value = response.get(key)
            if value is not None and type(value) is not str:
                self._no(index, f"response.{key}", value, "it must be text")
        output = response.get("output")
        if output is not None and not isinstance(output, list):
            self._no(index, "response.output", output, "it must be a list")
        known = self._response
        if known is not None and response.get("id") != known.get("id"):
            why = f"the stream is {known.get('id')!r}"
            self._no(index, "response.id", response.get("id"), why)
        return response

    def _item(self, event: dict[str, Any], index: int, also: str = "") -> _Item:
        """The open output item the event names by ``output_index`` (and ``item_id``)."""
        position = event.get("output_index")
        items = self._items
        if type(position) is not int or not 0 <= position < len(items):
            self._no(index, "output_index", position, "no output item of that index was added")
        entry = items[position]
        if entry.done:
            self._no(index, "output_index", position, f"output item {position} is done")
        if also:
            holder = event.get(also)
            given = holder.get("id") if isinstance(holder, dict) else None
        else:
            given = event.get("item_id")
        known = entry.item.get("id")
        if given is not None and known is not None and given != known:
            field = "item_id" if not also else f"{also}.id"
            self._no(index, field, given, f"output item {position} is {show(known)}")
        return entry

    def _part(self, event: dict[str, Any], index: int, spec: tuple[str, str, bool]) -> None:
        key, at, added = spec
        entry = self._item(event, index)
        number = event.get(at)
        part = event.get("part")
        parts = entry.item.get(key)
        parts = list(parts) if isinstance(parts, list) else []
        if not isinstance(part, dict) or type(part.get("type")) is not str:
            self._no(index, "part", part, "it must be an object with a `type`")
        if added:
            if type(number) is not int or number != len(parts):
                self._out_of_order(index, at, number, len(parts), "part", "was added")
            parts.append(dict(part))
            field = _TEXT_FIELD.get(part["type"])
            if field is not None:
                start = part.get(field)
                entry.texts[(key, number)] = [start] if type(start) is str and start else []
        else:
            if type(number) is not int or not 0 <= number < len(parts):
                self._no(index, at, number, "no part of that index was added")
            pieces, grows, old = entry.texts.pop((key, number), None), self._grows, parts[number]
            if (
                grows is None
                or pieces is not grows[3]
                or part != {**old, _TEXT_FIELD[old["type"]]: "".join(pieces)}
            ):
                self._grows = None  # the part is not the frame's text alone
            parts[number] = part
        entry.item[key] = parts

    def _pieces(
        self, entry: _Item, event: dict[str, Any], index: int, key: str, at: str
    ) -> list[str]:
        number = event.get(at)
        pieces = entry.texts.get((key, number)) if type(number) is int else None
        if pieces is None:
            self._no(index, at, number, "no open part of that index takes text")
        return pieces

    def _text_delta(
        self, event: dict[str, Any], index: int, spec: tuple[str, str, str, str]
    ) -> None:
        key, part_type, _, at = spec
        entry = self._item(event, index)
        pieces = self._pieces(entry, event, index, key, at)
        delta = self._need_text(index, "delta", event.get("delta"), optional=False)
        if entry.item[key][event[at]].get("type") != part_type:
            self._no(index, "type", event.get("type"), f"its part is no {part_type} part")
        pieces.append(delta)
        grows = self._grows
        if grows is not None and pieces is not grows[3]:
            self._grows = None  # another part's text grew: the frame is not this one's
        # The next deltas of this part may take the quick way.
        kind = event["type"]
        item_id = entry.item.get("id")
        self._growing = (kind, event["output_index"], at, event[at], item_id, pieces)

    def _built(self) -> Msg | None:
        # The frame of the partial message (see Stream.msg) when the part whose text
        # grows is the last part of the last output item, output text or the one
        # reasoning part: then only that text changes from event to event (bench
        # streams.recorded, Responses rows). Few items are converted whole each time
        # (cheaper than an item at a time), many an item at a time (see _along).
        items, growing = self._items, self._growing
        if self._final is not None or self._response is None:
            return None
        made = self._along() if len(items) > _FEW_ITEMS else None
        if growing is None:
            return made
        delta_kind, position, _, number, _, pieces = growing
        entry = items[position]
        key = _TEXT_DELTAS[delta_kind][0]
        parts = entry.item.get(key)
        if entry.done or position != len(items) - 1 or not isinstance(parts, list):
            return made
        if delta_kind == "response.output_text.delta":
            kind = "text"
            if number != len(parts) - 1:
                return made
        elif delta_kind == "response.refusal.delta":
            return made
        else:
            # One reasoning part: the thinking block is its text, and nothing else of
            # the item says the text.
            kind = "thinking"
            other = entry.item.get("content" if key == "summary" else "summary")
            if len(parts) != 1 or (isinstance(other, list) and other):
                return made
        if made is None:
            made = from_openai_responses(self._snapshot()).messages[-1]
        content = made.to_dict()["content"]
        if type(content) is not list or content[-1:] != [{"type": kind, kind: "".join(pieces)}]:
            return made
        self._grows = (content[:-1], {"type": kind}, kind, pieces)
        return made

    def _along(self) -> Msg | None:
        """The response so far converted an output item at a time, each done item once
        (so many items cost no more per read than a few), or None when only the whole
        conversion says it: an item that is not the assistant's alone, or text that
        would make the message a string."""
        response = self._response
        assert response is not None  # the caller checks it
        if self._head is None or self._head[0] is not response:
            # Converted with no items: the metadata and the id.
            made = from_openai_responses({**response, "output": []}).messages[0]
            metadata = made.to_dict()["metadata"]
            if metadata is not None:
                metadata.pop(STATE_KEY, None)
            self._head = (response, metadata, made.invocation_id)
        _, metadata, invocation_id = self._head
        done, state, items = self._done, self._state, self._items
        while self._converted < len(items) and items[self._converted].done:
            if not self._convert_item(items[self._converted].item, done, state):
                return None
            self._converted += 1
        content, state = list(done), dict(state)
        for entry in items[self._converted :]:
            if not self._convert_item(entry.dump(), content, state):
                return None
        if state:
            metadata = {**(metadata or {}), STATE_KEY: {STATE_FORMAT: state}}
        return trusted_msg(content, metadata, invocation_id)

    @staticmethod
    def _convert_item(item: dict[str, Any], blocks: list[Any], state: dict[str, Any]) -> bool:
        """Add the blocks and provider state of one output item converted, its state
        numbered after *blocks*; False when the item does not make assistant blocks."""
        messages = from_openai_responses({"output": [item]}).messages
        if len(messages) != 1 or messages[0].role != "assistant":
            return False
        made = messages[0].to_dict()
        if type(made["content"]) is not list:
            return False
        kept = (made["metadata"] or {}).get(STATE_KEY, {}).get(STATE_FORMAT, {})
        state.update((str(int(at) + len(blocks)), entry) for at, entry in kept.items())
        blocks.extend(made["content"])
        return True

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
