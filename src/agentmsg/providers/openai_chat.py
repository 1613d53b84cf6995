"""OpenAI Chat Completions: ``messages`` both ways."""

from __future__ import annotations

import re
from collections import deque
from typing import Any

from .._errors import MessageError
from .._message import CONTENT_SLOT, NAME_SLOT, ROLE_SLOT, Msg
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
    as_msg,
    check_conversation,
    data_url,
    dumps,
    duplicate_why,
    media_of,
    output_text,
    plain,
    report_ambiguous,
    report_json_output,
    report_local,
    report_raw_input,
    report_signature,
    report_tool_message,
    result_name,
    short_id,
    source_from_url,
)
from ._stream import report_counts

__all__ = ["from_openai_chat", "to_openai_chat"]

FORMAT = "Chat Completions"
AUDIO_FORMATS = {"audio/wav": "wav", "audio/mpeg": "mp3"}
AUDIO_ALIASES = {
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "audio/vnd.wave": "wav",
    "audio/mp3": "mp3",
}
AUDIO_TYPES = {"wav": "audio/wav", "mp3": "audio/mpeg"}
_NAMES_OK: dict[str, bool] = {}
# The API refuses a participant name with white space or any of < | \ / >.
_BAD_NAME = re.compile(r"[\s<|\\/>]")


# -- to ----------------------------------------------------------------------------------

#: The rules of :ref:`rules-openai-chat` that the writer enforces, as Loss texts.
UNANSWERED = (
    "Chat Completions refuses an assistant message with tool calls unless a tool message "
    "answers each call right after it"
)
ORPHAN = (
    "Chat Completions takes a tool message only right after the assistant message with "
    "its tool call"
)
DUPLICATE = duplicate_why(FORMAT)
MAX_ID = 40
LONG_ID = (
    f"Chat Completions takes tool call ids of {MAX_ID} characters at most; the call's results "
    "follow the new id, and they come back with it"
)
REPEATED_ID = (
    "Chat Completions finds the call a tool message answers by its id, so the calls of one "
    "assistant message need ids of their own; the call's results follow the new id, and "
    "they come back with it"
)


def _short(call_id: str) -> str:
    return short_id(call_id, MAX_ID)


