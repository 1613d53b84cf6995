"""OpenAI Chat Completions: ``messages`` both ways."""

from __future__ import annotations

import re
from typing import Any

from ._common import (
    CONTENT_AT,
    DEFAULT_NAMES,
    NAME_AT,
    ROLE_AT,
    TOOL_RESULTS_NAME,
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
    media_of,
    need_choice,
    need_dict,
    need_key,
    need_list,
    need_str,
    output_text,
    plain,
    report_json_output,
    report_local,
    report_raw_input,
    report_tool_message,
    result_name,
    source_from_url,
)
from .._errors import MessageError
from .._message import Msg
from .._validate import is_block_list, show

__all__ = ["from_openai_chat", "to_openai_chat"]

FORMAT = "Chat Completions"
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
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
    image inside a tool result is sent in a user message right after the tool messages.
    See :ref:`provider-formats` for the whole table.

    Example:
        >>> from agentmsg import Msg, to_openai_chat
        >>> sent = to_openai_chat([Msg("user", "What is 7 times 8?", "user")])
        >>> sent.payload
        {'messages': [{'role': 'user', 'content': 'What is 7 times 8?'}]}
        >>> sent.losses
        ()

    .. versionadded:: 0.2.0
    """
    report = Report(FORMAT, strict)
    check_conversation(messages)
    out: list[dict[str, Any]] = []
    append = out.append
    calls: dict[str, str] = {}
    # The common shapes (string content, an assistant's text and tool calls, a message of
    # tool results answering known calls with text) are written inline; anything else,
    # and anything to report, takes the general path of _assistant and _user_or_system.
    for index, msg in enumerate(messages):
        if type(msg) is not Msg:
            msg = as_msg(msg, index)
        values = msg._values
        role = values[ROLE_AT]
        content: Any = values[CONTENT_AT]
        name = values[NAME_AT]
        if type(content) is str:
            if name == DEFAULT_NAMES[role]:
                append({"role": role, "content": content})
            else:
                sent = name if name in _NAMES_OK else _name(report, name, index)
                append({"role": role, "name": sent, "content": content})
            continue
        if role == "assistant":
            texts: list[dict[str, Any]] = []
            tool_calls: list[dict[str, Any]] = []
            for block in content:
                kind = block["type"]
                if kind == "text" and not tool_calls:
                    texts.append({"type": "text", "text": block["text"]})
                elif kind == "tool_use" and "raw_input" not in block:
                    call_id = block["id"]
                    tool = block["name"]
                    calls[call_id] = tool
                    function = {"name": tool, "arguments": dumps(block["input"])}
                    tool_calls.append({"id": call_id, "type": "function", "function": function})
                else:
                    break
            else:
                entry: dict[str, Any] = {"role": "assistant"}
                if name != "assistant":
                    entry["name"] = name if name in _NAMES_OK else _name(report, name, index)
                if texts or not tool_calls:
                    entry["content"] = texts
                if tool_calls:
                    entry["tool_calls"] = tool_calls
                append(entry)
                continue
            _assistant(report, out, msg, content, index, calls)
            continue
        if (
            role == "system"
            and name == "system"
            and content
            and (not out or out[-1]["role"] != "tool")
        ):
            results: list[dict[str, Any]] = []
            for block in content:
                if (
                    block["type"] != "tool_result"
                    or type(block["output"]) is not str
                    or calls.get(block["id"]) != block["name"]
                ):
                    break
                results.append(
                    {"role": "tool", "tool_call_id": block["id"], "content": block["output"]}
                )
            else:
                out.extend(results)
                continue
        _user_or_system(report, out, msg, content, index, calls)
    return Conversion({"messages": out}, tuple(report.losses))


def _name(report: Report, name: str, index: int) -> str:
    if name in _NAMES_OK:
        return name
    if _BAD_NAME.search(name) is None:
        if len(_NAMES_OK) < 1024:
            _NAMES_OK[name] = True
        return name
    sent = _BAD_NAME.sub("_", name)
    report.change(
        f"messages[{index}].name",
        f"sender name {name!r}",
        f"sent as {sent!r}",
        "Chat Completions names may not hold white space or any of < | \\ / >",
    )
    return sent


def _assistant(
    report: Report,
    out: list[dict[str, Any]],
    msg: Any,
    content: Any,
    index: int,
    calls: dict[str, str],
) -> None:
    texts: list[dict[str, Any]] = []
    tool_calls: list[dict[str, Any]] = []
    results: list[tuple[int, Any]] = []
    for position, block in enumerate(content):
        kind = block["type"]
        if kind == "text":
            if tool_calls:
                report.change(
                    f"messages[{index}].content[{position}]",
                    "text block after a tool call",
                    "moved before the tool calls",
                    "Chat Completions puts an assistant message's text before its tool calls",
                )
            texts.append({"type": "text", "text": block["text"]})
        elif kind == "tool_use":
            if "raw_input" in block:
                report_raw_input(report, block, f"messages[{index}].content[{position}]", True)
            call_id = block["id"]
            calls[call_id] = block["name"]
            tool_calls.append(
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": block["name"], "arguments": arguments_text(block)},
                }
            )
        elif kind == "tool_result":
            results.append((position, block))
        elif kind == "thinking":
            report.drop(
                f"messages[{index}].content[{position}]",
                "thinking block",
                "Chat Completions has no field for it",
                block,
            )
        else:
            report.drop(
                f"messages[{index}].content[{position}]",
                f"{kind} block in an assistant message",
                "Chat Completions assistant messages hold text and tool calls only",
                block,
            )
    entry: dict[str, Any] = {"role": "assistant"}
    if msg.name != "assistant":
        entry["name"] = _name(report, msg.name, index)
    if texts or not tool_calls:
        entry["content"] = texts
    if tool_calls:
        entry["tool_calls"] = tool_calls
    if texts or tool_calls or not content:
        out.append(entry)
    if results:
        report_tool_message(report, msg, index)
        _report_merge(report, out, index)
        _tool_messages(report, out, results, index, calls)


def _report_merge(report: Report, out: list[dict[str, Any]], index: int) -> None:
    if out and out[-1]["role"] == "tool":
        report.change(
            f"messages[{index}]",
            "tool results right after other tool results",
            "merged with them",
            "Chat Completions tool messages stand alone; consecutive ones come back as one message",
        )


def _user_or_system(
    report: Report,
    out: list[dict[str, Any]],
    msg: Any,
    content: Any,
    index: int,
    calls: dict[str, str],
) -> None:
    role = msg.role
    parts: list[dict[str, Any]] = []
    results: list[tuple[int, Any]] = []
    for position, block in enumerate(content):
        kind = block["type"]
        if kind == "text":
            parts.append({"type": "text", "text": block["text"]})
        elif kind == "tool_result":
            results.append((position, block))
        elif kind == "image" or kind == "audio":
            path = f"messages[{index}].content[{position}]"
            if role == "system":
                report.drop(
                    path, f"{kind} block", "Chat Completions system messages hold text only", block
                )
                continue
            part = _media_part(report, block, path)
            if part is not None:
                parts.append(part)
        elif kind == "thinking":
            report.drop(
                f"messages[{index}].content[{position}]",
                "thinking block",
                "Chat Completions has no field for it",
                block,
            )
        elif kind == "video":
            report.drop(
                f"messages[{index}].content[{position}]",
                "video block",
                "Chat Completions takes no video",
                block,
            )
        else:  # tool_use
            report.drop(
                f"messages[{index}].content[{position}]",
                f"tool call in a {role} message",
                "Chat Completions carries tool calls in assistant messages only",
                block,
            )
    if results:
        report_tool_message(report, msg, index)
        if not parts and len(results) == len(content) and msg.name != TOOL_RESULTS_NAME:
            report.drop(
                f"messages[{index}].name",
                f"sender name {msg.name!r}",
                "Chat Completions tool messages have no name; it comes back as 'system'",
                msg.name,
            )
        _report_merge(report, out, index)
        _tool_messages(report, out, results, index, calls)
    if parts or not content:
        entry: dict[str, Any] = {"role": role}
        if msg.name != DEFAULT_NAMES[role]:
            entry["name"] = _name(report, msg.name, index)
        entry["content"] = parts
        out.append(entry)


def _tool_messages(
    report: Report,
    out: list[dict[str, Any]],
    results: list[tuple[int, Any]],
    index: int,
    calls: dict[str, str],
) -> None:
    moved: list[dict[str, Any]] = []
    for position, block in results:
        path = f"messages[{index}].content[{position}]"
        call_id = block["id"]
        if calls.get(call_id) != block["name"]:
            report.drop(
                f"{path}.name",
                f"tool name {block['name']!r} of a tool result",
                "Chat Completions tool messages name only the call id, and no earlier tool "
                "call with that id names it",
                block["name"],
            )
        output = block["output"]
        if type(output) is str:
            sent: Any = output
        elif is_block_list(output):
            sent = []
            for item_index, item in enumerate(output):
                if item["type"] == "text":
                    sent.append({"type": "text", "text": item["text"]})
                    continue
                item_path = f"{path}.output[{item_index}]"
                if item["type"] == "video":
                    report.drop(item_path, "video block", "Chat Completions takes no video", item)
                    continue
                part = _media_part(report, item, item_path)
                if part is not None:
                    moved.append(part)
                    report.change(
                        item_path,
                        f"{item['type']} block in a tool result",
                        "sent in a user message after the tool messages",
                        "Chat Completions tool messages hold text only",
                    )
            if not sent:
                sent = ""
        else:
            report_json_output(report, path)
            sent = output_text(output)
        out.append({"role": "tool", "tool_call_id": call_id, "content": sent})
    if moved:
        out.append({"role": "user", "content": moved})


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

    .. versionadded:: 0.2.0
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
        messages, base = need_list(data["messages"], "messages"), "messages"
    else:
        msg_text = (
            "Chat Completions data must be a request payload with `messages`, a list of "
            f"messages or a response with `choices`, not {show(data)}."
        )
        raise MessageError(msg_text)
    for index, message in enumerate(messages):
        _message(report, turns, need_dict(message, f"{base}[{index}]"), f"{base}[{index}]", names)
    turns.flush(base)
    return Parsed(turns.messages, tuple(report.losses))


def _response(report: Report, turns: Turns, data: dict[str, Any], names: dict[str, str]) -> None:
    choices = need_list(data["choices"], "choices")
    metadata: dict[str, Any] = {}
    if data.get("model") is not None:
        metadata["model"] = need_str(data["model"], "model")
    if not choices:
        raise MessageError("`choices` is empty: the response holds no reply.", "choices")
    choice = need_dict(choices[0], "choices[0]")
    if choice.get("finish_reason") is not None:
        metadata["stop_reason"] = need_str(choice["finish_reason"], "choices[0].finish_reason")
    usage = data.get("usage")
    if usage is not None:
        usage = need_dict(usage, "usage")
        metadata["token_usage"] = {
            key: _count(usage, key)
            for key in ("prompt_tokens", "completion_tokens", "total_tokens")
        }
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
            "a message holds one reply; convert the first choice only",
            choices[extra],
        )
    turns.metadata = metadata or None
    if data.get("id") is not None:
        turns.invocation_id = need_str(data["id"], "id", empty=False)
    message = need_dict(need_key(choice, "message", "choices[0]"), "choices[0].message")
    _message(report, turns, message, "choices[0].message", names)
    turns.flush("choices[0].message")


def _count(usage: dict[str, Any], key: str) -> int:
    value = usage.get(key)
    if type(value) is not int or value < 0:
        msg = f"`usage.{key}` must be an integer >= 0, not {show(value)}."
        raise MessageError(msg, f"usage.{key}")
    return value


def _message(
    report: Report, turns: Turns, message: dict[str, Any], path: str, names: dict[str, str]
) -> None:
    role = need_choice(message.get("role"), _ROLES, f"{path}.role")
    if role == "tool":
        report.extra(message, _TOOL_KEYS, path)
        call_id = need_str(
            need_key(message, "tool_call_id", path), f"{path}.tool_call_id", empty=False
        )
        name = result_name(report, names, call_id, None, f"{path}.tool_call_id")
        content = need_key(message, "content", path)
        output: Any = (
            content if type(content) is str else _texts(report, content, f"{path}.content")
        )
        turns.tool_result({"type": "tool_result", "id": call_id, "name": name, "output": output})
        return
    if role == "function":
        report.extra(message, _FUNCTION_KEYS, path)
        name = need_str(need_key(message, "name", path), f"{path}.name", empty=False)
        content = need_str(message.get("content") or "", f"{path}.content")
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
    content = need_key(message, "content", path)
    if type(content) is str:
        turns.add(sender, content, role, path)
        return
    blocks = [
        block
        for position, part in enumerate(need_list(content, f"{path}.content"))
        if (block := _part(report, part, f"{path}.content[{position}]")) is not None
    ]
    turns.add(sender, blocks, role, path)


def _sender(message: dict[str, Any], role: str, path: str) -> str:
    name = message.get("name")
    if name is None:
        return DEFAULT_NAMES[role]
    return need_str(name, f"{path}.name", empty=False)


def _texts(report: Report, content: Any, path: str) -> list[dict[str, Any]]:
    blocks = []
    for position, part in enumerate(need_list(content, path)):
        block = _part(report, part, f"{path}[{position}]")
        if block is not None:
            blocks.append(block)
    return blocks


def _part(report: Report, part: Any, path: str) -> dict[str, Any] | None:
    part = need_dict(part, path)
    kind = part.get("type")
    if kind == "text":
        report.extra(part, frozenset({"type", "text"}), path)
        return {"type": "text", "text": need_str(need_key(part, "text", path), f"{path}.text")}
    if kind == "image_url":
        report.extra(part, frozenset({"type", "image_url"}), path)
        image = need_dict(need_key(part, "image_url", path), f"{path}.image_url")
        detail = image.get("detail")
        if detail is not None and detail != "auto":
            report.drop(
                f"{path}.image_url.detail",
                "image detail",
                "agentmsg's image block has no field for it",
                detail,
            )
        report.extra(image, frozenset({"url", "detail"}), f"{path}.image_url")
        url = need_str(need_key(image, "url", f"{path}.image_url"), f"{path}.image_url.url")
        return {"type": "image", "source": source_from_url(url)}
    if kind == "input_audio":
        report.extra(part, frozenset({"type", "input_audio"}), path)
        audio = need_dict(need_key(part, "input_audio", path), f"{path}.input_audio")
        report.extra(audio, frozenset({"data", "format"}), f"{path}.input_audio")
        audio_format = need_choice(
            audio.get("format"), ("wav", "mp3"), f"{path}.input_audio.format"
        )
        data = need_str(need_key(audio, "data", f"{path}.input_audio"), f"{path}.input_audio.data")
        source = {"type": "base64", "media_type": AUDIO_TYPES[audio_format], "data": data}
        return {"type": "audio", "source": source}
    if kind == "refusal":
        report.extra(part, frozenset({"type", "refusal"}), path)
        text = need_str(need_key(part, "refusal", path), f"{path}.refusal")
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
    if type(content) is str:
        blocks.append({"type": "text", "text": content})
    elif content is not None:
        blocks.extend(_texts(report, content, f"{path}.content"))
    refusal = message.get("refusal")
    if refusal is not None:
        text = need_str(refusal, f"{path}.refusal")
        report.change(
            f"{path}.refusal", "refusal", "kept as a text block", "agentmsg has no refusal block"
        )
        blocks.append({"type": "text", "text": text})
    calls = message.get("tool_calls")
    if calls is not None:
        for position, call in enumerate(need_list(calls, f"{path}.tool_calls")):
            block = _tool_call(report, call, f"{path}.tool_calls[{position}]")
            if block is not None:
                names[block["id"]] = block["name"]
                blocks.append(block)
    function_call = message.get("function_call")
    if function_call is not None:
        function_call = need_dict(function_call, f"{path}.function_call")
        name = need_str(
            need_key(function_call, "name", f"{path}.function_call"),
            f"{path}.function_call.name",
            empty=False,
        )
        tool_input, extra = arguments_input(
            report, function_call.get("arguments", "{}"), f"{path}.function_call.arguments"
        )
        call_id = f"call_{name}"
        names[call_id] = name
        blocks.append(
            {"type": "tool_use", "id": call_id, "name": name, "input": tool_input, **extra}
        )
    if type(content) is str and len(blocks) == 1:
        turns.add(sender, content, "assistant", path)
    else:
        turns.add(sender, blocks, "assistant", path)


def _tool_call(report: Report, call: Any, path: str) -> dict[str, Any] | None:
    call = need_dict(call, path)
    kind = call.get("type", "function")
    call_id = need_str(need_key(call, "id", path), f"{path}.id", empty=False)
    if kind == "custom":
        custom = need_dict(need_key(call, "custom", path), f"{path}.custom")
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
    function = need_dict(need_key(call, "function", path), f"{path}.function")
    report.extra(function, frozenset({"name", "arguments"}), f"{path}.function")
    name = need_str(
        need_key(function, "name", f"{path}.function"), f"{path}.function.name", empty=False
    )
    tool_input, extra = arguments_input(
        report, function.get("arguments", "{}"), f"{path}.function.arguments"
    )
    return {"type": "tool_use", "id": call_id, "name": name, "input": tool_input, **extra}
