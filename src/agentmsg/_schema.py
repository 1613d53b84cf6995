"""The JSON Schema of a message's dict form."""

from __future__ import annotations

from typing import Any

from ._blocks import (
    ARGUMENTS,
    BLOCK_SPEC,
    MEDIA_TYPE,
    NAME,
    OUTPUT,
    SOURCE,
    SOURCE_SPEC,
    STRING,
    URL,
    Field,
)

_STRING = {"type": "string"}
_NAME = {"type": "string", "minLength": 1}
_TIMESTAMP = {
    "type": "string",
    "pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}$",
}


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _value(value: str, kind: str) -> dict[str, Any]:
    """The schema of a field that holds this kind of *value* (a spec constant) in a
    *kind* block."""
    if value == SOURCE:
        return {"oneOf": [_entry(source, fields, kind) for source, fields in SOURCE_SPEC.items()]}
    if value == MEDIA_TYPE:
        return {"type": "string", "pattern": f"^{kind}/[\\s\\S]"}
    if value == URL:
        # http(s) with something after the scheme, a data: URL whose media type, if any,
        # is of this kind, a file:// URL (a host, then a path), an absolute local path, or
        # a relative one (no slash first, no ":" before the first slash).
        url = (
            f"^(https?://[\\s\\S]|data:({kind}/[^;,]*)?(;[^,]*)?,"
            "|file://[^/?#\\\\]*/[\\s\\S]|/[^/]|[A-Za-z]:[\\\\/][\\s\\S]"
            "|[^/\\\\:]+($|[/\\\\]))"
        )
        return {"type": "string", "pattern": url}
    return _VALUES[value]


_VALUES: dict[str, dict[str, Any]] = {
    STRING: _STRING,
    NAME: _NAME,
    ARGUMENTS: {"type": "object"},
    OUTPUT: {},  # a string, blocks or any JSON value: the library checks the blocks
}


def _entry(type_name: str, fields: tuple[Field, ...], kind: str) -> dict[str, Any]:
    """The object schema of a block or media source of *type_name* with *fields*, in a
    *kind* block."""
    properties: dict[str, Any] = {"type": {"const": type_name}}
    required = ["type"]
    for field in fields:
        properties[field.name] = _value(field.value, kind)
        if field.required:
            required.append(field.name)
    return _object(properties, required)


def json_schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of :meth:`Msg.to_dict <agentmsg.Msg.to_dict>`.

    A dict that :meth:`Msg.from_dict <agentmsg.Msg.from_dict>` accepts validates against
    it. The schema cannot express three rules the library also applies: non-finite
    numbers are refused, timestamps must be real dates, and a tool output made of
    content blocks holds only valid text, image, audio and video blocks.

    Example:
        >>> from agentmsg import json_schema
        >>> schema = json_schema()
        >>> schema["required"]
        ['name', 'role', 'content']
        >>> sorted(schema["$defs"])
        ['audio', 'image', 'text', 'thinking', 'tool_result', 'tool_use', 'video']
    """
    defs = {kind: _entry(kind, fields, kind) for kind, fields in BLOCK_SPEC.items()}
    block_refs = [{"$ref": f"#/$defs/{name}"} for name in defs]
    properties = {
        # from_dict makes a fresh id and timestamp when they are missing or null
        "id": {**_NAME, "type": ["string", "null"]},
        "name": _NAME,
        "role": {"enum": ["user", "assistant", "system"]},
        "content": {"oneOf": [_STRING, {"type": "array", "items": {"oneOf": block_refs}}]},
        "metadata": {"type": ["object", "null"]},
        "timestamp": {**_TIMESTAMP, "type": ["string", "null"]},
        "invocation_id": {"type": ["string", "null"]},
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "agentmsg message",
        "type": "object",
        "properties": properties,
        "required": ["name", "role", "content"],
        "additionalProperties": False,
        "$defs": defs,
    }