def to_openai_chat(messages: Any, *, strict: bool = False) -> Conversion:
    """Convert a conversation to the ``messages`` of an OpenAI Chat Completions request.

    Args:
        messages: A list of :class:`~agentmsg.Msg` and role messages, oldest first.
        strict: Raise instead of reporting something dropped.

    Returns:
        A :class:`~agentmsg.Conversion` whose payload holds ``messages``, with what
        could not be carried as it was.

    Raises:
        MessageError: The conversation is not a list of messages; in strict mode,
            also when something would be dropped (the text names its path).

    Each tool result becomes a ``tool`` message; the tool calls of an assistant message
    its ``tool_calls``. Thinking and video blocks cannot be sent and are reported; an
    image inside a tool result is sent in a user message after the run of tool messages.
    The request obeys the API's conversation rules (:ref:`rules-openai-chat`); see
    :ref:`provider-formats` for the whole table.

    Example:
        >>> from agentmsg import Msg, to_openai_chat
        >>> sent = to_openai_chat([Msg("user", "What is 7 times 8?", "user")])
        >>> sent.payload
        {'messages': [{'role': 'user', 'content': 'What is 7 times 8?'}]}
        >>> sent.losses
        ()
    """
    writer = _Writer(strict, messages)
    out = writer.out
    append = out.append
    calls = writer.calls
    waiting = writer.waiting
    own = writer.own
    moved = writer.moved
    max_id = MAX_ID
    # The common shapes (string content, an assistant's text and tool calls, a message of
    # tool results answering the calls just made with text) are written inline; anything
    # else, and anything to report, takes the general path of the writer's methods.
    for index, msg in enumerate(messages):
        if type(msg) is not Msg:
            msg = as_msg(msg, index)
        values = msg._values
        name = values[NAME_SLOT]
        role = values[ROLE_SLOT]
        content = values[CONTENT_SLOT]
        if type(content) is str:
            if waiting or moved or own:
                writer.settle()
            if name == DEFAULT_NAMES[role]:
                append({"role": role, "content": content})
            else:
                sent = name if name in _NAMES_OK else writer.sender(name, index)
                append({"role": role, "name": sent, "content": content})
            continue
        if role == "assistant":
            if waiting or moved or own:
                writer.settle()
            texts: list[dict[str, Any]] = []
            tool_calls: list[dict[str, Any]] = []
            for block in content:
                kind = block["type"]
                if kind == "text" and not tool_calls and "thought_signature" not in block:
                    texts.append({"type": "text", "text": block["text"]})
                elif (
                    kind == "tool_use"
                    and len(block) == 4
                    and len(block["id"]) <= max_id
                    and block["id"] not in waiting  # a second call with one id is renamed
                ):
                    call_id = block["id"]
                    tool = block["name"]
                    calls[call_id] = tool
                    waiting[call_id] = index
                    function = {"name": tool, "arguments": dumps(block["input"])}
                    tool_calls.append({"id": call_id, "type": "function", "function": function})
                else:
                    for call in tool_calls:  # the general path writes them again
                        del waiting[call["id"]]
                    break
            else:
                entry: dict[str, Any] = {"role": "assistant"}
                if name != "assistant":
                    entry["name"] = name if name in _NAMES_OK else writer.sender(name, index)
                if texts or not tool_calls:
                    entry["content"] = texts
                if tool_calls:
                    entry["tool_calls"] = tool_calls
                append(entry)
                continue
            writer.assistant(msg, content, index)
            continue
        if (
            role == "system"
            and name == "system"
            and content
            and not moved
            and (not out or out[-1]["role"] != "tool")
        ):
            results: list[dict[str, Any]] = []
            for block in content:
                if (
                    block["type"] != "tool_result"
                    or type(block["output"]) is not str
                    or block["id"] not in waiting
                    or own
                    or calls[block["id"]] != block["name"]
                ):
                    break
                results.append(
                    {"role": "tool", "tool_call_id": block["id"], "content": block["output"]}
                )
            else:
                at = waiting[results[0]["tool_call_id"]]  # the calls waiting are of one message
                try:
                    for result in results:
                        del waiting[result["tool_call_id"]]
                except KeyError:  # two results for one call: the general path reports it
                    for result in results:
                        waiting[result["tool_call_id"]] = at
                else:
                    out.extend(results)
                    continue
        writer.user_or_system(msg, content, index)
    if moved:
        waiting.clear()  # calls the conversation ends with wait for their results
        writer.settle()
    return Conversion({"messages": out}, tuple(writer.losses))


