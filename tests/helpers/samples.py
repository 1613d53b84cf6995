"""Samples the package tests share: the smallest bytes each media format is recognized
by, the base64 blocks made of them, and one valid block of each type."""

from __future__ import annotations

import base64
from typing import Any

__all__ = [
    "GIF",
    "JPEG",
    "MP3",
    "MP4",
    "OGG",
    "PNG",
    "PNG_B64",
    "SVG",
    "WAV",
    "WAV_B64",
    "WEBM",
    "WEBP",
    "b64",
    "base64_block",
    "one_of_each",
    "png_block",
]

# A format's signature and padding: enough for agentmsg to tell the format, not an image.
PNG = b"\x89PNG\r\n\x1a\n" + bytes(24)
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(16)
GIF = b"GIF89a" + bytes(16)
WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8 " + bytes(16)
WAV = b"RIFF\x24\x00\x00\x00WAVEfmt " + bytes(24)
MP3 = b"ID3\x04\x00\x00\x00\x00\x00\x00" + bytes(16)
OGG = b"OggS\x00\x02" + bytes(20)
MP4 = b"\x00\x00\x00\x20ftypisom\x00\x00\x02\x00" + bytes(16)
WEBM = b"\x1aE\xdf\xa3\x9f\x42\x86\x81\x01" + bytes(16)
SVG = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'


def b64(data: bytes) -> str:
    """*data* as base64 text, as a base64 source holds it."""
    return base64.b64encode(data).decode("ascii")


PNG_B64 = b64(PNG)
WAV_B64 = b64(WAV)


def base64_block(kind: str, media_type: str, data: str) -> dict[str, object]:
    """A media block of *kind* with a base64 source of *data* (base64 text)."""
    return {"type": kind, "source": {"type": "base64", "media_type": media_type, "data": data}}


def png_block() -> dict[str, object]:
    """An image block of :data:`PNG`."""
    return base64_block("image", "image/png", PNG_B64)


def one_of_each() -> list[dict[str, Any]]:
    """A valid block of each type, in the spec's order (a fresh list each call): both
    source types, every optional field, a tool input that nests and a tool output made of
    blocks."""
    return [
        {"type": "text", "text": "Here is the forecast.", "thought_signature": "c2ln"},
        {"type": "thinking", "thinking": "The user asked about Lima.", "signature": "c2ln"},
        {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
        base64_block("audio", "audio/mpeg", "SUQzBAAAAA=="),
        {"type": "video", "source": {"type": "url", "url": "/tmp/v.mp4"}},
        {
            "type": "tool_use",
            "id": "call-1",
            "name": "get_weather",
            "input": {"city": "Lima", "days": [1, {"unit": None}]},
            "raw_input": '{"city": "Lima", "days": [1, {"unit": null}]}',
            "thought_signature": "c2ln",
        },
        {
            "type": "tool_result",
            "id": "call-1",
            "name": "get_weather",
            "output": [{"type": "text", "text": "19 C"}],
        },
    ]


def json_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside the JSON value *value* (itself first): the places
    a test can change one value of a recorded response or payload."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += json_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += json_paths(item, (*path, index))
    return found
