"""OpenAI Chat Completions: ``messages`` both ways, and a streamed reply's chunks back
into one ``ChatCompletion`` (:class:`OpenAIChatStream`)."""

from __future__ import annotations

import math
import re
from typing import Any

from .._message import CONTENT_SLOT, NAME_SLOT, ROLE_SLOT, Msg
from .._validate import label, show
from ._common import (
    DEFAULT_NAMES,
    TOOL_RESULTS_NAME,
    CallIds,
    Conversion,
    Pairing,
    Parsed,
    Reader,
    Writer,
    dumps,
    duplicate_why,
    parse_arguments,
)
from ._stream import Stream, check_value, clean_text, joined, merge_into, reject, trusted_msg

__all__ = ["OpenAIChatStream", "from_openai_chat", "to_openai_chat"]

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
_INFINITY = math.inf


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


def to_openai_chat(messages: Any, *, strict: bool = False) -> Conversion:
    """Convert a conversation to the ``messages`` of an OpenAI Chat Completions request.

    {writer args}

    Returns:
        A :class:`~agentmsg.Conversion` whose payload holds ``messages``, with what
        could not be carried as it was.

    {writer raises}

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
    pairing = writer.pairing
    names = pairing.names
    waiting = pairing.waiting
    own = pairing.own
    moved = writer.moved
    max_id = MAX_ID
    # The common shapes (string content, an assistant's text and tool calls, a message of
    # tool results answering the calls just made with text) are written inline; anything
    # else, and anything to report, takes the general path of the writer's methods.
    for index, msg in enumerate(messages):
        if type(msg) is not Msg:
            msg = writer.as_msg(msg, index)
        values = msg._values
        name = values[NAME_SLOT]
        role = values[ROLE_SLOT]
        content = values[CONTENT_SLOT]
        if type(content) is str:
            if waiting or own or moved:
                writer.settle()
            if name == DEFAULT_NAMES[role]:
                append({"role": role, "content": content})
            else:
                sent = name if name in _NAMES_OK else writer.sender(name, index)
                append({"role": role, "name": sent, "content": content})
            continue
        if role == "assistant":
            if waiting or own or moved:
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
                    # registered for Pairing.results, sent with its own id
                    call_id = block["id"]
                    tool = block["name"]
                    names[call_id] = tool
                    waiting[call_id] = (index, len(texts) + len(tool_calls))  # its position
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
            and not own  # calls of the general path: Pairing.results pairs them
            and (not out or out[-1]["role"] != "tool")
        ):
            results: list[dict[str, Any]] = []
            answered: list[str] = []
            for block in content:
                if (
                    block["type"] != "tool_result"
                    or type(block["output"]) is not str
                    or block["id"] not in waiting  # sent with its own id, and not answered
                    or names[block["id"]] != block["name"]
                ):
                    break
                call_id = block["id"]
                answered.append(call_id)
                results.append(
                    {"role": "tool", "tool_call_id": call_id, "content": block["output"]}
                )
            else:
                if len(answered) == 1 or len(set(answered)) == len(answered):
                    for call_id in answered:  # paired as Pairing.results pairs them
                        del waiting[call_id]
                    pairing.answered.update(answered)
                    out.extend(results)
                    continue
        writer.user_or_system(msg, content, index)
    if moved:
        waiting.clear()  # calls the conversation ends with wait for their results
        writer.settle()
    return Conversion({"messages": out}, tuple(writer.losses))


class _Writer(Writer):
    """The Chat Completions messages of one conversation, and the report of what they cost.

    ``pairing`` pairs the calls of the last assistant message with the tool messages right
    after it (ids unique in the message, 40 characters at most); ``moved`` holds the media
    of tool results, sent in a user message after them. Calls the conversation ends with
    wait for their results."""

    __slots__ = ("moved", "pairing")
    format = FORMAT  # one format: no slot to write per conversion

    def __init__(self, strict: object, conversation: Any) -> None:
        if type(strict) is not bool:
            Writer(FORMAT, strict)  # raises: strict must be a bool
        if type(conversation) is not list:
            self.check_conversation(conversation)
        self.strict = strict is True
        self.losses = []
        self.conversation = conversation
        self.out: list[dict[str, Any]] = []
        self.pairing = Pairing(CallIds(REPEATED_ID, None, LONG_ID, MAX_ID), per_turn=True)
        self.moved: list[dict[str, Any]] = []

    def settle(self) -> None:
        """End a run of tool messages: drop the calls left unanswered, send moved media."""
        pairing = self.pairing
        if pairing.waiting:
            dropped = set(pairing.unanswered(self, self.conversation, UNANSWERED))
            entry = next(entry for entry in reversed(self.out) if "tool_calls" in entry)
            calls = [call for call in entry["tool_calls"] if call["id"] not in dropped]
            entry["tool_calls"] = calls
            if not calls:
                del entry["tool_calls"]
                if not entry.setdefault("content", []):
                    self.out.remove(entry)
        pairing.own.clear()
        pairing.shared.clear()
        if self.moved:
            self.out.append({"role": "user", "content": list(self.moved)})
            self.moved.clear()

    def sender(self, name: str, index: int) -> str:
        if name in _NAMES_OK:
            return name
        if _BAD_NAME.search(name) is None:
            if len(_NAMES_OK) < 1024:
                _NAMES_OK[name] = True
            return name
        sent = _BAD_NAME.sub("_", name)
        why = "Chat Completions names may not hold white space or any of < | \\ / >"
        self.change(f"messages[{index}].name", f"sender name {name!r}", f"sent as {sent!r}", why)
        return sent

    def assistant(self, msg: Msg, content: Any, index: int) -> None:
        report = self
        self.settle()
        texts: list[dict[str, Any]] = []
        tool_calls: list[dict[str, Any]] = []
        results: list[tuple[int, Any]] = []
        pairing = self.pairing
        pairing.begin(index, (block["id"] for block in content if block["type"] == "tool_use"))
        for position, block in enumerate(content):
            kind = block["type"]
            path = f"messages[{index}].content[{position}]"
            if kind == "text":
                if tool_calls:
                    thing = "text block after a tool call"
                    rule = "Chat Completions puts an assistant message's text before its tool calls"
                    report.change(path, thing, "moved before the tool calls", rule)
                report.signature(block, path)
                texts.append({"type": "text", "text": block["text"]})
            elif kind == "tool_use":
                if "raw_input" in block:
                    report.raw_input(block, path, True)
                report.signature(block, path)
                sent = pairing.call(report, block, index, position)
                function = {"name": block["name"], "arguments": self.arguments_text(block)}
                tool_calls.append({"id": sent, "type": "function", "function": function})
            elif kind == "tool_result":
                results.append((position, block))
            else:
                what, why = _DROPPED_FROM_ASSISTANT.get(kind) or (
                    f"{kind} block in an assistant message",
                    "Chat Completions assistant messages hold text and tool calls only",
                )
                report.drop(path, what, why, block)
        entry: dict[str, Any] = {"role": "assistant"}
        if msg.name != "assistant":
            entry["name"] = self.sender(msg.name, index)
        if texts or not tool_calls:
            entry["content"] = texts
        if tool_calls:
            entry["tool_calls"] = tool_calls
        if texts or tool_calls or not content:
            self.out.append(entry)
        if results:
            report.tool_message(msg, index)
            self.tool_messages(msg, content, index)

    def user_or_system(self, msg: Msg, content: Any, index: int) -> None:
        report = self
        role = msg.role
        parts: list[dict[str, Any]] = []
        results: list[tuple[int, Any]] = []
        for position, block in enumerate(content):
            kind = block["type"]
            path = f"messages[{index}].content[{position}]"
            if kind == "text":
                report.signature(block, path)
                parts.append({"type": "text", "text": block["text"]})
            elif kind == "tool_result":
                results.append((position, block))
            elif (kind == "image" or kind == "audio") and role != "system":
                part = self.part(block, path)
                if part is not None:
                    parts.append(part)
            elif kind == "tool_use":
                why = "Chat Completions carries tool calls in assistant messages only"
                report.drop(path, f"tool call in a {role} message", why, block)
            else:
                report.drop(path, *_DROPPED_FROM_USER[kind], block)
        if results:
            report.tool_message(msg, index)
            if not parts and len(results) == len(content) and msg.name != TOOL_RESULTS_NAME:
                why = "Chat Completions tool messages have no name; it comes back as 'system'"
                report.drop(f"messages[{index}].name", f"sender name {msg.name!r}", why, msg.name)
            self.tool_messages(msg, content, index)
        if parts or not content:
            self.settle()
            entry: dict[str, Any] = {"role": role}
            if msg.name != DEFAULT_NAMES[role]:
                entry["name"] = self.sender(msg.name, index)
            entry["content"] = parts
            self.out.append(entry)

    def tool_messages(self, msg: Msg, content: Any, index: int) -> None:
        out = self.out
        if out and out[-1]["role"] == "tool":
            what = "tool results right after other tool results"
            rule = (
                "Chat Completions tool messages stand alone; consecutive ones come back as "
                "one message"
            )
            self.change(f"messages[{index}]", what, "merged with them", rule)
        why = (
            "Chat Completions tool messages name only the call id, and the tool call "
            "with that id names another tool"
        )
        for path, sent, block in self.pairing.results(self, msg, content, index, ORPHAN, False):
            self.tool_name(block, path, self.pairing.names[sent], why)
            output_sent = self.output(block, path, self.result_part)
            out.append({"role": "tool", "tool_call_id": sent, "content": output_sent})

    def result_part(self, item: dict[str, Any], path: str) -> Any:
        """The text part of a tool result's output block; its media wait in ``moved``."""
        if item["type"] == "text":
            return {"type": "text", "text": item["text"]}
        if item["type"] == "video":
            self.drop(path, "video block", _NO_VIDEO, item)
            return None
        part = self.part(item, path)
        if part is not None:
            self.moved.append(part)
            what = f"{item['type']} block in a tool result"
            why = "Chat Completions tool messages hold text only"
            self.change(path, what, "sent in a user message after the tool messages", why)
        return None

    def part(self, block: dict[str, Any], path: str) -> dict[str, Any] | None:
        """The content part of an image or audio block, or None (reported)."""
        media = self.media(block, path)
        if media is None:
            return None
        if block["type"] == "image":
            if media.form != "base64":
                return {"type": "image_url", "image_url": {"url": media.data}}
            why = "Chat Completions takes PNG, JPEG, GIF and WebP images"
            if not self.image_type(block, path, media, why):
                return None
            return {"type": "image_url", "image_url": {"url": media.data_url()}}
        if media.form != "base64":
            why = "Chat Completions takes audio as base64 data only, and agentmsg downloads nothing"
            self.drop(path, "audio from a URL", why, block)
            return None
        media_type = media.media_type or ""
        audio_format = AUDIO_FORMATS.get(media_type)
        if audio_format is None:
            audio_format = AUDIO_ALIASES.get(media_type.lower())
            if audio_format is None:
                why = "Chat Completions takes WAV and MP3 audio"
                self.drop(path, f"{media_type} audio", why, block)
                return None
            instead = f"sent as format {audio_format!r}"
            rule = (
                "Chat Completions names the format only; it comes back as "
                f"{AUDIO_TYPES[audio_format]!r}"
            )
            self.change(f"{path}.source.media_type", f"media type {media_type!r}", instead, rule)
        return {"type": "input_audio", "input_audio": {"data": media.data, "format": audio_format}}


