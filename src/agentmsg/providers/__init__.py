"""Conversions between agentmsg's messages and the request and response formats of
model APIs, with a report of everything a format cannot carry.

One public module per format (:mod:`~agentmsg.providers.openai_chat`,
:mod:`~agentmsg.providers.openai_responses`, :mod:`~agentmsg.providers.anthropic`,
:mod:`~agentmsg.providers.gemini`) and what they share (``_common``). ``import agentmsg``
does not import this package: the same names there are loaded when first used.

A streamed reply is assembled by the stream class of its format (``_stream.py`` holds
what they share, ``_stream_<format>.py`` each one): :class:`~agentmsg.OpenAIChatStream`,
:class:`~agentmsg.OpenAIResponsesStream`, :class:`~agentmsg.AnthropicStream` and
:class:`~agentmsg.GeminiStream`.
"""

from __future__ import annotations

from ._common import Conversion, Loss, Parsed
from ._stream_anthropic import AnthropicStream
from ._stream_gemini import GeminiStream
from ._stream_openai_chat import OpenAIChatStream
from ._stream_openai_responses import OpenAIResponsesStream
from .anthropic import from_anthropic, to_anthropic
from .gemini import from_gemini, to_gemini
from .openai_chat import from_openai_chat, to_openai_chat
from .openai_responses import from_openai_responses, to_openai_responses

__all__ = [
    "AnthropicStream",
    "Conversion",
    "GeminiStream",
    "Loss",
    "OpenAIChatStream",
    "OpenAIResponsesStream",
    "Parsed",
    "from_anthropic",
    "from_gemini",
    "from_openai_chat",
    "from_openai_responses",
    "to_anthropic",
    "to_gemini",
    "to_openai_chat",
    "to_openai_responses",
]

for _cls in (AnthropicStream, GeminiStream, OpenAIChatStream, OpenAIResponsesStream):
    _cls.__module__ = "agentmsg"  # where users import them from
del _cls
