"""The rules of the role messages (``_messages.py``): their fields, payloads and Msg forms.

Like :mod:`agentmsg._validate`'s, each check takes a value and its field path, and returns
a private copy or raises :class:`~agentmsg.MessageError` naming the path and the value.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._blocks import MEDIA_KINDS
from .._containers import DICT_TYPES, LIST_TYPES
from .._errors import MessageError, TokenCountError
from .._validate import (
    as_dict,
    check_block,
    check_id,
    check_json,
    check_name,
    check_str,
    is_mapping,
    must_be,
    not_a_field,
    show,
    with_article,
)

_FUNCTION_CALL_KEYS = ("name", "thoughts", "arguments", "id")
_USAGE_COUNTS = ("prompt_tokens", "completion_tokens", "total_tokens")
_USAGE_KEYS = (*_USAGE_COUNTS, "plugins")
_USAGE_REQUIRED = ("prompt_tokens", "completion_tokens")


def _dict_field(
    value: Any, path: str, shape: str, allowed: tuple[str, ...], required: tuple[str, ...]
) -> dict[str, Any] | None:
    """None, or *value* (a Mapping, a dict *shape*) as a plain dict of *allowed* keys."""
    if value is None:
        return None
    if not is_mapping(value):
        raise must_be(path, f"a dict {shape}, or None", value)
    fields = as_dict(value, path, "a dict")
    for key in fields:
        if key not in allowed:
            names = ", ".join(f"`{name}`" for name in allowed)
            raise not_a_field(f"{path}.{key}", f"`{path}`", names, fields[key])
    for key in required:
        if key not in fields:
            msg = f"`{path}` has no `{key}` field: {show(fields)}."
            raise MessageError(msg, f"{path}.{key}")
    return fields


def check_function_call(
    value: Any, path: str = "function_call", *, piece: bool = False
) -> dict[str, Any] | None:
    """None, or a function call (a streamed *piece* of one may lack the ``name``)."""
    required = (
        ("arguments",)
        if piece and is_mapping(value) and "name" not in value
        else ("name", "arguments")
    )
    value = _dict_field(value, path, "with `name` and `arguments`", _FUNCTION_CALL_KEYS, required)
    if value is None:
        return None
    call: dict[str, Any] = {}
    if "name" in value:
        name = value["name"]
        # ERNIE Bot Agent's remote toolkit writes "" for an example answer that calls nothing.
        call["name"] = "" if name == "" else check_name(name, f"{path}.name")
    if "thoughts" in value:
        call["thoughts"] = check_str(value["thoughts"], f"{path}.thoughts")
    call["arguments"] = check_str(value["arguments"], f"{path}.arguments")
    if "id" in value:
        call["id"] = check_id(value["id"], f"{path}.id")
    return call


def check_count(value: Any, path: str = "token_count") -> int:
    """A token count: an integer >= 0 (a bool is not one)."""
    if type(value) is int and value >= 0:
        return value
    raise must_be(path, "an integer >= 0", value, TokenCountError)


def check_token_usage(value: Any, path: str = "token_usage") -> dict[str, Any] | None:
    """None, or a usage report (:class:`~agentmsg.TokenUsage`), kept as given: no count made
    up."""
    shape = "with `prompt_tokens`, `completion_tokens` and optionally `total_tokens`"
    value = _dict_field(value, path, shape, _USAGE_KEYS, _USAGE_REQUIRED)
    if value is None:
        return None
    usage: dict[str, Any] = {
        key: check_count(value[key], f"{path}.{key}") for key in _USAGE_COUNTS if key in value
    }
    if "plugins" in value:
        usage["plugins"] = _check_plugin_usage(value["plugins"], f"{path}.plugins")
    return usage


def _check_plugin_usage(value: Any, path: str) -> list[dict[str, Any]]:
    """The ``plugins`` of a usage report: dicts of a plugin ``name`` and its counts."""
    if type(value) not in LIST_TYPES:
        raise must_be(path, "a list of dicts, one per plugin", value)
    plugins = []
    for index, item in enumerate(value):
        here = f"{path}[{index}]"
        if not is_mapping(item) or "name" not in (item := as_dict(item, here, "a dict")):
            raise must_be(here, "a dict of the plugin's `name` and counts", item)
        plugin: dict[str, Any] = {}
        for key, count in item.items():
            if type(key) is not str:
                msg = f"`{here}` has a key that is not a string: {show(key)}."
                raise MessageError(msg, here)
            where = f"{here}.{key}"
            plugin[key] = check_name(count, where) if key == "name" else check_count(count, where)
        plugins.append(plugin)
    return plugins


def check_search_info(value: Any, path: str = "search_info") -> dict[str, Any] | None:
    """None, or the search results a chat API quoted: ``{"results": [{...}, ...]}``."""
    value = _dict_field(value, path, "with `results` (a list of dicts)", ("results",), ("results",))
    if value is None:
        return None
    results = value["results"]
    if type(results) not in LIST_TYPES or not all(map(is_mapping, results)):
        raise must_be(f"{path}.results", "a list of dicts, one per search result", results)
    checked: dict[str, Any] = check_json(value, path)
    return checked


def check_plugin_info(value: Any, path: str = "plugin_info") -> dict[str, Any] | None:
    """None, or the plugins a chat API used: ``{"names": ["...", ...]}``."""
    shape = "with `names` (a list of plugin names)"
    value = _dict_field(value, path, shape, ("names",), ("names",))
    if value is None:
        return None
    names = value["names"]
    if type(names) not in LIST_TYPES:
        raise must_be(f"{path}.names", "a list of plugin names", names)
    return {
        "names": [check_name(name, f"{path}.names[{index}]") for index, name in enumerate(names)]
    }


def check_clarify(value: Any, path: str = "clarify") -> bool:
    """Whether a reply asks the user to clarify: True or False (None counts as False)."""
    if value is None or value is False:
        return False
    if value is True:
        return True
    raise must_be(path, "True or False", value)


def check_files(value: Any, path: str = "files") -> list[dict[str, Any]]:
    """None (no files), or a list of image, audio and video blocks."""
    if value is None:
        return []
    if type(value) not in LIST_TYPES and type(value) is not tuple:
        raise must_be(path, "a list of image, audio or video blocks", value)
    blocks = []
    for index, block in enumerate(value):
        here = f"{path}[{index}]"
        checked = check_block(block, here)
        if checked["type"] not in MEDIA_KINDS:
            msg = f"`{here}` must be an image, audio or video block, not a {checked['type']} block."
            raise MessageError(msg, f"{here}.type")
        blocks.append(checked)
    return blocks


def check_arguments(text: str, path: str = "function_call.arguments") -> dict[str, Any]:
    """The arguments text of a function call, parsed: it must hold a JSON object."""
    import json  # here, not at the top: `import agentmsg` stays light

    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as error:
        msg = f"`{path}` is not valid JSON ({error}): {show(text)}."
        raise MessageError(msg, path) from None
    if type(value) not in DICT_TYPES:
        msg = f"`{path}` must hold a JSON object of the arguments, not {show(value)}."
        raise MessageError(msg, path)
    try:
        checked: dict[str, Any] = check_json(value, path)
    except RecursionError:
        msg = f"`{path}` is nested too deeply: {show(text)}."
        raise MessageError(msg, path) from None
    return checked


def check_payload_role(data: Any, roles: Iterable[str]) -> str:
    """A chat payload is a dict whose ``role`` is one of *roles*; returns the role."""
    if not is_mapping(data):
        msg = f"A chat payload must be a dict, not {type(data).__name__}: {show(data)}."
        raise MessageError(msg)
    role = data.get("role")
    names = tuple(roles)
    if not isinstance(role, str) or role not in names:
        raise must_be("role", f"one of {', '.join(repr(name) for name in names)}", role)
    return role


def check_payload_keys(data: dict[str, Any], role: str, allowed: tuple[str, ...]) -> None:
    """A chat payload has only the keys of its role's payload, ``content`` among them."""
    for key in data:
        if key not in allowed:
            names = ", ".join(f"`{name}`" for name in allowed)
            raise not_a_field(str(key), f"a {role} payload", names, data[key])
    if "content" not in data:
        msg = f"The payload has no `content` field: {show(data)}."
        raise MessageError(msg, "content")


