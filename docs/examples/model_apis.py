"""
.. _tutorial-model-apis:

Talk to model APIs
==================

agentmsg does not call models, but it speaks their languages. Each model API expects a
conversation in its own request format and answers in its own response format.
agentmsg converts a list of messages to four of them and reads them back:

.. list-table:: The four formats
   :header-rows: 1
   :widths: 34 33 33

   * - Format
     - To the API
     - From the API
   * - OpenAI Chat Completions
     - :func:`~agentmsg.to_openai_chat`
     - :func:`~agentmsg.from_openai_chat`
   * - OpenAI Responses
     - :func:`~agentmsg.to_openai_responses`
     - :func:`~agentmsg.from_openai_responses`
   * - Anthropic Messages
     - :func:`~agentmsg.to_anthropic`
     - :func:`~agentmsg.from_anthropic`
   * - Google Gemini
     - :func:`~agentmsg.to_gemini`
     - :func:`~agentmsg.from_gemini`

No format carries everything a :class:`~agentmsg.Msg` can hold. Rather than drop what
does not fit without a word, every conversion returns a list of *losses*: what could
not be carried, where it was and why. This tutorial sends one conversation to all four
formats, runs a tool call round trip through a stand-in for the network, and then looks
at what each format cannot carry. Nothing here talks to a real model: the answers are
written out by hand, in the JSON each API returns.
"""

# %%
# One conversation, four formats
# ------------------------------
#
# The conversation starts with a system message and a question from a user called Ada.

import json

from agentmsg import (
    MessageError,
    Msg,
    from_anthropic,
    from_gemini,
    from_openai_chat,
    from_openai_responses,
    to_anthropic,
    to_gemini,
    to_openai_chat,
    to_openai_responses,
)

conversation = [
    Msg("system", "You are a weather assistant. Answer in one sentence.", "system"),
    Msg("Ada", "Is it warmer in Lima or in Oslo right now?", "user"),
]

# %%
# :func:`~agentmsg.to_openai_chat` returns a :class:`~agentmsg.Conversion` with two
# fields. ``payload`` holds the part of the request that the conversation fills: for
# Chat Completions, the ``messages`` list. You add the model name and the other options
# yourself; with the ``openai`` package, the call would be
# ``client.chat.completions.create(model=..., **sent.payload)``. ``losses`` lists what
# did not fit, and here it is empty: Chat Completions has a place for everything in
# this conversation, the sender's name included.

sent = to_openai_chat(conversation)
print(json.dumps(sent.payload, indent=2))
print("losses:", sent.losses)

# %%
# The other three formats take the same conversation. Their payloads differ in shape:
# Responses calls the list ``input``, Anthropic moves the system message into a
# separate ``system`` field, and Gemini calls it ``system_instruction`` and calls the
# messages ``contents``.

FORMATS = {
    "Chat Completions": (to_openai_chat, from_openai_chat),
    "Responses": (to_openai_responses, from_openai_responses),
    "Anthropic": (to_anthropic, from_anthropic),
    "Gemini": (to_gemini, from_gemini),
}

for format_name, (convert, _) in FORMATS.items():
    sent = convert(conversation)
    print(f"{format_name}: {json.dumps(sent.payload)}")
    for loss in sent.losses:
        print("   ", loss)

# %%
# Three of the formats report one loss. Responses, Anthropic and Gemini have no field
# for the sender's name, so the model never learns that Ada is asking. Each loss is a
# :class:`~agentmsg.Loss`; printed, it reads as a sentence in English, like the text of
# an error (only the chat cards follow the display language), and its fields are there
# for code that needs them.

loss = to_anthropic(conversation).losses[0]
print("path:", loss.path)
print("what:", loss.what)
print("why: ", loss.why)

# %%
# A tool call round trip
# ----------------------
#
# A real program would now send the payload to the API. Here a stand-in plays the
# network: it takes the payload and returns an answer written out in advance, as the
# plain JSON that Chat Completions returns. Its first answer asks for two tool calls.


