"""
.. _tutorial-role-messages:

Role messages
=============

agentmsg offers two ways to write a conversation. The :class:`agentmsg.Msg` class,
shown in :ref:`tutorial-create-message`, can carry anything: text, media, reasoning,
tool calls and results, metadata. Many chat APIs need less. For them, each turn is a
role and a string, and what you mostly care about is how many tokens the conversation
costs. The *role messages* are made for that style: one small class per role, string
content, a token count, and a function-call flow.

.. list-table:: The four role messages
   :header-rows: 1
   :widths: 22 14 64

   * - Class
     - ``role``
     - What it holds
   * - :class:`~agentmsg.HumanMessage`
     - ``"user"``
     - What the user says: a question or a request, optionally with images, sound or
       video.
   * - :class:`~agentmsg.SystemMessage`
     - ``"system"``
     - An instruction that holds for the whole conversation, such as the part the
       model plays or the format of its answers.
   * - :class:`~agentmsg.AIMessage`
     - ``"assistant"``
     - What the model answers: text, or a request to call a function.
   * - :class:`~agentmsg.FunctionMessage`
     - ``"function"``
     - What a function returned, sent back to the model after it asked for the call.

All four share the base class :class:`~agentmsg.ChatMessage`. This tutorial creates
each of them, looks at their token counts and chat payloads, holds a conversation with a
small stand-in model that calls a function, and finally converts everything to
:class:`~agentmsg.Msg` and back. Nothing here talks to a real model or to the network.
"""

# %%
# The four roles
# --------------
#
# Each class takes its content as a string. A function message also takes the name of
# the function whose result it carries. Printing a message shows its role, its content
# and, when it is known, its token count.

import json

from agentmsg import AIMessage, FunctionMessage, HumanMessage, SystemMessage

question = HumanMessage("Which planet is closest to the Sun?")
instruction = SystemMessage("You are an astronomy guide. Keep answers short.")
answer = AIMessage("Mercury.")
lookup = FunctionMessage(
    name="planet_facts",
    content=json.dumps({"planet": "Mercury", "moons": 0}),
)

print(question)
print(instruction)
print(answer)
print(lookup)

# %%
# ``repr`` adds the class name, which helps when you inspect a list of mixed messages:

print(repr(question))
print([type(message).__name__ for message in (question, instruction, answer, lookup)])

# %%
# What every message carries
# --------------------------
#
# The attributes are the same for every role, with a few additions:
#
# .. list-table:: Attributes of a role message
#    :header-rows: 1
#    :widths: 22 28 50
#
#    * - Attribute
#      - Type
#      - Meaning
#    * - ``role``
#      - ``str``
#      - Fixed by the class: ``"user"``, ``"system"``, ``"assistant"`` or ``"function"``.
#    * - ``content``
#      - ``str``
#      - The text of the message.
#    * - ``name``
#      - ``str`` or ``None``
#      - The sender's name, if you give one. For a function message, the function's
#        name, which is required.
#    * - ``token_count``
#      - ``int``
#      - How many tokens the content costs; the next section explains when it is known.
#    * - ``files``
#      - ``list`` of blocks
#      - Human messages only: images, sound and video sent with the text.
#    * - ``function_call``
#      - ``dict`` or ``None``
#      - AI messages only: the function the model wants called.
#    * - ``token_usage``
#      - ``dict`` or ``None``
#      - AI messages only: the token usage reported by the chat API.
#
# The role and the content of a message are fixed once it is made. The fields that ERNIE
# Bot Agent's code assigns can be assigned here too: the token count on every message,
# and fields such as an AI message's ``function_call`` and ``search_info``. Each value is
# checked when it is set.

print(question.role, "|", question.content)
print(lookup.role, "|", lookup.name, "|", lookup.content)
print("function_call:", answer.function_call, "| token_usage:", answer.token_usage)

# %%
# Token counts
# ------------
#
# Chat models limit and bill conversations by tokens, so each role message has a
# ``token_count``. When it is known depends on the role:
#
# - A **system message** counts the characters of its content as soon as it is created.
#   That is a rough rule, but a reasonable one for Chinese, where one character is about
#   one token.
# - An **AI message** takes ``completion_tokens`` from the ``token_usage`` the chat API
#   reported. Without a usage report, it estimates the count from its text.
# - A **human message** and a **function message** have no count until you set one.
#
# Here is the system message from above, and a Chinese one:

