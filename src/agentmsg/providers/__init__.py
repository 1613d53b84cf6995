"""Conversions between agentmsg's messages and the request and response formats of
model APIs, with a report of everything a format cannot carry.

One public module per format (:mod:`~agentmsg.providers.openai_chat`,
:mod:`~agentmsg.providers.openai_responses`, :mod:`~agentmsg.providers.anthropic`,
:mod:`~agentmsg.providers.gemini`), each with its request writer, its response reader
and the stream class that assembles a streamed reply (:class:`~agentmsg.OpenAIChatStream`,
:class:`~agentmsg.OpenAIResponsesStream`, :class:`~agentmsg.AnthropicStream`,
:class:`~agentmsg.GeminiStream`), on what they share: ``_common`` (the loss report, ids,
signatures) and ``_stream`` (the stream base). ``import agentmsg`` does not import this
package: the same names there are loaded when first used.
"""

from __future__ import annotations

from ._common import Conversion, Loss, Parsed
from .anthropic import AnthropicStream, from_anthropic, to_anthropic
from .gemini import GeminiStream, from_gemini, to_gemini
from .openai_chat import OpenAIChatStream, from_openai_chat, to_openai_chat
from .openai_responses import OpenAIResponsesStream, from_openai_responses, to_openai_responses

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