def chat_completions_api(payload):
    """Stand in for the Chat Completions API: return a canned response."""
    if payload["messages"][-1]["role"] == "user":
        calls = [
            {
                "id": f"call_{city.lower()}",
                "type": "function",
                "function": {"name": "get_weather", "arguments": json.dumps({"city": city})},
            }
            for city in ("Lima", "Oslo")
        ]
        message = {"role": "assistant", "content": None, "tool_calls": calls}
        finish_reason, tokens = "tool_calls", 38
    else:
        text = "Lima is warmer: 19 °C against 4 °C in Oslo."
        message = {"role": "assistant", "content": text}
        finish_reason, tokens = "stop", 14
    return {
        "id": f"chatcmpl-{len(payload['messages'])}",
        "object": "chat.completion",
        "created": 1767254400,
        "model": "gpt-example",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 80, "completion_tokens": tokens, "total_tokens": 80 + tokens},
    }


response = chat_completions_api(to_openai_chat(conversation).payload)

# %%
# :func:`~agentmsg.from_openai_chat` reads the response. It returns a
# :class:`~agentmsg.Parsed`: the messages, and what agentmsg could not keep of the
# response (nothing, this time). The reply is an assistant message with two
# :class:`~agentmsg.ToolUseBlock` blocks whose ids are the ones the API chose. The
# response id becomes the message's ``invocation_id``, and the model name, the reason
# the model stopped and the token usage go into its metadata.

reply = from_openai_chat(response)
print("losses:", reply.losses)
request = reply.messages[0]
print("invocation_id:", request.invocation_id)
print("metadata:", request.metadata)
request

# %%
# The program runs the tools, here a lookup in a small table, and answers each call
# with a :class:`~agentmsg.ToolResultBlock` that repeats its id. The results travel in
# a message of their own with role ``"system"``, as in the :ref:`tutorial-tools`
# tutorial.

WEATHER = {
    "Lima": {"sky": "cloudy", "temperature_c": 19},
    "Oslo": {"sky": "sunny", "temperature_c": 4},
}

results = Msg(
    "system",
    [
        {
            "type": "tool_result",
            "id": call["id"],
            "name": call["name"],
            "output": WEATHER[call["input"]["city"]],
        }
        for call in request.get_content_blocks("tool_use")
    ],
    "system",
)
conversation += [request, results]

# %%
# Converted again, the whole conversation holds the assistant's ``tool_calls`` and one
# ``tool`` message per result, each with the id of its call. A tool message holds text
# only, so the dict each tool returned travels as JSON text, and the report says so.
# This loss is a substitute rather than a drop: ``loss.substitute`` says what was done
# instead, and ``loss.dropped`` is false.

sent = to_openai_chat(conversation)
for entry in sent.payload["messages"][2:]:
    print(json.dumps(entry))
for loss in sent.losses:
    print(loss, "| dropped:", loss.dropped)

# %%
# The second answer from the stand-in is the final one.

reply = from_openai_chat(chat_completions_api(sent.payload))
conversation += reply.messages
print(conversation[-1].content)
print("completion tokens:", conversation[-1].metadata["token_usage"]["completion_tokens"])

# %%
# The round trip keeps everything the API needs to go on: the tool call ids, the tool
# names and the order of the messages. Reading a payload back and converting it again
# gives the same payload, in every format.

for format_name, (convert, read) in FORMATS.items():
    payload = convert(conversation).payload
    again = convert(read(payload).messages).payload
    print(f"{format_name}: same payload again: {again == payload}")

# %%
# What each format cannot carry
# -----------------------------
#
# The formats differ most in what they leave out. The next conversation has a little
# of everything: a recording in the question, a thinking block in the answer, and a
# tool result that returns an image next to its caption.

PNG = (  # a picture of one pixel
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJ"
    "RU5ErkJggg=="
)
WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA="

rich = [
    Msg(
        "user",
        [
            {"type": "text", "text": "What does the sky look like where this was recorded?"},
            {"type": "audio", "source": {"type": "base64", "media_type": "audio/wav", "data": WAV}},
        ],
        "user",
    ),
    Msg(
        "assistant",
        [
            {
                "type": "thinking",
                "thinking": "The recording has gulls: a coastal city. Ask for a picture.",
            },
            {"type": "tool_use", "id": "call_sky", "name": "sky_camera", "input": {"city": "Lima"}},
        ],
        "assistant",
    ),
    Msg(
        "system",
        [
            {
                "type": "tool_result",
                "id": "call_sky",
                "name": "sky_camera",
                "output": [
                    {"type": "text", "text": "The sky over Lima, now."},
                    {
                        "type": "image",
                        "source": {"type": "base64", "media_type": "image/png", "data": PNG},
                    },
                ],
            }
        ],
        "system",
    ),
]