print(instruction.token_count, "tokens for", len(instruction.content), "characters")
chinese_instruction = SystemMessage("你是一名天文向导，回答要简短。")
print(chinese_instruction)

# %%
# Reading the count of a human message before it is set raises
# :class:`~agentmsg.TokenCountError`, whose text tells you what to do:

from agentmsg import TokenCountError

try:
    question.token_count
except TokenCountError as error:
    print("TokenCountError:", error)

# %%
# You can set it with a count from your tokenizer, or with
# :func:`~agentmsg.estimate_tokens`. That function is an estimate, not a real
# tokenizer: it counts each Chinese, Japanese or Korean character as one token, a word as
# one token for every six letters or part of six, a number as one token for every three
# digits or part of three, any other visible character (punctuation, symbols, emoji) as
# one, and spaces as nothing.

from agentmsg import estimate_tokens

print(estimate_tokens("Which planet is closest to the Sun?"))
print(estimate_tokens("离太阳最近的行星是哪一颗？"))

question.token_count = estimate_tokens(question.content)
print(question)

# %%
# A count can be set again, as in ERNIE Bot Agent, whose memories set the count of a
# message each time it enters one. The new count replaces the old one, and a warning on
# the ``agentmsg`` logger says so. The same holds for system and AI messages, whose
# counts are known from the start.

question.token_count = 99
print("Now:", question.token_count)

# %%
# An AI message built from a chat API's reply gets the whole usage report. Its
# ``token_count`` is the number of tokens the model produced:

usage = {"prompt_tokens": 31, "completion_tokens": 2, "total_tokens": 33}
reported = AIMessage("Mercury.", token_usage=usage)
print(reported.token_count)
print(reported.token_usage)

# %%
# Chat payloads
# -------------
#
# :meth:`~agentmsg.ChatMessage.to_dict` returns the dict that a chat API expects for one
# turn: the role and the content, plus the name of a function message and the files of a
# human message, shown later. An AI message's dict always has the three keys of ERNIE Bot
# Agent's, ``function_call``, ``plugin_info`` and ``search_info``, set to ``None`` when
# the answer has none. Token counts are not part of it.

for message in (question, instruction, answer, lookup):
    print(message.to_dict())

# %%
# :meth:`~agentmsg.ChatMessage.from_dict` reads such a dict back. Called on
# :class:`~agentmsg.ChatMessage`, it picks the class from the ``role``:

from agentmsg import ChatMessage

payload = {"role": "user", "content": "And the farthest?"}
restored = ChatMessage.from_dict(payload)
print(repr(restored))
print(restored.to_dict() == payload)

# %%
# A conversation over several turns
# ---------------------------------
#
# A chat model does not remember earlier turns: each request sends the whole
# conversation. With role messages, the conversation is simply a list, and the request
# body is the list of their payloads.

conversation = [
    HumanMessage("I have a free Saturday in Lisbon. Any ideas?"),
    AIMessage(
        "Three ideas: ride tram 28 through Alfama, visit the Oceanário, "
        "or take the train to Sintra."
    ),
    HumanMessage("Of those three, which one suits a rainy day? Just the name, please."),
]

request = [message.to_dict() for message in conversation]
print(json.dumps(request, indent=2, ensure_ascii=False))

# %%
# Before sending, you can add up the tokens to stay within the model's limit. Here the
# human messages get estimated counts, and the AI message already has one:

for message in conversation:
    if isinstance(message, HumanMessage):
        message.token_count = estimate_tokens(message.content)
print("Tokens in the conversation:", sum(message.token_count for message in conversation))

# %%
# Giving the model an instruction
# -------------------------------
#
# A system message sets the rules for the whole conversation. Some chat APIs take it as
# the first message of the list; others take the instruction text in a separate
# parameter. Both are easy to produce:

tutor = SystemMessage("You are a patient maths tutor. Explain with simple examples.")
homework = [HumanMessage("Why is any number to the power of zero equal to one?")]

# Style 1: the instruction is the first message of the list.
print([message.to_dict() for message in [tutor, *homework]])

# Style 2: the instruction travels on its own.
print({"system": tutor.content, "messages": [message.to_dict() for message in homework]})
print("The instruction costs", tutor.token_count, "tokens.")

