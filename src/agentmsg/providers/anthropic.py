"""Anthropic Messages: ``system`` and ``messages`` both ways."""

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
    system_prompt,
)

__all__ = ["from_anthropic", "to_anthropic"]

FORMAT = "Anthropic Messages"
STATE_FORMAT = "anthropic"


# -- to ----------------------------------------------------------------------------------


def to_anthropic(messages: Any, *, strict: bool = False) -> Conversion:
    """Convert a conversation to the ``system`` and ``messages`` of an Anthropic request.

    Args:
        messages: A list of :class:`~agentmsg.Msg` and role messages, oldest first.
        strict: Raise instead of reporting something dropped.

    Returns:
        A :class:`~agentmsg.Conversion` whose payload holds ``messages``, and
        ``system`` when there is a system message, with what could not be carried as it
        was.

    Raises:
        MessageError: The conversation is not a list of messages; in strict mode,
            also when something would be dropped (the text names its path).

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

    .. versionadded:: 0.2.0
    """
    report = Report(FORMAT, strict)
    conversation = messages_in(messages)
    texts, as_str = system_prompt(report, conversation)
    out: list[dict[str, Any]] = []
    calls: dict[str, str] = {}
    for index, msg in enumerate(conversation):
        role = msg.role
        content: Any = msg.content
        if not isinstance(content, str) and any(b["type"] == "tool_result" for b in content):
            _results_message(report, out, msg, content, index, calls)
        if role == "system" or is_tool_results(msg):
            continue  # the text went to the system prompt, the tool results are sent
        report.name(msg, index, DEFAULT_NAMES[role])
        if isinstance(content, str):
            out.append({"role": role, "content": content})
            continue
        blocks: list[dict[str, Any]] = []
        for position, block in enumerate(content):
            kind = block["type"]
            path = f"messages[{index}].content[{position}]"
            if kind == "text":
                blocks.append({"type": "text", "text": block["text"]})
            elif kind == "tool_result":
                continue  # sent by _results_message
            elif kind == "tool_use" and role == "assistant":
                calls[block["id"]] = block["name"]
                if "raw_input" in block:
                    report_raw_input(report, block, path)
                blocks.append(
                    {
                        "type": "tool_use",
                        "id": block["id"],
                        "name": block["name"],
                        "input": block["input"],
                    }
                )
            elif kind == "image" and role == "user":
                image = _image(report, block, path)
                if image is not None:
                    blocks.append(image)
            elif kind == "thinking":
                state = state_of(msg, STATE_FORMAT) if role == "assistant" else {}
                signature = state_field(state, position, "signature")
                redacted = state_field(state, position, "redacted")
                if signature is not None:
                    blocks.append(
                        {"type": "thinking", "thinking": block["thinking"], "signature": signature}
                    )
                elif redacted is not None:
                    blocks.append({"type": "redacted_thinking", "data": redacted})
                else:
                    why = (
                        "an Anthropic thinking block needs the signature the API gave it, and "
                        "this message's metadata keeps none for it"
                        if role == "assistant"
                        else "Anthropic takes thinking from the assistant only"
                    )
                    report.drop(path, "thinking block", why, block)
            elif kind == "tool_use":
                report.drop(
                    path,
                    "tool call in a user message",
                    "Anthropic tool calls come from the assistant only",
                    block,
                )
            elif kind == "image":
                report.drop(
                    path,
                    "image block in an assistant message",
                    "Anthropic assistant messages hold text, thinking and tool calls",
                    block,
                )
            else:
                report.drop(path, f"{kind} block", f"Anthropic Messages takes no {kind}", block)
        if blocks or not content:
            out.append({"role": role, "content": blocks})
    payload: dict[str, Any] = {}
    if texts:
        payload["system"] = (
            texts[0] if as_str else [{"type": "text", "text": text} for text in texts]
        )
    payload["messages"] = out
    return Conversion(payload, tuple(report.losses))


