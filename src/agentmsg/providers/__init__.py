"""Conversions to and from model APIs, and their streamed replies.

The stream accumulators live here (``_stream.py`` and one ``_stream_<format>.py`` per
format); :mod:`agentmsg` imports them when one of their names is first used.
"""

from __future__ import annotations

from ._stream_anthropic import AnthropicStream
from ._stream_gemini import GeminiStream
from ._stream_openai_chat import OpenAIChatStream
from ._stream_openai_responses import OpenAIResponsesStream

__all__ = ["AnthropicStream", "GeminiStream", "OpenAIChatStream", "OpenAIResponsesStream"]

for _cls in (AnthropicStream, GeminiStream, OpenAIChatStream, OpenAIResponsesStream):
    _cls.__module__ = "agentmsg"  # where users import them from
del _cls