# %%
# Sending files along
# -------------------
#
# :meth:`HumanMessage.create_with_files <agentmsg.HumanMessage.create_with_files>` adds
# images, sound or video to a question. Each file is a local path or raw ``bytes``. The
# files are read at once, without any network access, and each becomes a media block with
# its bytes in base64; the media type is detected from the bytes. A missing file or an
# unsupported format raises :class:`~agentmsg.MediaError` naming the file.

import tempfile
from pathlib import Path

from agentmsg import MediaError

# A 1x1 transparent GIF, small enough to write inline.
pixel = bytes.fromhex(
    "47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b"
)

with tempfile.TemporaryDirectory() as folder:
    photo = Path(folder) / "pixel.gif"
    photo.write_bytes(pixel)
    with_files = HumanMessage.create_with_files("What colour is this pixel?", [photo, pixel])

try:
    HumanMessage.create_with_files("And this one?", ["no-such-photo.png"])
except MediaError as error:
    print("MediaError:", error)

print(with_files)
print([block["source"]["media_type"] for block in with_files.files])

# %%
# The payload lists the files as media blocks next to the text:

payload = with_files.to_dict()
print(list(payload))
first_file = payload["files"][0]
print(first_file["type"], first_file["source"]["media_type"], first_file["source"]["data"])

# %%
# A function call from start to finish
# ------------------------------------
#
# When a model needs something it cannot know, it answers with a *function call*
# instead of text: the name of a function and its arguments as JSON text, often with a
# short explanation in ``thoughts``. Your program runs the function and sends the result
# back in a :class:`~agentmsg.FunctionMessage`; then the model writes its final answer.
#
# To show the whole flow without a real model, here is a stand-in: a plain class with
# fixed rules. If the last message is a question, it asks for the currency converter;
# if the last message is the converter's result, it answers in words. Real models decide
# by themselves, but they produce exactly these messages.

import re

RATES = {("EUR", "JPY"): 162.5, ("USD", "EUR"): 0.92, ("GBP", "USD"): 1.27}


def convert_currency(amount, source, target):
    """The function the model may call."""
    return {"amount": round(amount * RATES[source, target], 2), "currency": target}


FUNCTIONS = {"convert_currency": convert_currency}
CURRENCIES = {"euros": "EUR", "yen": "JPY", "dollars": "USD", "pounds": "GBP"}


class StandInModel:
    """Plays the part of a chat model with fixed rules, so the example is repeatable."""

    def chat(self, messages):
        last = messages[-1]
        if isinstance(last, FunctionMessage):
            result = json.loads(last.content)
            text = f"That is {result['amount']:,.2f} {result['currency']}."
            return self._reply(messages, text)
        amount = float(re.search(r"\d+(?:\.\d+)?", last.content).group())
        words = re.findall(r"[a-z]+", last.content.lower())
        source, target = [CURRENCIES[word] for word in words if word in CURRENCIES]
        call = {
            "name": "convert_currency",
            "thoughts": "I need today's rate, so I will ask the converter.",
            "arguments": json.dumps({"amount": amount, "source": source, "target": target}),
        }
        return self._reply(messages, "", call)

    def _reply(self, messages, text, call=None):
        # Report usage the way a chat API does, with estimated numbers.
        prompt = sum(estimate_tokens(message.content) for message in messages)
        completion = estimate_tokens(text + (call["arguments"] if call else ""))
        usage = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
        return AIMessage(text, function_call=call, token_usage=usage)


model = StandInModel()

# %%
# The user asks a question. The model's first reply carries a function call and no text:

chat = [
    SystemMessage("You help travellers with money questions."),
    HumanMessage("How much is 120 euros in yen?"),
]
reply = model.chat(chat)
chat.append(reply)

print(reply)
print(reply.function_call["name"], reply.function_call["arguments"])

# %%
# Your program looks the function up, runs it with the parsed arguments, and sends the
# result back as a function message named after the function:

call = reply.function_call
result = FUNCTIONS[call["name"]](**json.loads(call["arguments"]))
chat.append(FunctionMessage(call["name"], json.dumps(result)))
print(chat[-1])

# %%
# Seeing the result, the model answers in words. Here is the whole conversation, and the
# payloads a chat API would have received for the second request:

final = model.chat(chat)
chat.append(final)

for message in chat:
    print(message)

# %%