def _results_message(
    report: Report,
    out: list[dict[str, Any]],
    msg: Any,
    content: Any,
    index: int,
    calls: dict[str, str],
) -> None:
    """The tool results of *msg*, as one user message of ``tool_result`` blocks."""
    results = [
        (position, block)
        for position, block in enumerate(content)
        if block["type"] == "tool_result"
    ]
    if not results:
        return
    report_tool_message(report, msg, index)
    if is_tool_results(msg):
        report.name(msg, index, TOOL_RESULTS_NAME)
    blocks = []
    for position, block in results:
        path = f"messages[{index}].content[{position}]"
        if calls.get(block["id"]) != block["name"]:
            report.drop(
                f"{path}.name",
                f"tool name {block['name']!r} of a tool result",
                "an Anthropic tool result names only the call id, and no earlier tool call "
                "with that id names it",
                block["name"],
            )
        output = block["output"]
        sent: Any
        if type(output) is str:
            sent = output
        elif is_block_list(output):
            sent = []
            for item_index, item in enumerate(output):
                item_path = f"{path}.output[{item_index}]"
                if item["type"] == "text":
                    sent.append({"type": "text", "text": item["text"]})
                elif item["type"] == "image":
                    image = _image(report, item, item_path)
                    if image is not None:
                        sent.append(image)
                else:
                    report.drop(
                        item_path,
                        f"{item['type']} block in a tool result",
                        "Anthropic tool results hold text and images",
                        item,
                    )
            if not sent:
                sent = ""
        else:
            report_json_output(report, path)
            sent = output_text(output)
        blocks.append({"type": "tool_result", "tool_use_id": block["id"], "content": sent})
    out.append({"role": "user", "content": blocks})


def _image(report: Report, block: dict[str, Any], path: str) -> dict[str, Any] | None:
    media = media_of(block["source"])
    if media.form == "url":
        return {"type": "image", "source": {"type": "url", "url": media.data}}
    if media.form == "local":
        report_local(report, path, "image block", media.data)
        return None
    if media.form == "data_url":
        report.drop(
            path,
            "image in a data: URL that is not base64",
            "Anthropic takes base64 data or an http URL",
            block,
        )
        return None
    if media.media_type not in IMAGE_TYPES:
        report.drop(
            path,
            f"{media.media_type} image",
            "Anthropic takes JPEG, PNG, GIF and WebP images",
            block,
        )
        return None
    source = {"type": "base64", "media_type": media.media_type, "data": media.data}
    return {"type": "image", "source": source}


# -- from --------------------------------------------------------------------------------

_MESSAGE_KEYS = frozenset({"role", "content"})
_RESPONSE_KEYS = frozenset(
    {
        "id",
        "type",
        "role",
        "content",
        "model",
        "stop_reason",
        "stop_sequence",
        "usage",
        "container",
        "stop_details",
    }
)


def from_anthropic(data: Any, *, strict: bool = False) -> Parsed:
    """Read messages from Anthropic Messages data.

    Args:
        data: A request payload (a dict with ``messages`` and maybe ``system``), a list
            of messages, or a response: a ``Message`` of the ``anthropic`` package or its
            JSON as a dict.
        strict: Raise instead of reporting something dropped.

    Returns:
        The messages and what agentmsg could not carry, as a
        :class:`~agentmsg.Parsed`.

    Raises:
        MessageError: The data is not data of this format (the text names the path
            and the value); in strict mode, also when something would be dropped.

    The system prompt becomes a first system message. The tool results of a user message
    become a message of tool results with role ``"system"``, apart from the rest of it;
    each result takes its tool name from the call with the same id. A thinking block
    keeps its text, and its signature goes to the message's metadata, under
    ``provider_state``, for :func:`to_anthropic` to send back. A
    response's id is the message's ``invocation_id``; its metadata holds ``model``,
    ``stop_reason`` and ``token_usage``.

    .. versionadded:: 0.2.0
    """
    report = Report(FORMAT, strict)
    data = plain(data)
    turns = Turns()
    names: dict[str, str] = {}
    if isinstance(data, dict) and "messages" not in data and ("content" in data or "type" in data):
        _envelope(report, turns, data)
        _message(report, turns, data, "", names, response=True)
        return Parsed(turns.messages, tuple(report.losses))
    if isinstance(data, list):
        messages = data
    elif isinstance(data, dict) and "messages" in data:
        system = data.get("system")
        if system is not None:
            if type(system) is str:
                turns.add("system", system, "system", "system")
            else:
                turns.add(
                    "system",
                    _blocks(report, system, "system", names, SYSTEM_KEPT),
                    "system",
                    "system",
                )
        messages = check_array(data["messages"], "messages")
    else:
        msg = (
            "Anthropic data must be a request payload with `messages`, a list of messages "
            f"or a response message, not {show(data)}."
        )
        raise MessageError(msg)
    for index, message in enumerate(messages):
        path = f"messages[{index}]"
        _message(report, turns, check_object(message, path), path, names)
    turns.flush("messages")
    return Parsed(turns.messages, tuple(report.losses))


