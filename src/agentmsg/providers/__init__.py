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

:data:`FORMATS` is the one list of the formats, each a :class:`Format` record naming its
writer, reader and stream class; the tests, ``bench/`` and the docs' conversion matrix
read it. Adding a format is one module, its line here, its tests, its fixtures and its
catalog entries (see CONTRIBUTING.md, "Adding a model API").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from . import anthropic, gemini, openai_chat, openai_responses
from ._common import Conversion, Loss, Parsed, shared_doc
from ._stream import Stream
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


class Format(NamedTuple):
    """One model API as the package converts it."""

    key: str
    """Its module's name, its key in :data:`FORMATS` and in ``provider_state``, and the
    folder of its recorded streams in ``tests/fixtures/streams/``."""
    title: str
    """The name its losses and conversion errors give it (``"Chat Completions"``)."""
    to: Callable[..., Conversion]
    """Its request writer (``to_<key>``)."""
    read: Callable[..., Parsed]
    """Its request and response reader (``from_<key>``)."""
    stream: type[Stream]
    """Its stream class, which assembles a streamed reply."""


#: The formats by key, in the order the docs show them.
FORMATS: dict[str, Format] = {
    api.key: api
    for api in (
        Format(
            "openai_chat", openai_chat.FORMAT, to_openai_chat, from_openai_chat, OpenAIChatStream
        ),
        Format(
            "openai_responses",
            openai_responses.FORMAT,
            to_openai_responses,
            from_openai_responses,
            OpenAIResponsesStream,
        ),
        Format("anthropic", anthropic.FORMAT, to_anthropic, from_anthropic, AnthropicStream),
        Format("gemini", gemini.FORMAT, to_gemini, from_gemini, GeminiStream),
    )
}

for _api in FORMATS.values():
    _api.stream.__module__ = "agentmsg"  # where users import them from
    shared_doc(_api.to)  # the sections of their docstrings that every format shares
    shared_doc(_api.read)
del _api