def check_blocks_for(content: Any, allowed: tuple[str, ...], target: str) -> list[Any]:
    """A Msg's content as blocks (a str is one text block), each one that *target* carries."""
    if type(content) is str:
        return [{"type": "text", "text": content}]
    for index, block in enumerate(content):
        if block["type"] not in allowed:
            kinds = ", ".join(allowed)
            kind = with_article(block["type"])
            message = (
                f"`content[{index}]` is {kind} block, which {with_article(target)} cannot "
                f"carry (it takes {kinds} blocks)."
            )
            raise MessageError(message, f"content[{index}]")
    return list(content)


def check_one_call(blocks: list[Any]) -> dict[str, Any] | None:
    """The one tool_use block of an AI message's Msg form, if any (thinking needs one)."""
    uses = [index for index, block in enumerate(blocks) if block["type"] == "tool_use"]
    if len(uses) > 1:
        message = (
            f"`content[{uses[1]}]` is a second tool_use block; an AIMessage carries "
            f"one function call."
        )
        raise MessageError(message, f"content[{uses[1]}]")
    if uses:
        use: dict[str, Any] = blocks[uses[0]]
        return use
    for index, block in enumerate(blocks):
        if block["type"] == "thinking":
            message = (
                f"`content[{index}]` is a thinking block without a tool_use block; an "
                f"AIMessage keeps thoughts only as part of a function call."
            )
            raise MessageError(message, f"content[{index}]")
    return None