def _envelope(report: Report, turns: Turns, data: dict[str, Any]) -> None:
    metadata: dict[str, Any] = {}
    if data.get("model") is not None:
        metadata["model"] = check_str(data["model"], "model")
    if data.get("stop_reason") is not None:
        metadata["stop_reason"] = check_str(data["stop_reason"], "stop_reason")
    usage = data.get("usage")
    if usage is not None:
        usage = check_object(usage, "usage")
        counts = []
        for key in ("input_tokens", "output_tokens"):
            value = usage.get(key)
            if type(value) is not int or value < 0:
                msg = f"`usage.{key}` must be an integer >= 0, not {show(value)}."
                raise MessageError(msg, f"usage.{key}")
            counts.append(value)
        metadata["token_usage"] = {
            "prompt_tokens": counts[0],
            "completion_tokens": counts[1],
            "total_tokens": counts[0] + counts[1],
        }
    turns.metadata = metadata or None
    if data.get("id") is not None:
        turns.invocation_id = check_name(data["id"], "id")


def _message(
    report: Report,
    turns: Turns,
    message: dict[str, Any],
    path: str,
    names: dict[str, str],
    *,
    response: bool = False,
) -> None:
    role = check_choice(
        message.get("role"), f"{path}.role" if path else "role", ("user", "assistant", "system")
    )
    if not response:
        report.extra(message, _MESSAGE_KEYS, path)
    here = f"{path}.content" if path else "content"
    content = check_key(message, "content", path or "message")
    if type(content) is str:
        turns.add(DEFAULT_NAMES[role], content, role, path or "content")
        return
    items = check_array(content, here)
    pending: list[Any] = []
    keep: dict[str, Any] = {}
    for position, item in enumerate(items):
        item_path = f"{here}[{position}]"
        item = check_object(item, item_path)
        if item.get("type") == "tool_result" and role == "user":
            if pending:
                turns.add(
                    DEFAULT_NAMES[role], pending, role, path or "content", (STATE_FORMAT, keep)
                )
                pending, keep = [], {}
            turns.tool_result(_tool_result(report, item, item_path, names))
            continue
        block = _block(report, item, item_path, names, role, keep, len(pending))
        if block is not None:
            if not pending:
                turns.flush(item_path)
            pending.append(block)
    if pending or not items:
        turns.add(DEFAULT_NAMES[role], pending, role, path or "content", (STATE_FORMAT, keep))
    turns.flush(here)  # a message's tool results stay apart from the next message's


def _blocks(
    report: Report,
    content: Any,
    path: str,
    names: dict[str, str],
    kept: tuple[tuple[str, ...], str, str] | None = None,
) -> list[Any]:
    """The blocks of the list *content*; with *kept* ``(types, what, why)``, a block of
    another type is reported dropped as ``"<type> <what>"``, because *why*."""
    blocks = []
    for position, item in enumerate(check_array(content, path)):
        item_path = f"{path}[{position}]"
        item = check_object(item, item_path)
        if kept is not None and item.get("type") not in kept[0]:
            report.drop(item_path, f"{item.get('type')!s} {kept[1]}", kept[2], item)
            continue
        block = _block(report, item, item_path, names, "user")
        if block is not None:
            blocks.append(block)
    return blocks


#: The blocks a system prompt keeps (:func:`_blocks`).
SYSTEM_KEPT = (("text",), "block", "agentmsg's system messages hold text here")
#: The blocks a tool result keeps (:func:`_blocks`).
RESULT_KEPT = (
    ("text", "image"),
    "block in a tool result",
    "agentmsg's tool output holds text, image, audio and video",
)


