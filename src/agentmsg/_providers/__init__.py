"""Conversions between agentmsg's messages and the request and response formats of
model APIs, with a report of everything a format cannot carry.

One module per format (``_openai_chat``, ``_openai_responses``, ``_anthropic``,
``_gemini``) and what they share (``_common``). ``import agentmsg`` does not import this
package: its names are loaded when first used (see ``agentmsg.__getattr__``).
"""

from __future__ import annotations

from ._anthropic import from_anthropic, to_anthropic
from ._common import Conversion, Loss, Parsed
from ._gemini import from_gemini, to_gemini
from ._openai_chat import from_openai_chat, to_openai_chat
from ._openai_responses import from_openai_responses, to_openai_responses

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