class _Writer(Report):
    """The Chat Completions messages of one conversation, and the report of what they cost.

    ``waiting`` holds the calls of the last assistant message that no tool message has
    answered yet (id sent -> message index), ``calls`` the tool of each call sent and not
    dropped (one that no longer waits has its tool message), by id sent. ``own`` maps
    the own id of each call of the last assistant message to the ids sent of its waiting
    calls, oldest first, when the message went the general way (the inline way renames
    nothing: each call is sent with its own id); ``ids`` gives the ids sent, unique in
    the message and 40 characters long at most. ``moved`` holds the media of tool
    results, sent in one user message once the run of tool messages ends. A conversation
    may end with unanswered calls: it waits for their results, and they are sent as they
    are.
    """

    __slots__ = ("calls", "conversation", "ids", "moved", "out", "own", "shared", "waiting")
    format = FORMAT  # one format: no slot to write per conversion

    def __init__(self, strict: object, conversation: Any) -> None:
        if type(strict) is not bool:
            Report(FORMAT, strict)  # raises: strict must be a bool
        if type(conversation) is not list:
            check_conversation(conversation)
        self.strict = strict is True
        self.losses = []
        self.conversation = conversation
        self.out: list[dict[str, Any]] = []
        self.calls: dict[str, str] = {}
        self.waiting: dict[str, int] = {}
        self.own: dict[str, deque[tuple[str, int]]] = {}
        self.shared: dict[str, int] = {}
        self.ids = CallIds(REPEATED_ID, _short, LONG_ID, MAX_ID)
        self.moved: list[dict[str, Any]] = []

    def settle(self) -> None:
        """End a run of tool messages: drop the calls left unanswered, send moved media."""
        positions = {sent: position for queue in self.own.values() for sent, position in queue}
        for sent, index in self.waiting.items():
            self._drop_call(index, sent, positions.get(sent))
        self.waiting.clear()
        self.own.clear()
        self.shared.clear()
        if self.moved:
            self.out.append({"role": "user", "content": list(self.moved)})
            self.moved.clear()

    def _drop_call(self, index: int, sent: str, position: int | None) -> None:
        """Drop the call sent as *sent* of message *index*, at *position* (or, for a call
        written inline and so sent with its own id, the call with that id)."""
        content: Any = as_msg(self.conversation[index], index).content
        if position is None:
            position = next(
                position
                for position, block in enumerate(content)
                if block["type"] == "tool_use" and block["id"] == sent
            )
        self.drop(
            f"messages[{index}].content[{position}]",
            "tool call without a tool result right after it",
            UNANSWERED,
            content[position],
        )
        del self.calls[sent]  # a later result for it has no call
        entry = next(
            entry
            for entry in reversed(self.out)
            if any(call["id"] == sent for call in entry.get("tool_calls", ()))
        )
        entry["tool_calls"] = [call for call in entry["tool_calls"] if call["id"] != sent]
        if not entry["tool_calls"]:
            del entry["tool_calls"]
            if not entry.setdefault("content", []):
                self.out.remove(entry)

    def sender(self, name: str, index: int) -> str:
        if name in _NAMES_OK:
            return name
        if _BAD_NAME.search(name) is None:
            if len(_NAMES_OK) < 1024:
                _NAMES_OK[name] = True
            return name
        sent = _BAD_NAME.sub("_", name)
        self.change(
            f"messages[{index}].name",
            f"sender name {name!r}",
            f"sent as {sent!r}",
            "Chat Completions names may not hold white space or any of < | \\ / >",
        )
        return sent

    def assistant(self, msg: Msg, content: Any, index: int) -> None:
        report = self
        texts: list[dict[str, Any]] = []
        tool_calls: list[dict[str, Any]] = []
        calls: list[tuple[str, int, str]] = []  # (own id, position, id sent)
        results: list[tuple[int, Any]] = []
        ids = self.ids
        ids.new_turn()
        ids.reserve(block["id"] for block in content if block["type"] == "tool_use")
        for position, block in enumerate(content):
            kind = block["type"]
            path = f"messages[{index}].content[{position}]"
            if kind == "text":
                if tool_calls:
                    report.change(
                        path,
                        "text block after a tool call",
                        "moved before the tool calls",
                        "Chat Completions puts an assistant message's text before its tool calls",
                    )
                report_signature(report, block, path)
                texts.append({"type": "text", "text": block["text"]})
            elif kind == "tool_use":
                if "raw_input" in block:
                    report_raw_input(report, block, path, True)
                report_signature(report, block, path)
                sent = ids.sent(report, block["id"], f"{path}.id")
                self.calls[sent] = block["name"]
                calls.append((block["id"], position, sent))
                tool_calls.append(
                    {
                        "id": sent,
                        "type": "function",
                        "function": {"name": block["name"], "arguments": arguments_text(block)},
                    }
                )
            elif kind == "tool_result":
                results.append((position, block))
            else:
                what, why = _DROPPED_FROM_ASSISTANT.get(kind) or (
                    f"{kind} block in an assistant message",
                    "Chat Completions assistant messages hold text and tool calls only",
                )
                report.drop(path, what, why, block)
        self.settle()
        entry: dict[str, Any] = {"role": "assistant"}
        if msg.name != "assistant":
            entry["name"] = self.sender(msg.name, index)
        if texts or not tool_calls:
            entry["content"] = texts
        if tool_calls:
            entry["tool_calls"] = tool_calls
        if texts or tool_calls or not content:
            self.out.append(entry)
            for call_id, position, sent in calls:
                self.waiting[sent] = index
                queue = self.own.get(call_id)
                if queue is None:
                    self.own[call_id] = deque(((sent, position),))
                else:
                    queue.append((sent, position))
                    self.shared[call_id] = self.shared.get(call_id, 1) + 1
        if results:
            report_tool_message(report, msg, index)
            self.tool_messages(results, index)

    def user_or_system(self, msg: Msg, content: Any, index: int) -> None:
        report = self
        role = msg.role
        parts: list[dict[str, Any]] = []
        results: list[tuple[int, Any]] = []
        for position, block in enumerate(content):
            kind = block["type"]
            path = f"messages[{index}].content[{position}]"
            if kind == "text":
                report_signature(report, block, path)
                parts.append({"type": "text", "text": block["text"]})
            elif kind == "tool_result":
                results.append((position, block))
            elif (kind == "image" or kind == "audio") and role != "system":
                part = _media_part(report, block, path)
                if part is not None:
                    parts.append(part)
            elif kind == "tool_use":
                report.drop(
                    path,
                    f"tool call in a {role} message",
                    "Chat Completions carries tool calls in assistant messages only",
                    block,
                )
            else:
                report.drop(path, *_DROPPED_FROM_USER[kind], block)
        if results:
            report_tool_message(report, msg, index)
            if not parts and len(results) == len(content) and msg.name != TOOL_RESULTS_NAME:
                report.drop(
                    f"messages[{index}].name",
                    f"sender name {msg.name!r}",
                    "Chat Completions tool messages have no name; it comes back as 'system'",
                    msg.name,
                )
            self.tool_messages(results, index)
        if parts or not content:
            self.settle()
            entry: dict[str, Any] = {"role": role}
            if msg.name != DEFAULT_NAMES[role]:
                entry["name"] = self.sender(msg.name, index)
            entry["content"] = parts
            self.out.append(entry)

    def tool_messages(self, results: list[tuple[int, Any]], index: int) -> None:
        report = self
        out = self.out
        if out and out[-1]["role"] == "tool":
            report.change(
                f"messages[{index}]",
                "tool results right after other tool results",
                "merged with them",
                "Chat Completions tool messages stand alone; consecutive ones come back as "
                "one message",
            )
        for position, block in results:
            path = f"messages[{index}].content[{position}]"
            call_id = block["id"]
            if self.own:
                queue = self.own.get(call_id)
                sent = queue.popleft()[0] if queue else None
            else:  # the calls went inline, each with its own id
                sent = call_id if call_id in self.waiting else None
            if sent is None or self.waiting.pop(sent, None) is None:
                if (call_id in self.own) if self.own else (call_id in self.calls):  # answered
                    report.drop(path, "second tool result for one tool call", DUPLICATE, block)
                else:
                    report.drop(
                        path, "tool result without its tool call right before it", ORPHAN, block
                    )
                continue
            count = self.shared.get(call_id)
            if count is not None:
                report_ambiguous(report, call_id, count, sent, f"{path}.id")
            if self.calls[sent] != block["name"]:
                report.drop(
                    f"{path}.name",
                    f"tool name {block['name']!r} of a tool result",
                    "Chat Completions tool messages name only the call id, and the tool call "
                    "with that id names another tool",
                    block["name"],
                )
            output = block["output"]
            if type(output) is str:
                output_sent: Any = output
            elif is_block_list(output):
                output_sent = []
                for item_index, item in enumerate(output):
                    if item["type"] == "text":
                        output_sent.append({"type": "text", "text": item["text"]})
                        continue
                    item_path = f"{path}.output[{item_index}]"
                    if item["type"] == "video":
                        report.drop(
                            item_path, "video block", "Chat Completions takes no video", item
                        )
                        continue
                    part = _media_part(report, item, item_path)
                    if part is not None:
                        self.moved.append(part)
                        report.change(
                            item_path,
                            f"{item['type']} block in a tool result",
                            "sent in a user message after the tool messages",
                            "Chat Completions tool messages hold text only",
                        )
                if not output_sent:
                    output_sent = ""
            else:
                report_json_output(report, path)
                output_sent = output_text(output)
            out.append({"role": "tool", "tool_call_id": sent, "content": output_sent})


