"""agentmsg: strictly validated, fast messages for LLM agents.

Everything public is importable from here. Where things live:

- ``_message.py``: :class:`Msg`;
- ``_blocks.py``: the content block ``TypedDict``s;
- ``_validate.py``: every validation rule (with ``_validate_chat.py`` for the role
  messages and ``_validate_media.py`` for media payloads);
- ``_containers.py``: the one deep copy of JSON-shaped values;
- ``_chat.py``: the role messages;
- ``_errors.py``: :class:`MessageError` and its subclasses;
- ``_ids.py``: ids, timestamps and :func:`deterministic`;
- ``_media.py``: media blocks from files, bytes and URLs;
- ``_schema.py``: :func:`json_schema`.
"""

from __future__ import annotations

from ._blocks import (
    BLOCK_TYPES,
    AudioBlock,
    Base64Source,
    BlockType,
    ContentBlock,
    ImageBlock,
    MediaSource,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    URLSource,
    VideoBlock,
)
from ._chat import (
    AIMessage,
    AIMessageChunk,
    ChatMessage,
    FunctionCall,
    FunctionMessage,
    HumanMessage,
    Message,
    PluginInfo,
    SearchInfo,
    SystemMessage,
    TokenUsage,
)
from ._errors import MediaError, MessageAttributeError, MessageError, TokenCountError
from ._ids import deterministic
from ._media import block_from_bytes, block_from_file, block_from_url, detect_media_type
from ._message import Msg
from ._schema import json_schema
from ._tokens import estimate_tokens

__version__ = "0.1.0"

__all__ = [
    "BLOCK_TYPES",
    "AIMessage",
    "AIMessageChunk",
    "AudioBlock",
    "Base64Source",
    "BlockType",
    "ChatMessage",
    "ContentBlock",
    "FunctionCall",
    "FunctionMessage",
    "HumanMessage",
    "ImageBlock",
    "MediaError",
    "MediaSource",
    "Message",
    "MessageAttributeError",
    "MessageError",
    "Msg",
    "PluginInfo",
    "SearchInfo",
    "SystemMessage",
    "TextBlock",
    "ThinkingBlock",
    "TokenCountError",
    "TokenUsage",
    "ToolResultBlock",
    "ToolUseBlock",
    "URLSource",
    "VideoBlock",
    "block_from_bytes",
    "block_from_file",
    "block_from_url",
    "detect_media_type",
    "deterministic",
    "estimate_tokens",
    "json_schema",
]

# Public classes say they live in ``agentmsg`` (``<class 'agentmsg.Msg'>``), where users
# import them from, rather than in the private module that defines them.
for _cls in (Msg, MessageError, MessageAttributeError, MediaError, TokenCountError):
    _cls.__module__ = __name__
del _cls