def _block(
    report: Report,
    item: dict[str, Any],
    path: str,
    names: dict[str, str],
    role: str,
    keep: dict[str, Any] | None = None,
    index: int = 0,
) -> Any:
    """The agentmsg block of one Anthropic block, or None (reported) when there is none.

    *keep* collects, by block *index*, what the block needs to be sent back (a thinking
    block's signature) for the message's provider state; without it, that is dropped.
    """
    kind = item.get("type")
    if kind == "text":
        report.extra(item, frozenset({"type", "text"}), path)
        return {"type": "text", "text": check_str(check_key(item, "text", path), f"{path}.text")}
    if kind == "image":
        report.extra(item, frozenset({"type", "source"}), path)
        source = check_object(check_key(item, "source", path), f"{path}.source")
        source_type = source.get("type")
        if source_type == "base64":
            report.extra(source, frozenset({"type", "media_type", "data"}), f"{path}.source")
            media_type = check_str(
                check_key(source, "media_type", f"{path}.source"), f"{path}.source.media_type"
            )
            data = check_str(check_key(source, "data", f"{path}.source"), f"{path}.source.data")
            return {
                "type": "image",
                "source": {"type": "base64", "media_type": media_type, "data": data},
            }
        if source_type == "url":
            report.extra(source, frozenset({"type", "url"}), f"{path}.source")
            url = check_str(check_key(source, "url", f"{path}.source"), f"{path}.source.url")
            return {"type": "image", "source": source_from_url(url)}
        report.drop(
            path, f"image from a {source_type!s} source", "agentmsg has no source for it", item
        )
        return None
    if kind == "thinking":
        report.extra(item, frozenset({"type", "thinking", "signature"}), path)
        thinking = check_str(check_key(item, "thinking", path), f"{path}.thinking")
        signature = item.get("signature")
        if signature:
            signature = check_str(signature, f"{path}.signature")
            if keep is not None:
                keep[str(index)] = {"signature": signature}
            else:
                report.drop(
                    f"{path}.signature",
                    "thinking signature",
                    "agentmsg keeps signatures of assistant messages only",
                    signature,
                )
        return {"type": "thinking", "thinking": thinking}
    if kind == "redacted_thinking" and keep is not None:
        report.extra(item, frozenset({"type", "data"}), path)
        data = check_name(check_key(item, "data", path), f"{path}.data")
        keep[str(index)] = {"redacted": data}
        report.change(
            path,
            "redacted thinking",
            "kept as an empty thinking block, its data in the message's provider state",
            "agentmsg has no block for encrypted thinking",
        )
        return {"type": "thinking", "thinking": ""}
    if kind == "tool_use":
        report.extra(item, frozenset({"type", "id", "name", "input"}), path)
        call_id = check_name(check_key(item, "id", path), f"{path}.id")
        name = check_name(check_key(item, "name", path), f"{path}.name")
        tool_input = check_object(item.get("input", {}), f"{path}.input")
        names[call_id] = name
        return {"type": "tool_use", "id": call_id, "name": name, "input": tool_input}
    report.drop(path, f"{kind!s} block", "agentmsg has no block for it", item)
    return None


def _tool_result(
    report: Report, item: dict[str, Any], path: str, names: dict[str, str]
) -> dict[str, Any]:
    report.extra(item, frozenset({"type", "tool_use_id", "content", "is_error"}), path)
    call_id = check_name(check_key(item, "tool_use_id", path), f"{path}.tool_use_id")
    if item.get("is_error"):
        report.drop(
            f"{path}.is_error",
            "error flag of a tool result",
            "agentmsg's tool result has no field for it",
            True,
        )
    content = item.get("content", "")
    output: Any
    if type(content) is str:
        output = content
    else:
        output = _blocks(report, content, f"{path}.content", names, RESULT_KEPT) or ""
    name = result_name(report, names, call_id, None, f"{path}.tool_use_id")
    return {"type": "tool_result", "id": call_id, "name": name, "output": output}