for format_name, (convert, _) in FORMATS.items():
    print(f"{format_name}:")
    for loss in convert(rich).losses or ["(nothing lost)"]:
        print("   ", loss)

# %%
# Read the report format by format:
#
# - Chat Completions takes the recording but has no field for the thinking block, and
#   its tool messages hold text only, so the image moves to a user message right after
#   them.
# - Responses keeps the image inside the tool result but takes no audio. The thinking
#   block cannot be sent either: the API takes reasoning back only with the id it gave
#   it, and this block was written by hand.
# - Anthropic also keeps the image in the tool result and takes no audio. It takes a
#   thinking block back only with the signature it issued, which this one lacks.
# - Gemini carries all of it: the recording, the thinking block as a ``thought`` part, and
#   the image inside the function response.
#
# The :doc:`conversion matrix </conversions>` has the full table of what each format
# carries, in both directions.

# %%
# Strict mode
# -----------
#
# When nothing may be dropped, pass ``strict=True``. The conversion then raises
# :exc:`~agentmsg.MessageError` at the first thing it would drop, and the error names
# its path. A substitute, such as the image moved to a user message, is not a drop: it
# still reaches the model, so strict mode lets it through.

try:
    to_openai_chat(rich, strict=True)
except MessageError as error:
    print(error)
    print("path:", error.path)

# %%
# Reading other responses
# -----------------------
#
# Responses from the other APIs are read the same way. An Anthropic response with
# extended thinking carries a *signature* with each thinking block, and Anthropic takes
# the block back only with it. :func:`~agentmsg.from_anthropic` keeps the signature in
# the message's metadata, under ``provider_state``, rather than in the block, and
# :func:`~agentmsg.to_anthropic` puts it back: nothing is lost. Gemini's thought
# signatures and the ids of Responses reasoning items are kept the same way.

anthropic_response = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-example",
    "content": [
        {"type": "thinking", "thinking": "19 °C is warmer than 4 °C.", "signature": "RXhhbXBsZQ=="},
        {"type": "text", "text": "Lima is warmer."},
    ],
    "stop_reason": "end_turn",
    "usage": {"input_tokens": 90, "output_tokens": 20},
}
reply = from_anthropic(anthropic_response)
print(reply.messages[0].content)
print("losses:", reply.losses)
print("provider_state:", reply.messages[0].metadata["provider_state"])
print(to_anthropic(reply.messages).payload["messages"][0]["content"][0])

# %%
# Gemini's REST API writes its keys in camelCase (``functionCall``,
# ``usageMetadata``), while its Python package uses snake_case, and
# :func:`~agentmsg.from_gemini` reads both. This answer asks for a tool call without
# giving it an id, which Gemini may do. agentmsg then names the call after its tool, and
# a function response without an id answers the oldest unanswered call with that name.

gemini_response = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Lima"}}}],
            },
            "finishReason": "STOP",
        }
    ],
    "usageMetadata": {"promptTokenCount": 40, "candidatesTokenCount": 6, "totalTokenCount": 46},
    "modelVersion": "gemini-example",
    "responseId": "resp-01",
}
reply = from_gemini(gemini_response)
print(reply.messages[0].content)
print("losses:", reply.losses)

# %%
# Recap
# -----
#
# - ``to_openai_chat``, ``to_openai_responses``, ``to_anthropic`` and ``to_gemini``
#   turn a conversation into the request fields of each API; add the model and the
#   options, then send the payload.
# - ``from_openai_chat``, ``from_openai_responses``, ``from_anthropic`` and
#   ``from_gemini`` read a response, or a request payload, back into messages. Tool
#   call ids and tool names survive the round trip.
# - Every conversion lists its losses: the path, what was lost and why, and the
#   substitute when something travels another way. With ``strict=True``, a drop raises
#   :exc:`~agentmsg.MessageError` instead.
