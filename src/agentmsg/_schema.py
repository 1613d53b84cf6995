"""The JSON Schema of a message's dict form."""

from __future__ import annotations

from typing import Any

__all__ = ["json_schema"]

_STRING = {"type": "string"}
_NAME = {"type": "string", "minLength": 1}
_TIMESTAMP = {
    "type": "string",
    "pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}$",
}


def _object(properties: dict[str, Any], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    """An object with these *properties*, all required but the *optional* ones (strings)."""
    return {
        "type": "object",
        "properties": {**properties, **{name: _STRING for name in optional}},
        "required": list(properties),
        "additionalProperties": False,
    }


def _media_block(kind: str) -> dict[str, Any]:
    base64_source = _object(
        {
            "type": {"const": "base64"},
            "media_type": {"type": "string", "pattern": f"^{kind}/[\\s\\S]"},
            "data": _STRING,
        }
    )
    # http(s) with something after the scheme, a data: URL whose media type, if any, is
    # of this kind, a file:// URL (a host, then a path), an absolute local path, or a
    # relative one (no slash first, no ":" before the first slash).
    url = (
        f"^(https?://[\\s\\S]|data:({kind}/[^;,]*)?(;[^,]*)?,"
        "|file://[^/?#\\\\]*/[\\s\\S]|/[^/]|[A-Za-z]:[\\\\/][\\s\\S]"
        "|[^/\\\\:]+($|[/\\\\]))"
    )
    url_source = _object({"type": {"const": "url"}, "url": {"type": "string", "pattern": url}})
    return _object({"type": {"const": kind}, "source": {"oneOf": [base64_source, url_source]}})


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
    defs: dict[str, Any] = {
        "text": _object({"type": {"const": "text"}, "text": _STRING}, ("thought_signature",)),
        "thinking": _object({"type": {"const": "thinking"}, "thinking": _STRING}, ("signature",)),
        "image": _media_block("image"),
        "audio": _media_block("audio"),
        "video": _media_block("video"),
        "tool_use": _object(
            {
                "type": {"const": "tool_use"},
                "id": _NAME,
                "name": _NAME,
                "input": {"type": "object"},
            },
            ("raw_input", "thought_signature"),
        ),
        "tool_result": _object(
            {"type": {"const": "tool_result"}, "id": _NAME, "name": _NAME, "output": {}}
        ),
    }
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
