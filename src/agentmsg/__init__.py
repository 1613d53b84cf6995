"""agentmsg: strictly validated, fast messages for LLM agents.

Everything public is importable from here. Where things live:

- ``_message.py``: :class:`Msg`;
- ``_blocks.py``: the content block ``TypedDict``s;
- ``_validate.py``: the validation rules of messages, blocks and JSON values, and the
  one wording of "must be X, not Y"; with ``_containers.py``, the checked lists and
  dicts a message hands out and the one deep copy of JSON values (the two import each
  other: the package's only import cycle);
- ``_errors.py``: :class:`MessageError` and its subclasses;
- ``_ids.py``: ids, timestamps and :func:`deterministic`;
- ``_media.py``: media types, media blocks from files, bytes and URLs, and the checks of
  :meth:`Msg.check_media`;
- ``_schema.py``: :func:`json_schema`; ``_tokens.py``: :func:`estimate_tokens`;
- ``chat/``: the role messages (``_messages.py``; ``Message``, ERNIE Bot Agent's class,
  is their base) and their rules (``_rules.py``);
- ``cards/``: the chat cards of :meth:`Msg._repr_html_`: ``_html.py`` (the HTML) and
  ``card.css``, ``_labels.py`` and ``locale/`` (their labels in English, Chinese and
  Spanish, and :func:`display_language`);
- ``providers/``: the conversions to and from model APIs (:func:`to_openai_chat`, ...), one
  public module per format; their names here are imported when first used, so
  ``import agentmsg`` stays light;
- ``compat/``: the opt-in installs that make AgentScope's and ERNIE Bot Agent's own code
  use agentmsg's messages (``agentmsg.compat.agentscope.install()``, ...); never imported
  by ``import agentmsg``.
"""

# ruff: noqa: F405  (the provider names of __all__ come from a star import for type checkers)
from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
from ._errors import MediaError, MessageAttributeError, MessageError, TokenCountError
from ._ids import deterministic
from ._media import block_from_bytes, block_from_file, block_from_url, detect_media_type
from ._message import Msg
from ._schema import json_schema
from ._tokens import estimate_tokens
from .cards import card_labels, display_language, set_display_language
from .chat import (
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

if TYPE_CHECKING:
    from .providers import *  # noqa: F403

__version__ = "0.1.0"

__all__ = [
    "BLOCK_TYPES",
    "AIMessage",
    "AIMessageChunk",
    "AnthropicStream",
    "AudioBlock",
    "Base64Source",
    "BlockType",
    "ChatMessage",
    "ContentBlock",
    "Conversion",
    "FunctionCall",
    "FunctionMessage",
    "GeminiStream",
    "HumanMessage",
    "ImageBlock",
    "Loss",
    "MediaError",
    "MediaSource",
    "Message",
    "MessageAttributeError",
    "MessageError",
    "Msg",
    "OpenAIChatStream",
    "OpenAIResponsesStream",
    "Parsed",
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
    "card_labels",
    "detect_media_type",
    "deterministic",
    "display_language",
    "estimate_tokens",
    "from_anthropic",
    "from_gemini",
    "from_openai_chat",
    "from_openai_responses",
    "json_schema",
    "set_display_language",
    "to_anthropic",
    "to_gemini",
    "to_openai_chat",
    "to_openai_responses",
]

# The names of __all__ not defined above are agentmsg.providers' (imported on first use).
_PROVIDER_NAMES = frozenset(__all__).difference(globals())


def __getattr__(name: str) -> Any:
    # The provider conversions and streams are imported on first use (PEP 562).
    if name in _PROVIDER_NAMES:
        from . import providers

        value = getattr(providers, name)
        globals()[name] = value
        return value
    msg = f"module 'agentmsg' has no attribute {name!r}"
    raise AttributeError(msg)


def __dir__() -> list[str]:
    return sorted({*globals(), *_PROVIDER_NAMES})


# Public classes say they live in ``agentmsg`` (``<class 'agentmsg.Msg'>``), where users
# import them from, rather than in the private module that defines them.
for _cls in (Msg, MessageError, MessageAttributeError, MediaError, TokenCountError):
    _cls.__module__ = __name__
del _cls