print(json.dumps([message.to_dict() for message in chat[:-1]], indent=2))

# %%
# Moving to and from Msg
# ----------------------
#
# :meth:`~agentmsg.ChatMessage.to_msg` turns a role message into a
# :class:`~agentmsg.Msg`, so it can be stored, displayed and mixed with conversations
# written with :class:`~agentmsg.Msg` directly. :meth:`~agentmsg.ChatMessage.from_msg`
# goes the other way. The mapping is:
#
# - the text becomes the Msg's content: a plain string, or a text block when other
#   blocks come with it;
# - a human message's files follow the text as media blocks;
# - a function call becomes a :class:`~agentmsg.ToolUseBlock` whose ``input`` is the
#   parsed arguments and whose ``raw_input`` is their text as the model wrote it,
#   preceded by a thinking block for its ``thoughts``;
# - a function message becomes a message with role ``"system"``, sent by ``"system"``,
#   holding one :class:`~agentmsg.ToolResultBlock`. A Msg has no ``"function"`` role;
#   ``"system"`` is the role tool results travel with in agentmsg;
# - any other message is sent by its ``name`` when it has one, else by ``"user"``,
#   ``"system"`` or ``"assistant"``; pass ``name=`` to choose another;
# - a token count that cannot be worked out again, such as an AI message's usage report,
#   is kept in the Msg's ``metadata``.

msgs = [message.to_msg() for message in chat]
for msg in msgs:
    print(f"{msg.role:9} {msg.name:9} {msg.content!r}")

# %%
# The call and its result share a tool id. The stand-in model gave none, so both got
# ``"call_convert_currency"``, derived from the function's name:

use = msgs[2].get_content_blocks("tool_use")[0]
tool_result = msgs[3].get_content_blocks("tool_result")[0]
print(use)
print(tool_result)
print("Same call:", use["id"] == tool_result["id"])

# %%
# Converting back gives the same conversation, token usage included:

again = [ChatMessage.from_msg(msg) for msg in msgs]
print([type(message).__name__ for message in again])
print("Unchanged:", again == chat)

# %%
# Any :class:`~agentmsg.Msg` that fits a role message converts, whoever wrote it. A
# user Msg with a sender name keeps that name, and an assistant Msg with a tool call
# becomes an AI message with a function call:

from agentmsg import Msg

visitor = ChatMessage.from_msg(Msg(name="Ana", role="user", content="Olá! Is it far?"))
print(repr(visitor))

planner = Msg(
    name="planner",
    role="assistant",
    content=[
        {"type": "text", "text": "Let me measure it."},
        {
            "type": "tool_use",
            "id": "route-1",
            "name": "distance_km",
            "input": {"from": "Lisbon", "to": "Sintra"},
        },
    ],
)
print(repr(ChatMessage.from_msg(planner)))

# %%
# In a notebook, as on the web version of this tutorial, a role message displays as the
# card of its Msg form:

print(type(final).__name__, "shown as a Msg card:")
final

# %%
# When something is wrong
# -----------------------
#
# Role messages check their input like the rest of agentmsg: a wrong type or an unknown
# field raises :class:`~agentmsg.MessageError`, whose text names the field and the value.

from agentmsg import MessageError

attempts = {
    "content that is not a string": lambda: HumanMessage(42),
    "a function call without arguments": lambda: AIMessage("", {"name": "convert_currency"}),
    "a misspelled usage field": lambda: AIMessage("ok", token_usage={"prompt_token": 3}),
    "an unknown payload field": lambda: ChatMessage.from_dict(
        {"role": "user", "content": "hi", "mood": "curious"}
    ),
}
for label, attempt in attempts.items():
    try:
        attempt()
    except MessageError as error:
        print(f"{label}:\n    {error}")

# %%
# The arguments of a function call are kept as text, exactly as the model wrote them,
# because models sometimes produce broken JSON and your program should be able to see
# it. They are parsed when the message becomes a Msg, and a problem is reported there:

broken = AIMessage("", {"name": "convert_currency", "arguments": "{amount: 120}"})
print(broken.function_call["arguments"])
try:
    broken.to_msg()
except MessageError as error:
    print("MessageError:", error)

# %%
# The role and the content cannot be changed after a message is made; build a new
# message instead:

try:
    question.content = "Which planet is largest?"
except MessageError as error:
    print("MessageError:", error)