def _media_part(report: Report, block: dict[str, Any], path: str) -> dict[str, Any] | None:
    kind = block["type"]
    media = media_of(block["source"])
    if media.form == "local":
        report_local(report, path, f"{kind} block", media.data)
        return None
    if kind == "image":
        if media.form != "base64":
            return {"type": "image_url", "image_url": {"url": media.data}}
        media_type = media.media_type
        if media_type not in IMAGE_TYPES:
            report.drop(
                path,
                f"{media_type} image",
                "Chat Completions takes PNG, JPEG, GIF and WebP images",
                block,
            )
            return None
        return {"type": "image_url", "image_url": {"url": data_url(media_type, media.data)}}
    if media.form != "base64":
        report.drop(
            path,
            "audio from a URL",
            "Chat Completions takes audio as base64 data only, and agentmsg downloads nothing",
            block,
        )
        return None
    media_type = media.media_type or ""
    audio_format = AUDIO_FORMATS.get(media_type)
    if audio_format is None:
        audio_format = AUDIO_ALIASES.get(media_type.lower())
        if audio_format is None:
            report.drop(
                path, f"{media_type} audio", "Chat Completions takes WAV and MP3 audio", block
            )
            return None
        report.change(
            f"{path}.source.media_type",
            f"media type {media_type!r}",
            f"sent as format {audio_format!r}",
            "Chat Completions names the format only; it comes back as "
            f"{AUDIO_TYPES[audio_format]!r}",
        )
    return {"type": "input_audio", "input_audio": {"data": media.data, "format": audio_format}}