def check_tool_result_alone(content: list[Any]) -> dict[str, Any]:
    """The tool_result block of a FunctionMessage's Msg form, which must be its one block."""
    if len(content) != 1:
        where = next(i for i, block in enumerate(content) if block["type"] == "tool_result")
        message = (
            f"`content[{where}]` is a tool_result block among {len(content)} blocks; "
            f"a Msg becomes a FunctionMessage only when the tool result is its one block."
        )
        raise MessageError(message, f"content[{where}]")
    block: dict[str, Any] = content[0]
    return block


def check_text_output(output: list[Any], path: str = "content[0].output") -> None:
    """A tool output list that a FunctionMessage carries: text blocks only."""
    for index, item in enumerate(output):
        if item.get("type") != "text":
            message = (
                f"`{path}[{index}]` is a {item.get('type')} block; a FunctionMessage carries "
                f"text only."
            )
            raise MessageError(message, f"{path}[{index}]")


def merge_same(first: str | None, second: str | None, path: str = "name") -> str | None:
    """What two streamed pieces give at *path* (the sender, a call id): they may not differ."""
    if first is not None and second is not None and first != second:
        msg = f"`{path}` of the second piece is {second!r}, but the first piece's is {first!r}."
        raise MessageError(msg, path)
    return first if first is not None else second


def merge_calls(first: dict[str, Any] | None, second: dict[str, Any] | None) -> Any:
    """The function call of two streamed pieces: the one, or both joined into one call."""
    if first is None or second is None:
        return first if second is None else second
    names = (first.get("name"), second.get("name"))
    if None not in names and names[0] != names[1]:
        msg = (
            f"`function_call.name` of the second piece is {second['name']!r}, but the "
            f"first piece calls {first['name']!r}."
        )
        raise MessageError(msg, "function_call.name")
    # A later piece of a streamed call may leave the name to the first one.
    call: dict[str, Any] = {}
    name = names[0] if names[0] is not None else names[1]
    if name is not None:
        call["name"] = name
    if "thoughts" in first or "thoughts" in second:
        call["thoughts"] = first.get("thoughts", "") + second.get("thoughts", "")
    call["arguments"] = first["arguments"] + second["arguments"]
    call_id = merge_same(first.get("id"), second.get("id"), "function_call.id")
    if call_id is not None:
        call["id"] = call_id
    return call
