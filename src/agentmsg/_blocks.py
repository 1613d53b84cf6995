"""The content blocks: plain JSON-shaped dicts described by ``TypedDict``s.

Each class is called the way a dict is built, ``TextBlock(type="text", text="Hi")``,
and returns an ordinary ``dict``. :class:`~agentmsg.Msg` validates the blocks it is
given; these classes only describe them for type checkers and readers.
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias, TypedDict

__all__ = [
    "BLOCK_TYPES",
    "AudioBlock",
    "Base64Source",
    "BlockType",
    "ContentBlock",
    "ImageBlock",
    "MediaSource",
    "TextBlock",
    "ThinkingBlock",
    "ToolResultBlock",
    "ToolUseBlock",
    "URLSource",
    "VideoBlock",
]

JSONValue: TypeAlias = Any
"""Any value that :func:`json.dumps` writes and :func:`json.loads` reads back unchanged."""


class Base64Source(TypedDict):
    """Media bytes carried inline as base64 text.

    ``media_type`` is a MIME type whose major type matches the block (``image/png`` in
    an :class:`ImageBlock`). ``data`` is not decoded when a message is built; call
    :meth:`Msg.check_media <agentmsg.Msg.check_media>` to decode it and compare it with
    ``media_type``.
    """

    type: Literal["base64"]
    media_type: str
    data: str


class URLSource(TypedDict):
    """Media found at a URL. Only ``http``, ``https`` and ``data:`` URLs are accepted."""

    type: Literal["url"]
    url: str


MediaSource: TypeAlias = Base64Source | URLSource
"""Where the bytes of an image, audio or video block come from."""


class TextBlock(TypedDict):
    """Plain text."""

    type: Literal["text"]
    text: str


class ThinkingBlock(TypedDict):
    """The reasoning a model produced before its answer."""

    type: Literal["thinking"]
    thinking: str


class ImageBlock(TypedDict):
    """An image, from a base64 or URL source."""

    type: Literal["image"]
    source: MediaSource


class AudioBlock(TypedDict):
    """A sound recording, from a base64 or URL source."""

    type: Literal["audio"]
    source: MediaSource


class VideoBlock(TypedDict):
    """A video, from a base64 or URL source."""

    type: Literal["video"]
    source: MediaSource


class ToolUseBlock(TypedDict):
    """A model's request to call a tool: its call ``id``, tool ``name`` and ``input``."""

    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, JSONValue]


class ToolResultBlock(TypedDict):
    """What a tool returned for the call with the same ``id``.

    ``output`` is a string, a list of text, image, audio and video blocks, or any other
    JSON value (a dict of results, a number, ...).
    """

    type: Literal["tool_result"]
    id: str
    name: str
    output: str | list[TextBlock | ImageBlock | AudioBlock | VideoBlock] | JSONValue


ContentBlock: TypeAlias = (
    TextBlock
    | ThinkingBlock
    | ImageBlock
    | AudioBlock
    | VideoBlock
    | ToolUseBlock
    | ToolResultBlock
)
"""Any one of the seven content blocks."""

BlockType: TypeAlias = Literal[
    "text", "thinking", "image", "audio", "video", "tool_use", "tool_result"
]
"""The names a block's ``type`` field may hold."""

BLOCK_TYPES: tuple[BlockType, ...] = (
    "text",
    "thinking",
    "image",
    "audio",
    "video",
    "tool_use",
    "tool_result",
)
"""The block type names, in the order the documentation lists them."""