_THINKING = ("thinking block", "Chat Completions has no field for it")
_DROPPED_FROM_ASSISTANT = {"thinking": _THINKING}
_DROPPED_FROM_USER = {
    "thinking": _THINKING,
    "video": ("video block", "Chat Completions takes no video"),
    "image": ("image block", "Chat Completions system messages hold text only"),
    "audio": ("audio block", "Chat Completions system messages hold text only"),
}


# -- from --------------------------------------------------------------------------------

_ROLES = ("system", "developer", "user", "assistant", "tool", "function")
_USER_KEYS = frozenset({"role", "name", "content"})
_ASSISTANT_KEYS = frozenset({"role", "name", "content", "tool_calls", "refusal", "function_call"})
_TOOL_KEYS = frozenset({"role", "content", "tool_call_id"})
_FUNCTION_KEYS = frozenset({"role", "content", "name"})


def from_openai_chat(data: Any, *, strict: bool = False) -> Parsed:
    """Read messages from OpenAI Chat Completions data.

    Args:
        data: A request payload (a dict with ``messages``), a list of messages, or a
            response: a ``ChatCompletion`` of the ``openai`` package or its JSON as a dict.
        strict: Raise instead of reporting something dropped.

    Returns:
        The messages and what agentmsg could not carry, as a
        :class:`~agentmsg.Parsed`.

    Raises:
        MessageError: The data is not data of this format (the text names the path
            and the value); in strict mode, also when something would be dropped.

    A response gives one assistant message (the first choice) whose ``invocation_id`` is
    the response id and whose metadata holds ``model``, ``stop_reason`` and
    ``token_usage``. ``tool`` messages become tool results in a message with role
    ``"system"``; each takes its tool name from the call with the same id.

    Example:
        >>> from agentmsg import from_openai_chat
        >>> reply = from_openai_chat({"messages": [{"role": "user", "content": "Hi"}]})
        >>> reply.messages[0].content
        'Hi'
    """
    report = Report(FORMAT, strict)
    data = plain(data)
    turns = Turns()
    names: dict[str, str] = {}
    if isinstance(data, list):
        messages, base = data, "messages"
    elif isinstance(data, dict) and "choices" in data:
        _response(report, turns, data, names)
        return Parsed(turns.messages, tuple(report.losses))
    elif isinstance(data, dict) and "messages" in data:
        messages, base = check_array(data["messages"], "messages"), "messages"
    else:
        msg_text = (
            "Chat Completions data must be a request payload with `messages`, a list of "
            f"messages or a response with `choices`, not {show(data)}."
        )
        raise MessageError(msg_text)
    for index, message in enumerate(messages):
        _message(
            report, turns, check_object(message, f"{base}[{index}]"), f"{base}[{index}]", names
        )
    turns.flush(base)
    return Parsed(turns.messages, tuple(report.losses))