_THINKING = ("thinking block", "Chat Completions has no field for it")
_NO_VIDEO = "Chat Completions takes no video"
_DROPPED_FROM_ASSISTANT = {"thinking": _THINKING}
_DROPPED_FROM_USER = {
    "thinking": _THINKING,
    "video": ("video block", _NO_VIDEO),
    "image": ("image block", "Chat Completions system messages hold text only"),
    "audio": ("audio block", "Chat Completions system messages hold text only"),
}


# -- from --------------------------------------------------------------------------------

_ROLES = ("system", "developer", "user", "assistant", "tool", "function")
_USER_KEYS = frozenset({"role", "name", "content"})
_ASSISTANT_KEYS = frozenset(
    {"role", "name", "content", "tool_calls", "refusal", "function_call", "annotations", "audio"}
)
_TOOL_KEYS = frozenset({"role", "content", "tool_call_id"})
_FUNCTION_KEYS = frozenset({"role", "content", "name"})
_CALL_KEYS = frozenset({"id", "type", "function"})
_CALLED_KEYS = frozenset({"name", "arguments"})  # of a call's function
_USAGE_READ = ("prompt_tokens", "completion_tokens", "total_tokens")


def from_openai_chat(data: Any, *, strict: bool = False) -> Parsed:
    """Read messages from OpenAI Chat Completions data.

    Args:
        data: A request payload (a dict with ``messages``), a list of messages, or a
            response: a ``ChatCompletion`` of the ``openai`` package or its JSON as a dict.
        strict: Raise instead of reporting something dropped.

    {reader returns}

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
    reader = _Reader(FORMAT, strict)
    data = reader.plain(data)
    if isinstance(data, list):
        messages = data
    elif isinstance(data, dict) and "choices" in data:
        reader.response(data)
        return reader.parsed()
    elif isinstance(data, dict) and "messages" in data:
        messages = reader.array(data["messages"], "messages")
    else:
        shapes = "a request payload with `messages`, a list of messages or a response with "
        reader.refuse(data, shapes + "`choices`")
    for index, message in enumerate(messages):
        path = f"messages[{index}]"
        reader.message(reader.obj(message, path), path)
    reader.turns.flush("messages")
    return reader.parsed()


class _Reader(Reader):
    """Reads Chat Completions requests and responses."""

    __slots__ = ()

    def response(self, data: dict[str, Any]) -> None:
        choices = self.array(data["choices"], "choices")
        metadata: dict[str, Any] = {}
        self.meta(metadata, "model", data, "model")
        if not choices:
            self.refuse_empty("choices")
        choice = self.obj(choices[0], "choices[0]")
        if choice.get("finish_reason") is not None:
            path = "choices[0].finish_reason"
            metadata["stop_reason"] = self.text(choice["finish_reason"], path)
        usage, path = data.get("usage"), "usage"
        if usage is None and isinstance(data.get("x_groq"), dict):
            # Groq's streams bring the usage in the last chunk's x_groq.
            usage, path = data["x_groq"].get("usage"), "x_groq.usage"
        if usage is not None:
            counts = self.usage(self.obj(usage, path), path, _USAGE_READ)
            metadata["token_usage"] = dict(zip(_USAGE_READ, counts, strict=True))
        logprobs = choice.get("logprobs")
        if isinstance(logprobs, dict) and any(value is not None for value in logprobs.values()):
            why = "agentmsg's messages have no place for them"
            self.drop("choices[0].logprobs", "log probabilities", why, logprobs)
        for extra in range(1, len(choices)):
            why = "a message holds one reply, so only the first choice is converted"
            self.drop(f"choices[{extra}]", "another choice", why, choices[extra])
        for path, what, value in _beside(data, choice):
            self.drop(path, what, "agentmsg's messages have no place for them", value)
        self.begin(data, metadata)
        if "message" not in choice and choice.get("finish_reason") is not None:
            # Azure OpenAI's reply stopped by its content filter has no message.
            choice = {**choice, "message": {"role": "assistant"}}
        self.message(self.obj_at(choice, "message", "choices[0]"), "choices[0].message")
        self.turns.flush("choices[0].message")

    def message(self, message: dict[str, Any], path: str) -> None:
        role = self.choice(message.get("role"), f"{path}.role", _ROLES)
        if role == "tool":
            self.extra(message, _TOOL_KEYS, path)
            call_id = self.ident_at(message, "tool_call_id", path)
            name = self.result_name(call_id, None, f"{path}.tool_call_id")
            output = self.key(message, "content", path)
            if type(output) is not str:
                output = self.each(output, f"{path}.content", self.part)
            self.result(call_id, name, output)
            return
        if role == "function":
            self.extra(message, _FUNCTION_KEYS, path)
            name = self.ident_at(message, "name", path)
            text = self.text(message.get("content") or "", f"{path}.content")
            self.result(f"call_{name}", name, text)
            return
        if role == "assistant":
            self.assistant(message, path)
            return
        self.extra(message, _USER_KEYS, path)
        if role == "developer":
            role = self.developer(path)
        sender = self.sender(message, role, path)
        content = self.key(message, "content", path)
        if type(content) is not str:
            content = self.each(content, f"{path}.content", self.part)
        self.turns.add(sender, content, role, path)

    def sender(self, message: dict[str, Any], role: str, path: str) -> str:
        name = message.get("name")
        if name is None:
            return DEFAULT_NAMES[role]
        return self.ident(name, f"{path}.name")

    def part(self, part: Any, path: str) -> dict[str, Any] | None:
        part = self.obj(part, path)
        kind = part.get("type")
        if kind == "text":
            self.extra(part, "type text", path)
            return {"type": "text", "text": self.text_at(part, "text", path)}
        if kind == "image_url":
            self.extra(part, "type image_url", path)
            here = f"{path}.image_url"
            image = self.obj_at(part, "image_url", path)
            self.detail(image.get("detail"), f"{here}.detail")
            self.extra(image, "url detail", here)
            return {"type": "image", "source": self.source(self.text_at(image, "url", here))}
        if kind == "input_audio":
            self.extra(part, "type input_audio", path)
            here = f"{path}.input_audio"
            audio = self.obj_at(part, "input_audio", path)
            self.extra(audio, "data format", here)
            audio_format = self.choice(audio.get("format"), f"{here}.format", ("wav", "mp3"))
            data = self.text_at(audio, "data", here)
            source = {"type": "base64", "media_type": AUDIO_TYPES[audio_format], "data": data}
            return {"type": "audio", "source": source}
        if kind == "refusal":
            self.extra(part, "type refusal", path)
            return self.refusal(path, self.text_at(part, "refusal", path))
        self.unknown(path, f"{label(kind)} content part", part)
        return None

    def assistant(self, message: dict[str, Any], path: str) -> None:
        self.extra(message, _ASSISTANT_KEYS, path)
        for key, what in (("annotations", "annotations"), ("audio", "audio reply")):
            if message.get(key):
                self.no_place(f"{path}.{key}", what, message[key])
        sender = self.sender(message, "assistant", path)
        content = message.get("content")
        blocks: list[Any] = []
        calls = message.get("tool_calls")
        if type(content) is str:
            # "content": "" beside tool calls (as many compatible servers write it) says nothing
            if content or (not calls and message.get("function_call") is None):
                blocks.append({"type": "text", "text": content})
        elif content is not None:
            blocks.extend(self.each(content, f"{path}.content", self.part))
        refusal = message.get("refusal")
        if refusal is not None:
            blocks.append(self.refusal(f"{path}.refusal", self.text(refusal, f"{path}.refusal")))
        if calls is not None:
            blocks.extend(self.each(calls, f"{path}.tool_calls", self.tool_call))
        function_call = message.get("function_call")
        if function_call is not None:
            here = f"{path}.function_call"
            function_call = self.obj(function_call, here)
            name = self.ident_at(function_call, "name", here)
            arguments = self.arguments(function_call.get("arguments", "{}"), f"{here}.arguments")
            blocks.append(self.call(f"call_{name}", name, *arguments))
        if type(content) is str and len(blocks) == 1 and blocks[0]["type"] == "text":
            self.turns.add(sender, content, "assistant", path)
        else:
            self.turns.add(sender, blocks, "assistant", path)

    def tool_call(self, call: Any, path: str) -> dict[str, Any] | None:
        # The usual call, {id, type: function, function: {name, arguments}} of plain
        # text, read without building the paths its checks would name (bench change,
        # "read the reply"); anything else, or a value the checks refuse, goes the full
        # way (checked_call), which reads or refuses it.
        if type(call) is dict and len(call) == 3 and _CALL_KEYS.issuperset(call):
            kind, call_id, function = call["type"], call["id"], call["function"]
            if (
                type(kind) is str
                and kind == "function"
                and type(call_id) is str
                and call_id
                and (call_id.isascii() or clean_text(call_id))
                and type(function) is dict
                and len(function) == 2
                and _CALLED_KEYS.issuperset(function)
            ):
                name, arguments = function["name"], function["arguments"]
                if (
                    type(name) is str
                    and name
                    and (name.isascii() or clean_text(name))
                    and type(arguments) is str
                    and (arguments.isascii() or clean_text(arguments))
                ):
                    tool_input = parse_arguments(arguments) if arguments else {}
                    if type(tool_input) is dict:
                        return self.call(call_id, name, tool_input)
        return self.checked_call(call, path)

    def checked_call(self, call: Any, path: str) -> dict[str, Any] | None:
        call = self.obj(call, path)
        kind = call.get("type", "function")
        call_id = self.ident_at(call, "id", path)
        if kind == "custom":
            custom = self.obj_at(call, "custom", path)
            why = "its input is free text, and agentmsg's tool use block holds a JSON object"
            self.drop(path, "custom tool call", why, custom)
            return None
        if kind != "function":
            self.unknown(path, f"{label(kind)} tool call", call)
            return None
        self.extra(call, _CALL_KEYS, path)
        function = self.obj_at(call, "function", path)
        here = f"{path}.function"
        self.extra(function, _CALLED_KEYS, here)
        name = self.ident_at(function, "name", here)
        arguments = self.arguments(function.get("arguments", "{}"), f"{here}.arguments")
        return self.call(call_id, name, *arguments)


# Top-level fields of a chunk that are not the response's: random padding, the chunk's type.
_NOT_KEPT = frozenset({"choices", "usage", "object", "obfuscation"})
_SAME = ("id", "model")
# A chunk has one of these at least.
_MARKS = frozenset({"choices", "usage", "object", "id"})
# Fields of a streamed message that shape its conversion beyond the text (the sender's
# name, a function call, audio): the partial message is then converted whole.
_SHAPING = frozenset({"name", "function_call", "audio"})
# The fields of a message's audio that are replaced, not appended to, by a later piece.
_AUDIO_TEXT = frozenset({"data", "transcript"})


def _index(fragment: dict[str, Any], ids: list[str]) -> Any:
    """The number of the call a tool-call fragment is for: its ``index``; or, from a
    server that sends none (Mistral), the call with its id, a new call when the id is
    new, else the last call."""
    number = fragment.get("index")
    if number is not None:
        return number
    call_id = fragment.get("id")
    if type(call_id) is str and call_id:
        return ids.index(call_id) if call_id in ids else len(ids)
    return len(ids) - 1 if ids else None


def _texts(owner: dict[str, Any], keys: tuple[str, ...], index: int, where: str) -> None:
    """Refuse a value of *keys* in *owner* that is neither text nor None."""
    for key in keys:
        value = owner.get(key)
        if value is not None and type(value) is not str:
            reject(FORMAT, index, f"{where}.{key}", value, "it must be text")


def _rest(fields: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    """The fields with a value beside the *known* ones."""
    return {key: value for key, value in fields.items() if value is not None and key not in known}


#: What a response holds beside its reply that agentmsg has no place for, with how a
#: loss names it: Azure OpenAI's content filter results, OpenAI's moderation of the
#: prompt and reply, Perplexity's sources.
_BESIDE = (
    ("prompt_filter_results", "content filter results"),
    ("moderation", "moderation results"),
    ("citations", "citations"),
    ("search_results", "search results"),
)


def _beside(data: dict[str, Any], choice: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """Where a response holds what :data:`_BESIDE` names, with its name and value."""
    found = [(key, what, data[key]) for key, what in _BESIDE if data.get(key)]
    filters = choice.get("content_filter_results")
    if filters:
        found.append(("choices[0].content_filter_results", "content filter results", filters))
    return found


def _no_piece(choice: dict[str, Any]) -> bool:
    """Whether a choice brings no piece, no finish reason and no log probabilities."""
    delta = choice.get("delta") or {}
    return (
        choice.get("finish_reason") is None
        and not choice.get("logprobs")
        and all(value in (None, "") for key, value in delta.items() if key != "role")
    )


def _more_arguments(calls: list[list[Any]], fragments: Any) -> bool:
    """Append the next piece of a started tool call's arguments; False, having changed
    nothing, for any other fragment."""
    if type(fragments) is not list or len(fragments) != 1:
        return False
    fragment = fragments[0]
    if type(fragment) is not dict or len(fragment) != 2:
        return False
    function, call = fragment.get("function"), fragment.get("index")
    if type(function) is not dict or len(function) != 1 or type(call) is not int:
        return False
    arguments = function.get("arguments")
    if not 0 <= call < len(calls) or type(arguments) is not str or not clean_text(arguments):
        return False
    calls[call][3].append(arguments)
    return True


def _plain_tokens(tokens: list[Any], top: bool = True) -> bool:
    """Whether the log probabilities of a chunk's content are of their usual shape
    ({token, logprob, bytes, top_logprobs}) and hold only what check_value takes; False
    sends the chunk the full way, which takes it or refuses it."""
    for token in tokens:
        if type(token) is not dict or len(token) != 3 + top:
            return False
        for key in token:
            if type(key) is not str:  # a subclass of str finds the keys below
                return False
        text, logprob, raw = token.get("token"), token.get("logprob"), token.get("bytes")
        if (
            type(text) is not str
            or not (text.isascii() or clean_text(text))
            or type(logprob) is not float
            or not -_INFINITY < logprob < _INFINITY
            or type(raw) is not list
        ):
            return False
        for byte in raw:
            if type(byte) is not int or not 0 <= byte < 256:
                return False
        if top:
            more = token.get("top_logprobs")
            if type(more) is not list or (more and not _plain_tokens(more, False)):
                return False
    return True


class _Choice:
    """What one choice of the reply has received so far."""

    __slots__ = ("calls", "extra", "filters", "finish", "logprobs", "role", "texts")

    def __init__(self) -> None:
        self.role = "assistant"
        # The pieces of each text field (content, refusal, reasoning), joined when read.
        self.texts: dict[str, list[str]] = {}
        # Per tool call, by index: [id, type, name, argument pieces, other fields of the
        # call, other fields of its function].
        self.calls: list[list[Any]] = []
        self.finish: str | None = None
        self.logprobs: dict[str, Any] | None = None
        self.extra: dict[str, Any] = {}
        # Azure OpenAI's content filter results, each chunk's of its own text: the last.
        self.filters: Any = None

    def dump(self, index: int) -> dict[str, Any]:
        message: dict[str, Any] = {"role": self.role}
        texts = {key: joined(pieces) for key, pieces in self.texts.items()}
        content, refusal = texts.pop("content", None), texts.pop("refusal", None)
        # The API's first delta opens the content with "": an unstreamed reply that
        # holds tool calls or a refusal has no content at all.
        if content == "" and (self.calls or refusal):
            content = None
        if refusal == "" and (self.calls or content):
            refusal = None
        if content is not None:
            message["content"] = content
        if refusal is not None:
            message["refusal"] = refusal
        if self.calls:
            message["tool_calls"] = [
                {
                    **extra,
                    "id": call_id,
                    "type": kind,
                    "function": {**function, "name": name, "arguments": "".join(pieces)},
                }
                for call_id, kind, name, pieces, extra, function in self.calls
            ]
        message.update(self.extra)
        message.update(texts)
        choice: dict[str, Any] = {"index": index, "message": message}
        if self.finish is not None:
            choice["finish_reason"] = self.finish
        if self.logprobs is not None:
            choice["logprobs"] = self.logprobs
        if self.filters is not None:
            choice["content_filter_results"] = self.filters
        return choice


class OpenAIChatStream(Stream):
    """A reply streamed by OpenAI Chat Completions, assembled chunk by chunk.

    Feed it the ``ChatCompletionChunk`` objects of ``client.chat.completions.create(...,
    stream=True)`` (or their JSON as dicts) with :meth:`add`; :attr:`msg` is the reply so
    far, and :meth:`result`, once the stream has ended, gives what
    :func:`~agentmsg.from_openai_chat` gives for the unstreamed ``ChatCompletion``.

    The text, refusal and tool-call argument pieces are joined; a tool call's id and
    name come in its first fragment (by ``index``); usage comes in the last chunk when
    the request asks for it (``stream_options={"include_usage": True}``). The stream has
    ended when every choice has a finish reason; a usage chunk may still follow.

    Chunks carry no sequence number, so a repeated text piece cannot be told from a
    real one. A chunk without choices (usage, audio streams) is taken, and a usage chunk
    without choices ends the reply even when no finish reason came. Rejected are: an
    event of another API, a chunk of another response (another ``id`` or ``model``), a
    value of the wrong type, content after the usage chunk, a tool-call fragment whose
    call was not started by a first fragment with an id and a name, or that names
    another id, and a chunk that holds an ``error`` (its message is in the error's).

    Example:
        >>> from agentmsg import OpenAIChatStream
        >>> stream = OpenAIChatStream()
        >>> head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
        ...         "model": "gpt-4.1"}
        >>> for delta, finish in [({"role": "assistant", "content": "Sun"}, None),
        ...                       ({"content": "ny."}, "stop")]:
        ...     choice = {"index": 0, "delta": delta, "finish_reason": finish}
        ...     stream.add({**head, "choices": [choice]})
        ...     print(repr(stream.msg.content))
        'Sun'
        'Sunny.'
        >>> stream.result().messages[0].metadata["stop_reason"]
        'stop'
    """

    __slots__ = (
        "_choices",
        "_closed",
        "_envelope",
        "_finished",
        "_head",
        "_open",
        "_quick",
        "_spent",
        "_tokens",
        "_usage",
    )
    _FORMAT = FORMAT
    _EVENT_KEYS = frozenset({"choices"})
    _LAST = "a chunk with a finish reason"

    def __init__(self) -> None:
        super().__init__()
        self._head: dict[str, Any] | None = None
        self._choices: dict[int, _Choice] = {}
        self._usage: dict[str, Any] | None = None
        self._finished = 0
        self._closed = False
        # For the quick way (see _take), and the state of the choice its chunk is of.
        self._quick: tuple[dict[str, Any], dict[str, Any], str, list[str] | None] | None = None
        # The index of a chunk with usage and no piece, which ends a reply if it is the
        # last: OpenRouter's Novita never sends a finish reason.
        self._spent: int | None = None
        self._open: _Choice | None = None
        # The log probabilities of its content so far, which a chunk's extend.
        self._tokens: list[Any] | None = None
        # The partial message's metadata, id and content pieces while the reply is text
        # alone; made again after any chunk that goes the full way.
        self._envelope: tuple[dict[str, Any] | None, str | None, list[str] | None] | None = None

    def _take(self, event: dict[str, Any], index: int) -> None:
        # Most chunks repeat the last chunk the full check took but for one more piece
        # of a text field (content with its log probabilities, reasoning) or of a
        # started call's arguments: the chunk is compared whole with that one, its delta
        # and log probabilities put in (one comparison checks every other value), then
        # the piece is taken (bench streams.recorded, every Chat Completions row: about
        # 3x fewer steps per chunk than the full check). Anything else goes the full way.
        quick = self._quick
        if quick is not None:
            # That chunk, its choice (whose delta and log probabilities each chunk puts
            # in), the field of the last quick piece and that field's pieces.
            template, frame, key, pieces = quick
            try:  # what the comparison below then finds in the right place, or not
                choice = event["choices"][0]
                delta, logprobs = choice["delta"], choice.get("logprobs")
            except (KeyError, IndexError, TypeError, AttributeError):
                delta = None
            if type(delta) is dict and len(delta) == 1:
                frame["delta"] = delta
                if logprobs is not None:
                    frame["logprobs"] = logprobs
                # An index of 0.0 or False equals 0: refused the full way.
                if event == template and type(choice.get("index", 0)) is int:
                    piece = delta.get(key)
                    if piece is None:  # another field than the last quick chunk's
                        ((key, piece),) = delta.items()
                        state: _Choice = self._open  # type: ignore[assignment]  # set with quick
                        pieces = state.texts.get(key)
                        if pieces is not None:
                            self._quick = template, frame, key, pieces
                        elif (
                            key == "tool_calls"
                            and logprobs is None
                            and _more_arguments(state.calls, piece)
                        ):
                            return
                    if (
                        pieces is not None
                        and type(piece) is str
                        and (piece.isascii() or clean_text(piece))
                    ):
                        if logprobs is None:
                            pieces.append(piece)
                            return
                        # A token with its log probability, {content: [...], refusal:
                        # null}: the list the stream keeps grows by the chunk's.
                        tokens = logprobs.get("content") if type(logprobs) is dict else None
                        held = self._tokens
                        if (
                            type(tokens) is list
                            and held is not None
                            and key == "content"
                            and len(logprobs) == 2
                            and logprobs.get("refusal", 0) is None
                            and _plain_tokens(tokens)
                        ):
                            held.extend(tokens)
                            pieces.append(piece)
                            return
            self._quick = None
        self._envelope = None
        head = self._head
        self._refuse_foreign(event, index)
        error = event.get("error")
        if error is not None:
            message = error.get("message") if isinstance(error, dict) else error
            reject(FORMAT, index, "error", message, "the API ended the stream with an error")
        if _MARKS.isdisjoint(event):
            reject(FORMAT, index, "", event, "it is not a Chat Completions chunk")
        # What the quick way above does not take is kept and merged: checked as it comes.
        check_value(FORMAT, index, "", event)
        kind = event.get("object")
        if kind is not None and kind != "chat.completion.chunk" and kind != "":
            reject(FORMAT, index, "object", kind, "a stream holds 'chat.completion.chunk' objects")
        if head is not None:
            for key in _SAME:
                value = event.get(key)
                if not value or not head.get(key) or value == head[key]:
                    continue
                reject(FORMAT, index, key, value, f"the stream's first chunk has {show(head[key])}")
            if self._closed and event.get("choices"):
                # After the usage chunk only fields of the whole reply come (moderation).
                reject(FORMAT, index, "", event, "the reply ended with its usage chunk")
        choices = event.get("choices")
        if choices is None:
            choices = ()
        elif not isinstance(choices, list):
            reject(FORMAT, index, "choices", choices, "it must be a list")
        usage = event.get("usage")
        if usage is not None and not isinstance(usage, dict):
            reject(FORMAT, index, "usage", usage, "it must be an object")
        # Check every choice first, so that a rejected chunk changes nothing.
        for position, choice in enumerate(choices):
            self._check(choice, position, index)
        if head is None:
            head = self._head = {}
        for key, value in event.items():
            if value is not None and key not in _NOT_KEPT and (value != "" or key not in head):
                if key in _SAME and key in head and head[key]:
                    continue  # the first chunk's id and model stand
                head[key] = value
        for choice in choices:
            self._apply(choice)
        if len(choices) == 1 and not self._closed:
            state = self._choices[choices[0].get("index", 0)]
            if state.finish is None:
                # The chunk the quick way compares the next ones with.
                frame = dict(choices[0])
                self._quick = (
                    {**event, "choices": [frame]},
                    frame,
                    "content",
                    state.texts.get("content"),
                )
                self._open = state
                tokens = (state.logprobs or {}).get("content")
                self._tokens = tokens if type(tokens) is list else None
        if usage is not None:
            self._usage = usage
            if not choices:
                # The usage chunk comes last: audio streams may send no finish reason.
                self._closed = True
            elif all(_no_piece(choice) for choice in choices):
                self._spent = index

    def _check(self, choice: Any, position: int, index: int) -> None:
        where = f"choices[{position}]"
        if not isinstance(choice, dict):
            reject(FORMAT, index, where, choice, "a choice is an object")
        number = choice.get("index", 0)
        if type(number) is not int or number < 0:
            reject(FORMAT, index, f"{where}.index", number, "it must be an integer >= 0")
        state = self._choices.get(number)
        delta = choice.get("delta")
        if delta is None:
            delta = {}
        elif not isinstance(delta, dict):
            reject(FORMAT, index, f"{where}.delta", delta, "a delta is an object")
        # A finished choice may still get pieces: some servers repeat the finish reason
        # on every chunk, or send a last one with empty fields; the last reason stands.
        _texts(choice, ("finish_reason",), index, where)
        _texts(delta, ("content", "refusal", "role"), index, f"{where}.delta")
        audio = delta.get("audio")
        if audio is not None and not isinstance(audio, dict):
            reject(FORMAT, index, f"{where}.delta.audio", audio, "it must be an object")
        logprobs = choice.get("logprobs")
        if logprobs is not None:
            if not isinstance(logprobs, dict):
                reject(FORMAT, index, f"{where}.logprobs", logprobs, "it must be an object")
            for key, value in logprobs.items():
                if value is not None and not isinstance(value, list):
                    reject(FORMAT, index, f"{where}.logprobs.{key}", value, "it must be a list")
        calls = delta.get("tool_calls")
        if calls is None:
            return
        if not isinstance(calls, list):
            reject(FORMAT, index, f"{where}.delta.tool_calls", calls, "it must be a list")
        known = state.calls if state is not None else []
        started = len(known)
        ids, names = [call[0] for call in known], [call[2] for call in known]
        for place, fragment in enumerate(calls):
            here = f"{where}.delta.tool_calls[{place}]"
            if not isinstance(fragment, dict):
                reject(FORMAT, index, here, fragment, "a tool-call fragment is an object")
            call = _index(fragment, ids)
            if type(call) is not int or call < 0 or call > started:
                why = (
                    f"tool call {started} is the next one: a fragment is missing or out of order"
                    if type(call) is int
                    else "it must be an integer >= 0"
                )
                reject(FORMAT, index, f"{here}.index", call, why)
            function = fragment.get("function")
            if function is None:
                function = {}
            elif not isinstance(function, dict):
                reject(FORMAT, index, f"{here}.function", function, "it must be an object")
            _texts(function, ("arguments",), index, f"{here}.function")
            _texts(fragment, ("type",), index, here)
            call_id, name = fragment.get("id"), function.get("name")
            if call == started:
                first = f"the first fragment of tool call {call}"
                if type(call_id) is not str or not call_id:
                    reject(FORMAT, index, f"{here}.id", call_id, f"{first} has its id")
                if type(name) is not str or not name:
                    why = f"{first} names its function"
                    reject(FORMAT, index, f"{here}.function.name", name, why)
                started += 1
                ids.append(call_id)
                names.append(name)
            elif call_id and call_id != ids[call]:
                reject(FORMAT, index, f"{here}.id", call_id, f"tool call {call} is {ids[call]!r}")
            elif name and name != names[call]:
                why = f"tool call {call} calls {names[call]!r}"
                reject(FORMAT, index, f"{here}.function.name", name, why)

    def _apply(self, choice: dict[str, Any]) -> None:
        number = choice.get("index", 0)
        state = self._choices.get(number)
        if state is None:
            state = self._choices[number] = _Choice()
        delta = choice.get("delta")
        for key, value in (delta or {}).items():
            if value is None:
                continue
            if key == "tool_calls":
                self._calls(state, value)
            elif key == "role":
                state.role = value
            elif key == "audio":
                # The id comes with every piece: only the audio and its words grow.
                audio = state.extra.setdefault("audio", {})
                for field, piece in value.items():
                    old = audio.get(field)
                    if field in _AUDIO_TEXT and type(piece) is str and type(old) is str:
                        audio[field] = old + piece
                    elif piece is not None:
                        audio[field] = piece
            elif type(value) is str and (key in state.texts or key not in state.extra):
                # Text (content, refusal, or a field agentmsg has no place for, such as
                # ``reasoning``): its pieces kept, joined when read.
                state.texts.setdefault(key, []).append(value)
            else:
                merge_into(state.extra, {key: value})
        logprobs = choice.get("logprobs")
        if logprobs:
            if state.logprobs is None:
                state.logprobs = {}
            merge_into(state.logprobs, logprobs)
        filters = choice.get("content_filter_results")
        if filters:
            state.filters = filters
        finish = choice.get("finish_reason")
        if finish is not None:
            if state.finish is None:
                self._finished += 1
            state.finish = finish

    @staticmethod
    def _calls(state: _Choice, fragments: list[dict[str, Any]]) -> None:
        calls = state.calls
        for fragment in fragments:
            function = fragment.get("function") or {}
            arguments = function.get("arguments")
            number = _index(fragment, [call[0] for call in calls])
            if number == len(calls):
                extra = _rest(fragment, ("index", "id", "type", "function"))
                others = _rest(function, ("name", "arguments"))
                pieces = [] if arguments is None else [arguments]
                kind = fragment.get("type") or "function"
                calls.append([fragment["id"], kind, function["name"], pieces, extra, others])
            elif arguments:
                calls[number][3].append(arguments)

    def _built(self) -> Msg | None:
        # The most frequent partial message, a reply of text alone (beside text fields
        # the conversion passes over, such as ``reasoning``), made without converting the
        # whole response at each chunk (bench streams.recorded, Chat Completions rows:
        # reading after every chunk from 4-10x accumulating to under 3x). Until the next
        # chunk that goes the full way, only the text can have changed.
        envelope = self._envelope
        made = None
        if envelope is None:
            choices = self._choices
            state = choices.get(0)
            if len(choices) != 1 or state is None or self._head is None:
                return None
            texts = state.texts
            if state.calls or "refusal" in texts or state.role != "assistant":
                return None
            if not _SHAPING.isdisjoint(state.extra) or not _SHAPING.isdisjoint(texts):
                return None
            snapshot = self._snapshot()
            assert snapshot is not None  # the head is there
            choice = {"index": 0, "message": {"role": "assistant", "content": "-"}}
            if state.finish is not None:
                choice["finish_reason"] = state.finish
            made = from_openai_chat({**snapshot, "choices": [choice]}).messages[0]
            metadata = made.to_dict()["metadata"]
            envelope = self._envelope = (metadata, made.invocation_id, texts.get("content"))
        pieces = envelope[2]
        # No content yet: the conversion makes a message of no blocks.
        content: str | list[Any] = joined(pieces) if pieces else "" if pieces == [] else []
        return trusted_msg(content, envelope[0], envelope[1], made)

    def _ended(self) -> bool:
        if (self._closed and self._head is not None) or self._spent == self._count - 1:
            return True
        return bool(self._choices) and self._finished == len(self._choices)

    def _snapshot(self) -> dict[str, Any] | None:
        head = self._head
        if head is None:
            return None
        response: dict[str, Any] = dict(head)
        if not response.get("id"):
            response.pop("id", None)  # Azure's first chunk: an empty id, no reply yet
        if not response.get("model"):
            response.pop("model", None)
        response["object"] = "chat.completion"
        response["choices"] = [
            self._choices[number].dump(number) for number in sorted(self._choices)
        ]
        if self._usage is not None:
            response["usage"] = self._usage
        return response

    def _convert(self, response: dict[str, Any], strict: bool) -> Parsed:
        if not response["choices"]:
            response["choices"] = [{"index": 0, "message": {"role": "assistant"}}]
        return from_openai_chat(response, strict=strict)
