"""Conversions between agentmsg's messages and the request and response formats of
model APIs, with a report of everything a format cannot carry.

One module per format (``_convert_openai_chat``, ``_convert_openai_responses``,
``_convert_anthropic``, ``_convert_gemini``) and what they share (``_convert_common``).
``import agentmsg`` does not import them: their names are loaded when first used (see
``agentmsg.__getattr__``).
"""

from __future__ import annotations

from .anthropic import from_anthropic, to_anthropic
from ._common import Conversion, Loss, Parsed
from .gemini import from_gemini, to_gemini
from .openai_chat import from_openai_chat, to_openai_chat
from .openai_responses import from_openai_responses, to_openai_responses

__all__ = [
    "Conversion",
    "Loss",
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