def _response(report: Report, turns: Turns, data: dict[str, Any], names: dict[str, str]) -> None:
    choices = check_array(data["choices"], "choices")
    metadata: dict[str, Any] = {}
    if data.get("model") is not None:
        metadata["model"] = check_str(data["model"], "model")
    if not choices:
        raise MessageError("`choices` is empty: the response holds no reply.", "choices")
    choice = check_object(choices[0], "choices[0]")
    if choice.get("finish_reason") is not None:
        metadata["stop_reason"] = check_str(choice["finish_reason"], "choices[0].finish_reason")
    usage = data.get("usage")
    if usage is not None:
        usage = check_object(usage, "usage")
        metadata["token_usage"] = {
            key: _count(usage, key)
            for key in ("prompt_tokens", "completion_tokens", "total_tokens")
        }
        report_counts(report, usage, "usage", _USAGE_READ)
    logprobs = choice.get("logprobs")
    if isinstance(logprobs, dict) and any(value is not None for value in logprobs.values()):
        report.drop(
            "choices[0].logprobs",
            "log probabilities",
            "agentmsg's messages have no place for them",
            logprobs,
        )
    for extra in range(1, len(choices)):
        report.drop(
            f"choices[{extra}]",
            "another choice",
            "a message holds one reply, so only the first choice is converted",
            choices[extra],
        )
    turns.metadata = metadata or None
    if data.get("id") is not None:
        turns.invocation_id = check_name(data["id"], "id")
    message = check_object(check_key(choice, "message", "choices[0]"), "choices[0].message")
    _message(report, turns, message, "choices[0].message", names)
    turns.flush("choices[0].message")


_USAGE_READ = frozenset({"prompt_tokens", "completion_tokens", "total_tokens"})


def _count(usage: dict[str, Any], key: str) -> int:
    value = usage.get(key)
    if type(value) is not int or value < 0:
        msg = f"`usage.{key}` must be an integer >= 0, not {show(value)}."
        raise MessageError(msg, f"usage.{key}")
    return value


def _message(
    report: Report, turns: Turns, message: dict[str, Any], path: str, names: dict[str, str]
) -> None:
    role = check_choice(message.get("role"), f"{path}.role", _ROLES)
    if role == "tool":
        report.extra(message, _TOOL_KEYS, path)
        call_id = check_name(check_key(message, "tool_call_id", path), f"{path}.tool_call_id")
        name = result_name(report, names, call_id, None, f"{path}.tool_call_id")
        content = check_key(message, "content", path)
        output: Any = (
            content if type(content) is str else _texts(report, content, f"{path}.content")
        )
        turns.tool_result({"type": "tool_result", "id": call_id, "name": name, "output": output})
        return
    if role == "function":
        report.extra(message, _FUNCTION_KEYS, path)
        name = check_name(check_key(message, "name", path), f"{path}.name")
        content = check_str(message.get("content") or "", f"{path}.content")
        turns.tool_result(
            {"type": "tool_result", "id": f"call_{name}", "name": name, "output": content}
        )
        return
    if role == "assistant":
        _assistant_message(report, turns, message, path, names)
        return
    report.extra(message, _USER_KEYS, path)
    if role == "developer":
        report.change(
            f"{path}.role",
            "role 'developer'",
            "read as 'system'",
            "agentmsg's roles are user, assistant and system; it is sent back as 'system'",
        )
        role = "system"
    sender = _sender(message, role, path)
    content = check_key(message, "content", path)
    if type(content) is str:
        turns.add(sender, content, role, path)
        return
    blocks = [
        block
        for position, part in enumerate(check_array(content, f"{path}.content"))
        if (block := _part(report, part, f"{path}.content[{position}]")) is not None
    ]
    turns.add(sender, blocks, role, path)


def _sender(message: dict[str, Any], role: str, path: str) -> str:
    name = message.get("name")
    if name is None:
        return DEFAULT_NAMES[role]
    return check_name(name, f"{path}.name")


def _texts(report: Report, content: Any, path: str) -> list[dict[str, Any]]:
    blocks = []
    for position, part in enumerate(check_array(content, path)):
        block = _part(report, part, f"{path}[{position}]")
        if block is not None:
            blocks.append(block)
    return blocks


