"""The content blocks: plain JSON-shaped dicts described by ``TypedDict``s.

Each class is called the way a dict is built, ``TextBlock(type="text", text="Hi")``,
and returns an ordinary ``dict``. :class:`~agentmsg.Msg` validates the blocks it is
given; these classes only describe them for type checkers and readers.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

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
    """Media found at a URL or in a local file.

    ``url`` is an ``http`` or ``https`` URL, a ``data:`` URL (whose media type, if it
    names one, is of the block's kind), a ``file://`` URL, or a local path, absolute
    (``/home/ada/cat.png``, ``C:\\photos\\cat.png``) or relative (``./cat.png``), kept as
    written, as AgentScope's formatters accept them. Nothing is fetched or read when a
    message is built; :meth:`Msg.check_media <agentmsg.Msg.check_media>` reads local
    files only inside the folder it is given, and chat cards show local files as paths,
    never as links.
    """

    type: Literal["url"]
    url: str


MediaSource: TypeAlias = Base64Source | URLSource
"""Where the bytes of an image, audio or video block come from."""


class TextBlock(TypedDict):
    """Plain text.

    ``thought_signature`` is optional: the opaque signature Gemini attaches to text that
    follows its reasoning, as AgentScope 1.x's Gemini model stores it (base64 text).
    """

    type: Literal["text"]
    text: str
    thought_signature: NotRequired[str]


class ThinkingBlock(TypedDict):
    """The reasoning a model produced before its answer.

    ``signature`` is optional: the signature Anthropic's API returns with a thinking
    block and wants back with it, as AgentScope 1.x's Anthropic model stores it.
    """

    type: Literal["thinking"]
    thinking: str
    signature: NotRequired[str]


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
    """A model's request to call a tool: its call ``id``, tool ``name`` and ``input``.

    Two fields are optional, as in AgentScope 1.x: ``raw_input``, the arguments as the
    model wrote them (JSON text, possibly broken, from which ``input`` was parsed), and
    ``thought_signature``, the signature Gemini attaches to a call. Both are kept as
    they are through every round trip; ``raw_input`` is not compared with ``input``.
    """

    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, JSONValue]
    raw_input: NotRequired[str]
    thought_signature: NotRequired[str]


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
