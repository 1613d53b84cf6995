"""OpenAI Responses: ``input`` items both ways."""

from __future__ import annotations

from typing import Any

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
    Conversion,
    Parsed,
    Report,
    Turns,
    arguments_input,
    arguments_text,
    data_url,
    is_tool_results,
    media_of,
    messages_in,
    output_text,
    plain,
    report_json_output,
    report_local,
    report_raw_input,
    report_tool_message,
    result_name,
    source_from_url,
    state_field,
    state_of,
)

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

    .. versionadded:: 0.2.0
    """
    report = Report(FORMAT, strict)
    out: list[dict[str, Any]] = []
    calls: dict[str, str] = {}
    previous_role = ""
    for index, msg in enumerate(messages_in(messages)):
        role = msg.role
        content: Any = msg.content
        results = is_tool_results(msg)
        kind = "tools" if results else role
        if kind == previous_role and kind in ("assistant", "tools"):
            report.change(
                f"messages[{index}]",
                "message right after another of the same kind",
                "merged with the one before",
                "Responses input is a flat list of items; consecutive assistant items, and "
                "consecutive tool outputs, come back as one message",
            )
        previous_role = kind
        report.name(msg, index, TOOL_RESULTS_NAME if results else DEFAULT_NAMES[role])
        if isinstance(content, str):
            out.append({"type": "message", "role": role, "content": content})
        elif role == "assistant":
            _assistant(report, out, msg, content, index, calls)
        else:
            _user_or_system(report, out, msg, content, index, calls)
    return Conversion({"input": out}, tuple(report.losses))


def _assistant(
    report: Report,
    out: list[dict[str, Any]],
    msg: Any,
    content: Any,
    index: int,
    calls: dict[str, str],
) -> None:
    results = []
    for position, block in enumerate(content):
        kind = block["type"]
        path = f"messages[{index}].content[{position}]"
        if kind == "text":
            out.append({"type": "message", "role": "assistant", "content": block["text"]})
        elif kind == "tool_use":
            if "raw_input" in block:
                report_raw_input(report, block, path, True)
            calls[block["id"]] = block["name"]
            out.append(
                {
                    "type": "function_call",
                    "call_id": block["id"],
                    "name": block["name"],
                    "arguments": arguments_text(block),
                }
            )
        elif kind == "tool_result":
            results.append((position, block))
        elif kind == "thinking":
            state = state_of(msg, STATE_FORMAT)
            reasoning_id = state_field(state, position, "id")
            if reasoning_id is None:
                report.drop(
                    path,
                    "thinking block",
                    "a Responses reasoning item needs the id the API gave it, and this "
                    "message's metadata keeps none for it",
                    block,
                )
                continue
            text = block["thinking"]
            parts = [{"type": "summary_text", "text": text}] if text else []
            item: dict[str, Any] = {"type": "reasoning", "id": reasoning_id, "summary": parts}
            if state_field(state, position, "text_in") == "content":
                item["summary"] = []
                item["content"] = [{"type": "reasoning_text", "text": text}] if text else []
            encrypted = state_field(state, position, "encrypted_content")
            if encrypted is not None:
                item["encrypted_content"] = encrypted
            out.append(item)
        else:
            report.drop(
                path,
                f"{kind} block in an assistant message",
                "Responses assistant messages hold text only",
                block,
            )
    if not content:
        out.append({"type": "message", "role": "assistant", "content": ""})
    if results:
        report_tool_message(report, msg, index)
        _outputs(report, out, results, index, calls)


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
    results = []
    for position, block in enumerate(content):
        kind = block["type"]
        path = f"messages[{index}].content[{position}]"
        if kind == "text":
            parts.append({"type": "input_text", "text": block["text"]})
        elif kind == "tool_result":
            results.append((position, block))
        elif kind == "image" and role != "system":
            url = _image_url(report, block, path)
            if url is not None:
                parts.append({"type": "input_image", "image_url": url, "detail": "auto"})
        elif kind in ("image", "audio", "video"):
            why = (
                "Responses system messages hold text only"
                if kind == "image"
                else f"Responses messages take no {kind}"
            )
            report.drop(path, f"{kind} block", why, block)
        elif kind == "thinking":
            report.drop(
                path, "thinking block", "Responses takes reasoning from the model only", block
            )
        else:
            report.drop(
                path,
                f"tool call in a {role} message",
                "Responses tool calls come from the assistant only",
                block,
            )
    if results:
        report_tool_message(report, msg, index)
        _outputs(report, out, results, index, calls)
    if parts or not content:
        out.append({"type": "message", "role": role, "content": parts})


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


def _outputs(
    report: Report,
    out: list[dict[str, Any]],
    results: list[tuple[int, Any]],
    index: int,
    calls: dict[str, str],
) -> None:
    for position, block in results:
        path = f"messages[{index}].content[{position}]"
        if calls.get(block["id"]) != block["name"]:
            report.drop(
                f"{path}.name",
                f"tool name {block['name']!r} of a tool result",
                "a Responses function call output names only the call id, and no earlier "
                "tool call with that id names it",
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
                    url = _image_url(report, item, item_path)
                    if url is not None:
                        sent.append({"type": "input_image", "image_url": url})
                else:
                    report.drop(
                        item_path,
                        f"{item['type']} block in a tool result",
                        "Responses function call outputs hold text, images and files",
                        item,
                    )
            if not sent:
                sent = ""
        else:
            report_json_output(report, path)
            sent = output_text(output)
        out.append({"type": "function_call_output", "call_id": block["id"], "output": sent})


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

    .. versionadded:: 0.2.0
    """
    report = Report(FORMAT, strict)
    data = plain(data)
    turns = Turns()
    if isinstance(data, list):
        items, base = data, "input"
    elif isinstance(data, dict) and "output" in data:
        _response_envelope(turns, data)
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
                if type(content) is str:
                    if not assistant.blocks and assistant.only_text is None:
                        assistant.only_text = content
                    assistant.blocks.append({"type": "text", "text": content})
                else:
                    assistant.only_text = None
                    assistant.blocks.extend(_parts(report, content, f"{path}.content"))
                continue
            _flush_assistant(turns, assistant, path)
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
        elif kind == "reasoning":
            turns.flush(path)
            assistant.only_text = None
            _reasoning(report, item, path, assistant)
        elif kind == "function_call_output":
            _flush_assistant(turns, assistant, path)
            report.extra(item, _OUTPUT_KEYS, path)
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
    return Parsed(turns.messages, tuple(report.losses))


