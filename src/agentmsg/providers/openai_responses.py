"""OpenAI Responses: ``input`` items both ways."""

from __future__ import annotations

from collections import deque
from typing import Any

from .._blocks import MEDIA_KINDS
from .._errors import MessageError
from .._validate import (
    check_array,
    check_choice,
    check_key,
    check_name,
    check_object,
    check_str,
    is_block_list,
    show,
)
from ._common import (
    DEFAULT_NAMES,
    IMAGE_TYPES,
    TOOL_RESULTS_NAME,
    CallIds,
    Conversion,
    Parsed,
    Report,
    Turns,
    arguments_input,
    arguments_text,
    data_url,
    duplicate_why,
    media_of,
    messages_in,
    output_text,
    plain,
    repeated_id_why,
    report_ambiguous,
    report_json_output,
    report_local,
    report_raw_input,
    report_signature,
    report_tool_message,
    result_name,
    short_id,
    source_from_url,
    state_field,
    state_of,
)
from ._stream import report_counts

__all__ = ["from_openai_responses", "to_openai_responses"]

FORMAT = "Responses"
STATE_FORMAT = "openai_responses"


# -- to ----------------------------------------------------------------------------------


def to_openai_responses(messages: Any, *, strict: bool = False) -> Conversion:
    """Convert a conversation to the ``input`` items of an OpenAI Responses request.

    Args:
        messages: A list of :class:`~agentmsg.Msg` and role messages, oldest first.
        strict: Raise instead of reporting something dropped.

    Returns:
        A :class:`~agentmsg.Conversion` whose payload holds ``input``, with what could
        not be carried as it was.

    Raises:
        MessageError: The conversation is not a list of messages; in strict mode,
            also when something would be dropped (the text names its path).

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
    conversation = messages_in(messages)
    results_only = writer.start(conversation)
    previous_role = ""
    for index, msg in enumerate(conversation):
        role = msg.role
        content: Any = msg.content
        results = results_only[index]
        kind = "tools" if results else role
        if kind == previous_role and kind in ("assistant", "tools"):
            writer.change(
                f"messages[{index}]",
                "message right after another of the same kind",
                "merged with the one before",
                "Responses input is a flat list of items; consecutive assistant items, and "
                "consecutive tool outputs, come back as one message",
            )
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


class _Writer(Report):
    """The Responses input items of one conversation, and the report of what they cost.

    ``answers`` maps each tool result, as (message index, block position), to the call it
    answers: the oldest call without a result of the last message with calls of its id
    (a result names its call by id only). ``shared`` holds the results paired so among
    calls that share an id, with how many do. ``last_other`` is the index of the last
    message that is not tool results (a call after it waits for its output, and is sent
    as it is). ``ids`` gives each call the id it is sent with, ``sent`` that id by the
    call's (message index, block position), ``calls`` the tool of each id sent.
    """

    __slots__ = (
        "answered",
        "answers",
        "calls",
        "ids",
        "item_ids",
        "last_other",
        "out",
        "sent",
        "shared",
    )

    def __init__(self, format: str, strict: object) -> None:
        Report.__init__(self, format, strict)
        self.out: list[dict[str, Any]] = []
        self.calls: dict[str, str] = {}
        self.ids = CallIds(REPEATED_ID, _short, LONG_ID, MAX_ID)
        self.sent: dict[tuple[int, int], str] = {}
        self.item_ids: set[str] = set()  # the ids of the items sent with theirs
        self.answers: dict[tuple[int, int], tuple[int, int]] = {}
        self.answered: set[tuple[int, int]] = set()
        self.shared: dict[tuple[int, int], int] = {}
        self.last_other = -1

    def start(self, conversation: list[Any]) -> list[bool]:
        """Pair each result with its call; return which messages are tool results."""
        answers = self.answers
        # call id -> (message index, positions of its calls still without a result,
        # how many calls of that message have the id), for the last message with one
        latest: dict[str, tuple[int, deque[int], int]] = {}
        results_only = []
        for index, msg in enumerate(conversation):
            content: Any = msg.content
            only = type(content) is not str and bool(content)
            if type(content) is not str:
                for position, block in enumerate(content):
                    kind = block["type"]
                    if kind == "tool_result":
                        entry = latest.get(block["id"])
                        if entry is not None and entry[1]:
                            call = (entry[0], entry[1].popleft())
                            answers[index, position] = call
                            self.answered.add(call)
                            if entry[2] > 1:
                                self.shared[index, position] = entry[2]
                        continue
                    if kind == "tool_use":
                        entry = latest.get(block["id"])
                        if entry is None or entry[0] != index:
                            latest[block["id"]] = (index, deque((position,)), 1)
                        else:
                            entry[1].append(position)
                            latest[block["id"]] = (index, entry[1], entry[2] + 1)
                    only = False
            if not only:
                self.last_other = index
            results_only.append(only)
        self.ids.reserve(latest)
        return results_only

    def assistant(self, msg: Any, content: Any, index: int) -> None:
        """The items of an assistant message: reasoning, messages and function calls.

        An item is sent with the id the API gave it (kept in the provider state) when it
        follows a reasoning item, which the API pairs with it by that id; a reasoning item
        with nothing to pair with is dropped.
        """
        state = state_of(msg, STATE_FORMAT)
        if not state and (
            type(content) is str
            or all(block["type"] == "text" and len(block) == 2 for block in content)
        ):
            # the common case, with no ids to pair: one message item per text
            texts = [content] if type(content) is str else [block["text"] for block in content]
            for text in texts:
                self.out.append({"type": "message", "role": "assistant", "content": text})
            if not texts:
                self.out.append({"type": "message", "role": "assistant", "content": ""})
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
            item = _ASSISTANT_ITEMS.get(kind, _Writer.other)(
                self, block, path, state, position, index
            )
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
                    self.change(
                        f"{path}.id", f"item id {item_id!r}", "not sent", ITEM_ID_AFTER_REASONING
                    )
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
            report_tool_message(self, msg, index)
            self.outputs(results, index)

    # -- the items of an assistant's blocks (see _ASSISTANT_ITEMS) ------------------------

    def text(
        self, block: dict[str, Any], path: str, state: dict[str, Any], position: int, index: int
    ) -> Any:
        report_signature(self, block, path)
        item_id = state_field(state, position, "id")
        if item_id is None:
            return {"type": "message", "role": "assistant", "content": block["text"]}
        text = {"type": "output_text", "text": block["text"], "annotations": []}
        status = state_field(state, position, "status") or "completed"
        return {
            "type": "message",
            "role": "assistant",
            "id": item_id,
            "status": status,
            "content": [text],
        }

    def tool_use(
        self, block: dict[str, Any], path: str, state: dict[str, Any], position: int, index: int
    ) -> Any:
        if "raw_input" in block:
            report_raw_input(self, block, path, True)
        report_signature(self, block, path)
        if (index, position) not in self.answered and index < self.last_other:
            self.drop(path, "tool call without a tool result after it", UNANSWERED, block)
            return None
        sent = self.ids.sent(self, block["id"], f"{path}.id")
        self.calls[sent] = block["name"]
        self.sent[index, position] = sent
        item = {
            "type": "function_call",
            "call_id": sent,
            "name": block["name"],
            "arguments": arguments_text(block),
        }
        item_id = state_field(state, position, "id")
        if item_id is not None:
            item["id"] = item_id
            status = state_field(state, position, "status")
            if status is not None:
                item["status"] = status
        return item

    def thinking(
        self, block: dict[str, Any], path: str, state: dict[str, Any], position: int, index: int
    ) -> Any:
        report_signature(self, block, path)
        reasoning_id = state_field(state, position, "id")
        if reasoning_id is None:
            self.drop(path, "thinking block", NO_ID, block)
            return None
        text = block["thinking"]
        parts = [{"type": "summary_text", "text": text}] if text else []
        item: dict[str, Any] = {"type": "reasoning", "id": reasoning_id, "summary": parts}
        if state_field(state, position, "text_in") == "content":
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
        encrypted = state_field(state, position, "encrypted_content")
        if encrypted is not None:
            item["encrypted_content"] = encrypted
        status = state_field(state, position, "status")
        if status is not None:
            item["status"] = status
        return item

    def other(
        self, block: dict[str, Any], path: str, state: dict[str, Any], position: int, index: int
    ) -> Any:
        self.drop(
            path,
            f"{block['type']} block in an assistant message",
            "Responses assistant messages hold text only",
            block,
        )
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
                report_signature(self, block, path)
                parts.append({"type": "input_text", "text": block["text"]})
            elif kind == "tool_result":
                results.append((position, block))
            elif kind == "image" and role != "system":
                url = _image_url(self, block, path)
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
                self.drop(
                    path, "thinking block", "Responses takes reasoning from the model only", block
                )
            else:
                self.drop(
                    path,
                    f"tool call in a {role} message",
                    "Responses tool calls come from the assistant only",
                    block,
                )
        if results:
            report_tool_message(self, msg, index)
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
            count = self.shared.get((index, position))
            if count is not None:
                report_ambiguous(self, block["id"], count, sent_id, f"{path}.id")
            name = self.calls[sent_id]
            if name != block["name"]:
                self.drop(
                    f"{path}.name",
                    f"tool name {block['name']!r} of a tool result",
                    "a Responses function call output names only the call id, and the tool "
                    "call with that id names another tool",
                    block["name"],
                )
            output = block["output"]
            if type(output) is str:
                sent: Any = output
            elif is_block_list(output):
                sent = []
                for item_index, item in enumerate(output):
                    item_path = f"{path}.output[{item_index}]"
                    if item["type"] == "text":
                        sent.append({"type": "input_text", "text": item["text"]})
                    elif item["type"] == "image":
                        url = _image_url(self, item, item_path)
                        if url is not None:
                            sent.append({"type": "input_image", "image_url": url})
                    else:
                        self.drop(
                            item_path,
                            f"{item['type']} block in a tool result",
                            "Responses function call outputs hold text, images and files",
                            item,
                        )
                if not sent:
                    sent = ""
            else:
                report_json_output(self, path)
                sent = output_text(output)
            self.out.append({"type": "function_call_output", "call_id": sent_id, "output": sent})


def _short(call_id: str) -> str:
    return short_id(call_id, MAX_ID)


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


def _image_url(report: Report, block: dict[str, Any], path: str) -> str | None:
    media = media_of(block["source"])
    if media.form == "local":
        report_local(report, path, "image block", media.data)
        return None
    if media.form != "base64":
        return media.data
    if media.media_type not in IMAGE_TYPES:
        report.drop(
            path,
            f"{media.media_type} image",
            "Responses takes PNG, JPEG, GIF and WebP images",
            block,
        )
        return None
    return data_url(media.media_type, media.data)


# -- from --------------------------------------------------------------------------------

_MESSAGE_KEYS = frozenset({"type", "role", "content", "id", "status"})
_CALL_KEYS = frozenset({"type", "call_id", "name", "arguments", "id", "status"})
_OUTPUT_KEYS = frozenset({"type", "call_id", "output", "id", "status", "name"})
_REASONING_KEYS = frozenset({"type", "id", "summary", "content", "status"})


class _Assistant:
    """The blocks of the assistant turn being read (items until the next message)."""

    __slots__ = ("blocks", "only_text", "state")

    def __init__(self) -> None:
        self.blocks: list[Any] = []
        self.only_text: str | None = None
        self.state: dict[str, Any] = {}


def from_openai_responses(data: Any, *, strict: bool = False) -> Parsed:
    """Read messages from OpenAI Responses data.

    Args:
        data: A request payload (a dict with ``input`` and maybe ``instructions``), a
            list of input items, or a response: a ``Response`` of the ``openai``
            package or its JSON as a dict.
        strict: Raise instead of reporting something dropped.

    Returns:
        The messages and what agentmsg could not carry, as a
        :class:`~agentmsg.Parsed`.

    Raises:
        MessageError: The data is not data of this format (the text names the path
            and the value); in strict mode, also when something would be dropped.

    Consecutive assistant items (messages, function calls, reasoning) make one assistant
    message; consecutive function call outputs one message of tool results with role
    ``"system"``. A reasoning item becomes one thinking block, and its id and encrypted
    content go to the message's metadata, under ``provider_state``, for
    :func:`to_openai_responses` to send back. A response's id is
    the messages' ``invocation_id``; their metadata holds ``model``, ``stop_reason`` and
    ``token_usage``.
    """
    report = Report(FORMAT, strict)
    data = plain(data)
    turns = Turns()
    if isinstance(data, list):
        items, base = data, "input"
    elif isinstance(data, dict) and "output" in data:
        _response_envelope(turns, data, report)
        items, base = check_array(data["output"], "output"), "output"
    elif isinstance(data, dict) and "input" in data:
        instructions = data.get("instructions")
        if instructions is not None:
            turns.add("system", check_str(instructions, "instructions"), "system", "instructions")
        items, base = data["input"], "input"
        if type(items) is str:
            turns.add("user", items, "user", "input")
            return Parsed(turns.messages, tuple(report.losses))
        check_array(items, "input")
    else:
        msg = (
            "Responses data must be a request payload with `input`, a list of input items "
            f"or a response with `output`, not {show(data)}."
        )
        raise MessageError(msg)
    names: dict[str, str] = {}
    assistant = _Assistant()
    for index, item in enumerate(items):
        path = f"{base}[{index}]"
        item = check_object(item, path)
        kind = item.get("type", "message")
        if kind == "message":
            role = check_choice(
                item.get("role"), f"{path}.role", ("user", "system", "developer", "assistant")
            )
            report.extra(item, _MESSAGE_KEYS | {"phase"}, path)
            if item.get("phase") is not None:
                report.drop(
                    f"{path}.phase",
                    "message phase",
                    "agentmsg's messages have no place for it",
                    item["phase"],
                )
            if role == "assistant":
                turns.flush(path)
                content = check_key(item, "content", path)
                first = len(assistant.blocks)
                if type(content) is str:
                    if not assistant.blocks and assistant.only_text is None:
                        assistant.only_text = content
                    assistant.blocks.append({"type": "text", "text": content})
                else:
                    assistant.only_text = None
                    assistant.blocks.extend(_parts(report, content, f"{path}.content"))
                _keep_id(assistant, item, path, first)
                continue
            _flush_assistant(turns, assistant, path)
            _drop_id(report, item, path)
            if role == "developer":
                report.change(
                    f"{path}.role",
                    "role 'developer'",
                    "read as 'system'",
                    "agentmsg's roles are user, assistant and system; it is sent back as 'system'",
                )
                role = "system"
            content = check_key(item, "content", path)
            if type(content) is str:
                turns.add(DEFAULT_NAMES[role], content, role, path)
            else:
                turns.add(
                    DEFAULT_NAMES[role], _parts(report, content, f"{path}.content"), role, path
                )
        elif kind == "function_call":
            turns.flush(path)
            report.extra(item, _CALL_KEYS, path)
            call_id = check_name(check_key(item, "call_id", path), f"{path}.call_id")
            name = check_name(check_key(item, "name", path), f"{path}.name")
            tool_input, extra = arguments_input(
                report, item.get("arguments", "{}"), f"{path}.arguments"
            )
            names[call_id] = name
            assistant.only_text = None
            assistant.blocks.append(
                {"type": "tool_use", "id": call_id, "name": name, "input": tool_input, **extra}
            )
            _keep_id(assistant, item, path, len(assistant.blocks) - 1)
        elif kind == "reasoning":
            turns.flush(path)
            assistant.only_text = None
            _reasoning(report, item, path, assistant)
        elif kind == "function_call_output":
            _flush_assistant(turns, assistant, path)
            report.extra(item, _OUTPUT_KEYS, path)
            _drop_id(report, item, path)
            call_id = check_name(check_key(item, "call_id", path), f"{path}.call_id")
            name = result_name(report, names, call_id, item.get("name"), f"{path}.call_id")
            output = check_key(item, "output", path)
            if type(output) is not str:
                output = _parts(report, output, f"{path}.output")
            turns.tool_result(
                {"type": "tool_result", "id": call_id, "name": name, "output": output}
            )
        else:
            report.drop(path, f"{kind!s} item", "agentmsg has no block for it", item)
    _flush_assistant(turns, assistant, base)
    turns.flush(base)
    if base == "output" and not turns.messages:
        # A reply whose every item was dropped still brings its id, usage and status.
        turns.add("assistant", [], "assistant", base)
    return Parsed(turns.messages, tuple(report.losses))


def _keep_id(assistant: _Assistant, item: dict[str, Any], path: str, first: int) -> None:
    """Keep the id (and status) of an assistant item for its blocks from *first* on: the
    API pairs a reasoning item with the item after it by that id."""
    if item.get("id") is None:
        return
    kept = {"id": check_name(item["id"], f"{path}.id")}
    if item.get("status") is not None:
        kept["status"] = check_str(item["status"], f"{path}.status")
    for position in range(first, len(assistant.blocks)):
        assistant.state[str(position)] = kept


def _drop_id(report: Report, item: dict[str, Any], path: str) -> None:
    """Report the id and status of an item the API does not pair on (agentmsg keeps none)."""
    for key in ("id", "status"):
        if item.get(key) is not None:
            report.drop(
                f"{path}.{key}",
                f"item {key}",
                "agentmsg keeps the ids of the assistant's items only, which the API pairs on",
                item[key],
            )


def _flush_assistant(turns: Turns, assistant: _Assistant, path: str) -> None:
    if not assistant.blocks:
        return
    single = assistant.only_text if len(assistant.blocks) == 1 else None
    content = single if single is not None else assistant.blocks
    turns.add("assistant", content, "assistant", path, (STATE_FORMAT, assistant.state))
    assistant.blocks = []
    assistant.only_text = None
    assistant.state = {}


def _response_envelope(turns: Turns, data: dict[str, Any], report: Report) -> None:
    metadata: dict[str, Any] = {}
    if data.get("model") is not None:
        metadata["model"] = check_str(data["model"], "model")
    details = data.get("incomplete_details")
    if isinstance(details, dict) and details.get("reason") is not None:
        metadata["stop_reason"] = check_str(details["reason"], "incomplete_details.reason")
    elif data.get("status") is not None:
        metadata["stop_reason"] = check_str(data["status"], "status")
    usage = data.get("usage")
    if usage is not None:
        usage = check_object(usage, "usage")
        counts = {}
        for key, ours in (
            ("input_tokens", "prompt_tokens"),
            ("output_tokens", "completion_tokens"),
            ("total_tokens", "total_tokens"),
        ):
            value = usage.get(key)
            if type(value) is not int or value < 0:
                msg = f"`usage.{key}` must be an integer >= 0, not {show(value)}."
                raise MessageError(msg, f"usage.{key}")
            counts[ours] = value
        metadata["token_usage"] = counts
        read = frozenset({"input_tokens", "output_tokens", "total_tokens"})
        report_counts(report, usage, "usage", read)
    turns.metadata = metadata or None
    if data.get("id") is not None:
        turns.invocation_id = check_name(data["id"], "id")


def _reasoning(report: Report, item: dict[str, Any], path: str, assistant: _Assistant) -> None:
    """One reasoning item as one thinking block, its id kept in the provider state."""
    report.extra(item, _REASONING_KEYS | {"encrypted_content"}, path)
    texts: dict[str, list[str]] = {}
    for key, part_type in (("summary", "summary_text"), ("content", "reasoning_text")):
        parts = item.get(key)
        texts[key] = []
        if parts is None:
            continue
        for position, part in enumerate(check_array(parts, f"{path}.{key}")):
            here = f"{path}.{key}[{position}]"
            part = check_object(part, here)
            if part.get("type") != part_type:
                report.drop(
                    here, f"{part.get('type')!s} part", "agentmsg has no block for it", part
                )
                continue
            texts[key].append(check_str(check_key(part, "text", here), f"{here}.text"))
    source = "summary" if texts["summary"] or not texts["content"] else "content"
    if source == "summary" and texts["content"]:
        report.drop(
            f"{path}.content",
            "reasoning text beside a summary",
            "agentmsg keeps one thinking block per reasoning item, made of the summary",
            item["content"],
        )
    several = len(texts[source]) > 1
    if several and (source == "content" or item.get("id") is None):
        report.change(
            f"{path}.{source}",
            f"{len(texts[source])} {source} parts",
            "joined into one thinking block",
            "agentmsg keeps one thinking block per reasoning item",
        )
    kept: dict[str, Any] = {}
    if item.get("id") is not None:
        kept["id"] = check_name(item["id"], f"{path}.id")
        if several and source == "summary":  # the parts go back as they came
            kept["summary"] = texts["summary"]
        if item.get("status") is not None:
            kept["status"] = check_str(item["status"], f"{path}.status")
        if item.get("encrypted_content") is not None:
            kept["encrypted_content"] = check_str(
                item["encrypted_content"], f"{path}.encrypted_content"
            )
        if source == "content":
            kept["text_in"] = "content"
        assistant.state[str(len(assistant.blocks))] = kept
    else:
        for key in ("encrypted_content", "status"):
            if item.get(key) is not None:
                report.drop(
                    f"{path}.{key}",
                    f"`{key}` of a reasoning item without an id",
                    "Responses takes reasoning back only with its id",
                    item[key],
                )
    assistant.blocks.append({"type": "thinking", "thinking": "\n\n".join(texts[source])})


def _parts(report: Report, content: Any, path: str) -> list[Any]:
    blocks: list[Any] = []
    for position, part in enumerate(check_array(content, path)):
        here = f"{path}[{position}]"
        part = check_object(part, here)
        kind = part.get("type")
        if kind in ("input_text", "output_text"):
            report.extra(part, frozenset({"type", "text", "annotations", "logprobs"}), here)
            for key in ("annotations", "logprobs"):
                if part.get(key):
                    report.drop(
                        f"{here}.{key}",
                        key,
                        "agentmsg's text block has no field for them",
                        part[key],
                    )
            blocks.append(
                {"type": "text", "text": check_str(check_key(part, "text", here), f"{here}.text")}
            )
        elif kind == "input_image":
            report.extra(part, frozenset({"type", "image_url", "detail", "file_id"}), here)
            detail = part.get("detail")
            if detail is not None and detail != "auto":
                report.drop(
                    f"{here}.detail",
                    "image detail",
                    "agentmsg's image block has no field for it",
                    detail,
                )
            url = part.get("image_url")
            if url is None:
                report.drop(
                    here,
                    "image given by file id",
                    "agentmsg has no source for uploaded files",
                    part,
                )
                continue
            url = check_str(url, f"{here}.image_url")
            blocks.append({"type": "image", "source": source_from_url(url)})
        elif kind == "refusal":
            text = check_str(check_key(part, "refusal", here), f"{here}.refusal")
            report.change(here, "refusal", "kept as a text block", "agentmsg has no refusal block")
            blocks.append({"type": "text", "text": text})
        else:
            report.drop(here, f"{kind!s} content part", "agentmsg has no block for it", part)
    return blocks
