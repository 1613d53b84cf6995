"""The content blocks: plain JSON-shaped dicts described by ``TypedDict``s, and the
spec of their fields that the rest of the package derives from.

Each class is called the way a dict is built, ``TextBlock(type="text", text="Hi")``,
and returns an ordinary ``dict``. :class:`~agentmsg.Msg` validates the blocks it is
given; these classes only describe them for type checkers and readers.

:data:`BLOCK_SPEC` states each block type's fields once: the validator's key and value
checks, the JSON Schema, the copies and the media kinds are made from it, and a test
checks the ``TypedDict``s against it. Adding a block type starts here.
"""

# No ``from __future__ import annotations``: before Python 3.12 a TypedDict sees
# ``NotRequired`` only in evaluated annotations (its optional keys would count as required).
import sys
from typing import Any, Literal, NamedTuple, NotRequired, TypeAlias, TypedDict, get_args

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


# -- the spec -------------------------------------------------------------------------------
# What kind of value a field holds (Field.value).
STRING = "string"  # any string
NAME = "name"  # a non-empty string: a tool call's id or a tool's name
ARGUMENTS = "arguments"  # a dict of JSON values: a tool call's arguments
SOURCE = "source"  # a media source: Base64Source or URLSource
OUTPUT = "output"  # a string, a list of OUTPUT_TYPES blocks, or any JSON value
MEDIA_TYPE = "media_type"  # a MIME type of the block's kind (image/png in an image block)
URL = "url"  # an http(s), data: or file:// URL, or a local path


class Field(NamedTuple):
    """One field of a content block or media source besides its ``type``."""

    name: str
    value: str
    required: bool = True


_SOURCE_FIELD = (Field("source", SOURCE),)

BLOCK_SPEC: dict[BlockType, tuple[Field, ...]] = {
    "text": (Field("text", STRING), Field("thought_signature", STRING, False)),
    "thinking": (Field("thinking", STRING), Field("signature", STRING, False)),
    "image": _SOURCE_FIELD,
    "audio": _SOURCE_FIELD,
    "video": _SOURCE_FIELD,
    "tool_use": (
        Field("id", NAME),
        Field("name", NAME),
        Field("input", ARGUMENTS),
        Field("raw_input", STRING, False),
        Field("thought_signature", STRING, False),
    ),
    "tool_result": (Field("id", NAME), Field("name", NAME), Field("output", OUTPUT)),
}
"""Each block type's fields besides ``type``, required ones first (the order of the
checks and the JSON Schema); the optional ones are those AgentScope 1.x writes."""

SOURCE_SPEC: dict[str, tuple[Field, ...]] = {
    "base64": (Field("media_type", MEDIA_TYPE), Field("data", STRING)),
    "url": (Field("url", URL),),
}
"""Each media source type's fields besides ``type``."""

MEDIA_KINDS: tuple[BlockType, ...] = tuple(
    kind for kind, fields in BLOCK_SPEC.items() if fields == _SOURCE_FIELD
)
"""The block types whose bytes come from a media source: image, audio and video."""

OUTPUT_TYPES: tuple[BlockType, ...] = ("text", *MEDIA_KINDS)
"""The block types a tool output's list of blocks may hold."""

BLOCK_TYPES: tuple[BlockType, ...] = tuple(BLOCK_SPEC)
"""The block type names, in the order the documentation lists them."""


# -- pydantic -------------------------------------------------------------------------------
if sys.version_info < (3, 12):
    _AS_EXTENSIONS: dict[type, Any] = {}

    def _pydantic_schema(cls: Any, source: Any, handler: Any) -> Any:
        """*cls* made by ``typing_extensions``, on first use: pydantic refuses a
        ``typing.TypedDict`` before Python 3.12."""
        twin = _AS_EXTENSIONS.get(cls)
        if twin is None:
            import typing_extensions

            make: Any = typing_extensions.TypedDict
            fields = {
                name: hint if name in cls.__required_keys__ else NotRequired[hint]
                for name, hint in typing_extensions.get_type_hints(cls).items()
            }
            twin = make(cls.__name__, fields)
            twin.__module__, twin.__doc__ = cls.__module__, cls.__doc__
            _AS_EXTENSIONS[cls] = twin
        return handler(twin)

    _CLASSES: tuple[Any, ...] = (Base64Source, URLSource, *get_args(ContentBlock))
    for _class in _CLASSES:
        _class.__get_pydantic_core_schema__ = classmethod(_pydantic_schema)