def _flush_assistant(turns: Turns, assistant: _Assistant, path: str) -> None:
    if not assistant.blocks:
        return
    single = assistant.only_text if len(assistant.blocks) == 1 else None
    content = single if single is not None else assistant.blocks
    turns.add("assistant", content, "assistant", path, (STATE_FORMAT, assistant.state))
    assistant.blocks = []
    assistant.only_text = None
    assistant.state = {}


def _response_envelope(turns: Turns, data: dict[str, Any]) -> None:
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
    if len(texts[source]) > 1:
        report.change(
            f"{path}.{source}",
            f"{len(texts[source])} {source} parts",
            "joined into one thinking block",
            "agentmsg keeps one thinking block per reasoning item",
        )
    kept: dict[str, Any] = {}
    if item.get("id") is not None:
        kept["id"] = check_name(item["id"], f"{path}.id")
        if item.get("encrypted_content") is not None:
            kept["encrypted_content"] = check_str(
                item["encrypted_content"], f"{path}.encrypted_content"
            )
        if source == "content":
            kept["text_in"] = "content"
        assistant.state[str(len(assistant.blocks))] = kept
    elif item.get("encrypted_content") is not None:
        report.drop(
            f"{path}.encrypted_content",
            "encrypted reasoning of a reasoning item without an id",
            "Responses takes reasoning back only with its id",
            item["encrypted_content"],
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