def _part(report: Report, part: Any, path: str) -> dict[str, Any] | None:
    part = check_object(part, path)
    kind = part.get("type")
    if kind == "text":
        report.extra(part, frozenset({"type", "text"}), path)
        return {"type": "text", "text": check_str(check_key(part, "text", path), f"{path}.text")}
    if kind == "image_url":
        report.extra(part, frozenset({"type", "image_url"}), path)
        image = check_object(check_key(part, "image_url", path), f"{path}.image_url")
        detail = image.get("detail")
        if detail is not None and detail != "auto":
            report.drop(
                f"{path}.image_url.detail",
                "image detail",
                "agentmsg's image block has no field for it",
                detail,
            )
        report.extra(image, frozenset({"url", "detail"}), f"{path}.image_url")
        url = check_str(check_key(image, "url", f"{path}.image_url"), f"{path}.image_url.url")
        return {"type": "image", "source": source_from_url(url)}
    if kind == "input_audio":
        report.extra(part, frozenset({"type", "input_audio"}), path)
        audio = check_object(check_key(part, "input_audio", path), f"{path}.input_audio")
        report.extra(audio, frozenset({"data", "format"}), f"{path}.input_audio")
        audio_format = check_choice(
            audio.get("format"), f"{path}.input_audio.format", ("wav", "mp3")
        )
        data = check_str(
            check_key(audio, "data", f"{path}.input_audio"), f"{path}.input_audio.data"
        )
        source = {"type": "base64", "media_type": AUDIO_TYPES[audio_format], "data": data}
        return {"type": "audio", "source": source}
    if kind == "refusal":
        report.extra(part, frozenset({"type", "refusal"}), path)
        text = check_str(check_key(part, "refusal", path), f"{path}.refusal")
        report.change(path, "refusal", "kept as a text block", "agentmsg has no refusal block")
        return {"type": "text", "text": text}
    report.drop(path, f"{kind!s} content part", "agentmsg has no block for it", part)
    return None


def _assistant_message(
    report: Report, turns: Turns, message: dict[str, Any], path: str, names: dict[str, str]
) -> None:
    report.extra(message, _ASSISTANT_KEYS | {"annotations", "audio"}, path)
    for key, what in (("annotations", "annotations"), ("audio", "audio reply")):
        value = message.get(key)
        if value:
            report.drop(f"{path}.{key}", what, "agentmsg's messages have no place for it", value)
    sender = _sender(message, "assistant", path)
    content = message.get("content")
    blocks: list[Any] = []
    calls = message.get("tool_calls")
    if type(content) is str:
        # "content": "" beside tool calls (as many compatible servers write it) says nothing
        if content or (not calls and message.get("function_call") is None):
            blocks.append({"type": "text", "text": content})
    elif content is not None:
        blocks.extend(_texts(report, content, f"{path}.content"))
    refusal = message.get("refusal")
    if refusal is not None:
        text = check_str(refusal, f"{path}.refusal")
        report.change(
            f"{path}.refusal", "refusal", "kept as a text block", "agentmsg has no refusal block"
        )
        blocks.append({"type": "text", "text": text})
    if calls is not None:
        for position, call in enumerate(check_array(calls, f"{path}.tool_calls")):
            block = _tool_call(report, call, f"{path}.tool_calls[{position}]")
            if block is not None:
                names[block["id"]] = block["name"]
                blocks.append(block)
    function_call = message.get("function_call")
    if function_call is not None:
        function_call = check_object(function_call, f"{path}.function_call")
        name = check_name(
            check_key(function_call, "name", f"{path}.function_call"), f"{path}.function_call.name"
        )
        tool_input, extra = arguments_input(
            report, function_call.get("arguments", "{}"), f"{path}.function_call.arguments"
        )
        call_id = f"call_{name}"
        names[call_id] = name
        blocks.append(
            {"type": "tool_use", "id": call_id, "name": name, "input": tool_input, **extra}
        )
    if type(content) is str and len(blocks) == 1 and blocks[0]["type"] == "text":
        turns.add(sender, content, "assistant", path)
    else:
        turns.add(sender, blocks, "assistant", path)


def _tool_call(report: Report, call: Any, path: str) -> dict[str, Any] | None:
    call = check_object(call, path)
    kind = call.get("type", "function")
    call_id = check_name(check_key(call, "id", path), f"{path}.id")
    if kind == "custom":
        custom = check_object(check_key(call, "custom", path), f"{path}.custom")
        report.drop(
            path,
            "custom tool call",
            "its input is free text, and agentmsg's tool use block holds a JSON object",
            custom,
        )
        return None
    if kind != "function":
        report.drop(path, f"{kind!s} tool call", "agentmsg has no block for it", call)
        return None
    report.extra(call, frozenset({"id", "type", "function"}), path)
    function = check_object(check_key(call, "function", path), f"{path}.function")
    report.extra(function, frozenset({"name", "arguments"}), f"{path}.function")
    name = check_name(check_key(function, "name", f"{path}.function"), f"{path}.function.name")
    tool_input, extra = arguments_input(
        report, function.get("arguments", "{}"), f"{path}.function.arguments"
    )
    return {"type": "tool_use", "id": call_id, "name": name, "input": tool_input, **extra}
