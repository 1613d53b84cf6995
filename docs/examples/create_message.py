"""
.. _tutorial-create-message:

Create a message
================

Agents, users and tools talk to each other through messages. In agentmsg a message is a
:class:`agentmsg.Msg`: who sent it, the part the sender plays, what it says, and any extra
data you want to keep with it. Every value is checked when the message is built, so a
mistake shows up at once, with an explanation, instead of much later inside a model call.

This tutorial builds a message of every kind: plain text, images, sound and video, a
model's reasoning, and a tool call with its result. Then it turns a message into a dict and
into JSON and back again, and shows the methods that read the content of a message.

A message has four fields that you fill in yourself:

.. list-table:: The fields you set on a message
   :header-rows: 1
   :widths: 15 30 55

   * - Field
     - Type
     - Meaning
   * - ``name``
     - ``str`` (not empty)
     - Who sent the message, for example ``"Jarvis"`` or ``"user"``. When several agents
       share a conversation, the name tells them apart.
   * - ``role``
     - ``"user"``, ``"assistant"`` or ``"system"``
     - The part the sender plays in the conversation. Any other value is rejected.
   * - ``content``
     - ``str`` or ``list[ContentBlock]``
     - What the message says: either a string, or a list of content blocks such as text,
       images, audio, video, reasoning, tool calls and tool results.
   * - ``metadata``
     - ``dict`` of JSON values, or ``None``
     - Extra data kept beside the content, for example the structured output of a model.
       It is saved and loaded with the message, but the methods that read the content
       ignore it.

Two more fields, ``id`` and ``timestamp``, are filled in for you; a later section shows
them.
"""

# %%
# A text message
# --------------
#
# The simplest message has a string as its content. Pass the fields by keyword: the code
# then reads well and does not depend on the order of the parameters.

from agentmsg import Msg

greeting = Msg(
    name="Jarvis",
    role="assistant",
    content="Hello! What can I do for you today?",
)

print("name:   ", greeting.name)
print("role:   ", greeting.role)
print("content:", greeting.content)

# %%
# When a message is the last line of a notebook cell, or of an example on this site, it is
# shown as a small chat card with the sender, the role and the content.

greeting

# %%
# Ids and timestamps
# ------------------
#
# Every message also gets an ``id`` and a ``timestamp`` without you asking. The id is a
# random string of 22 characters, different for each message. The timestamp is the local
# time at which the message was created, written as ``YYYY-MM-DD HH:MM:SS.mmm``.

print("id:       ", greeting.id)
print("timestamp:", greeting.timestamp)

# %%
# Random ids and the current time would make the web pages of this documentation change
# at every build, so they are built inside ``with agentmsg.deterministic()``, which makes
# ids and timestamps reproducible; in a notebook you run yourself, they are new each time.
# The :ref:`tutorial-saving-loading` tutorial shows how to use it in your own tests.
#
# You can also set both fields yourself, for example when a message comes from another
# system that already gave it an id. They are checked like every other field. A last,
# optional field, ``invocation_id``, can record which model call produced the message; it
# stays ``None`` unless you set it.

imported = Msg(
    name="user",
    role="user",
    content="Can you read this message from the old system?",
    id="ticket-1042",
    timestamp="2025-03-14 15:09:26.535",
)

print(imported.id, imported.timestamp, imported.invocation_id)

# %%
# Metadata
# --------
#
# The ``metadata`` field holds anything your program wants to keep with the message, as
# long as it can be written as JSON: strings, numbers, booleans, ``None``, lists and dicts
# with string keys. A typical use is the structured answer that a model produced next to
# its text.

verdict = Msg(
    name="reviewer",
    role="assistant",
    content="The pull request looks good to me.",
    metadata={"approved": True, "score": 0.92, "labels": ["docs", "tests"]},
)

print(verdict.metadata)
print(verdict.get_text_content())

# %%
# Content blocks
# --------------
#
# When a message carries more than plain text, its content is a list of blocks. Each block
# is a dict whose ``type`` field says what it holds. The table lists the seven kinds of
# block with an example of each.
#
# .. list-table:: The content blocks
#    :header-rows: 1
#    :widths: 20 30 50
#
#    * - Block
#      - Holds
#      - Example
#    * - :class:`~agentmsg.TextBlock`
#      - Plain text.
#      - .. code-block:: python
#
#           TextBlock(type="text", text="Here is the chart you asked for.")
#    * - :class:`~agentmsg.ThinkingBlock`
#      - The reasoning a model wrote before its answer.
#      - .. code-block:: python
#
#           ThinkingBlock(
#               type="thinking",
#               thinking="The user wants a chart, so I will attach one.",
#           )
#    * - :class:`~agentmsg.ImageBlock`
#      - An image.
#      - .. code-block:: python
#
#           ImageBlock(
#               type="image",
#               source=URLSource(type="url", url="https://example.com/chart.png"),
#           )
#    * - :class:`~agentmsg.AudioBlock`
#      - A sound recording.
#      - .. code-block:: python
#
#           AudioBlock(
#               type="audio",
#               source=URLSource(type="url", url="https://example.com/summary.mp3"),
#           )
#    * - :class:`~agentmsg.VideoBlock`
#      - A video.
#      - .. code-block:: python
#
#           VideoBlock(
#               type="video",
#               source=URLSource(type="url", url="https://example.com/demo.mp4"),
#           )
#    * - :class:`~agentmsg.ToolUseBlock`
#      - A request, written by a model, to call a tool.
#      - .. code-block:: python
#
#           ToolUseBlock(
#               type="tool_use",
#               id="call_1",
#               name="make_chart",
#               input={"kind": "bar"},
#           )
#    * - :class:`~agentmsg.ToolResultBlock`
#      - What the tool returned for that call.
#      - .. code-block:: python
#
#           ToolResultBlock(
#               type="tool_result",
#               id="call_1",
#               name="make_chart",
#               output="chart.png written",
#           )
#
# The block classes only describe the shape of the dicts, for your editor and your type
# checker: calling one returns an ordinary ``dict``, so writing the dict by hand works just
# as well. Here are the seven examples from the table, put together in one message.

from agentmsg import (
    AudioBlock,
    ImageBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    URLSource,
    VideoBlock,
)

examples = [
    TextBlock(type="text", text="Here is the chart you asked for."),
    ThinkingBlock(
        type="thinking",
        thinking="The user wants a chart, so I will attach one.",
    ),
    ImageBlock(
        type="image",
        source=URLSource(type="url", url="https://example.com/chart.png"),
    ),
    AudioBlock(
        type="audio",
        source=URLSource(type="url", url="https://example.com/summary.mp3"),
    ),
    VideoBlock(
        type="video",
        source=URLSource(type="url", url="https://example.com/demo.mp4"),
    ),
    ToolUseBlock(
        type="tool_use",
        id="call_1",
        name="make_chart",
        input={"kind": "bar"},
    ),
    ToolResultBlock(
        type="tool_result",
        id="call_1",
        name="make_chart",
        output="chart.png written",
    ),
]

showcase = Msg(name="Jarvis", role="assistant", content=examples)

print(type(examples[0]))
print([block["type"] for block in showcase.content])
showcase

# %%
# A real conversation spreads these blocks over several messages, as the next sections
# show. The message accepts any mix, though, and checks every block in it.
#
# Nothing is downloaded when a block points to a URL: the message only keeps the address.
# A URL is an ``http``, ``https`` or ``data:`` URL, or names a file on the local disk by a
# path, absolute or relative, or a ``file://`` URL.
#
# Media as base64 text
# --------------------
#
# Instead of a URL, an image, audio or video block can carry the bytes themselves, encoded
# as base64 text, in a :class:`~agentmsg.Base64Source`. Its ``media_type`` must start with
# the kind of the block: ``image/`` in an image block, ``audio/`` in an audio block and
# ``video/`` in a video block. The image below is a real GIF of a single transparent pixel.

from agentmsg import Base64Source

pixel = ImageBlock(
    type="image",
    source=Base64Source(
        type="base64",
        media_type="image/gif",
        data="R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==",
    ),
)

photo_message = Msg(
    name="user",
    role="user",
    content=[TextBlock(type="text", text="What is in this picture?"), pixel],
)

print(photo_message.content[1]["source"]["media_type"])
print(len(photo_message.content[1]["source"]["data"]), "characters of base64")

# %%
# Building a message does not decode the base64 text, so that large files stay fast to
# handle. Call :meth:`Msg.check_media <agentmsg.Msg.check_media>` when you need to be sure
# that the bytes are real and match their media type. The :ref:`tutorial-multimodal`
# tutorial does this with real files and shows the helpers that fill in the source for you.

photo_message.check_media()
print("The pixel is a valid GIF.")

# %%
# Reasoning
# ---------
#
# Reasoning models write down how they arrive at an answer. A
# :class:`~agentmsg.ThinkingBlock` keeps that reasoning apart from the answer itself, so
# that you can show it, store it or leave it out.

answer = Msg(
    name="Jarvis",
    role="assistant",
    content=[
        ThinkingBlock(
            type="thinking",
            thinking="Seven days a week, four weeks: 7 x 4 = 28 days.",
        ),
        TextBlock(type="text", text="Four weeks have 28 days."),
    ],
)

print("answer:   ", answer.get_text_content())
print("reasoning:", answer.get_content_blocks("thinking")[0]["thinking"])

# %%
# Tool calls and their results
# ----------------------------
#
# When a model wants to use a tool, it answers with a :class:`~agentmsg.ToolUseBlock`: the
# name of the tool, the arguments in ``input``, and an ``id`` for this particular call.
# Your program runs the tool and sends back a :class:`~agentmsg.ToolResultBlock` with the
# same ``id``, so the model knows which call the result belongs to.

call = Msg(
    name="Jarvis",
    role="assistant",
    content=[
        ToolUseBlock(
            type="tool_use",
            id="call_42",
            name="get_weather",
            input={"city": "Lisbon", "unit": "celsius"},
        ),
    ],
)

result = Msg(
    name="weather_tool",
    role="system",
    content=[
        ToolResultBlock(
            type="tool_result",
            id="call_42",
            name="get_weather",
            output={"sky": "sunny", "temperature": 24},
        ),
    ],
)

request = call.content[0]
reply = result.content[0]
print(request["name"], request["input"])
print(reply["name"], reply["output"])
print("Same call:", request["id"] == reply["id"])

# %%
# The ``output`` of a tool result can be a string, a list of text, image, audio and video
# blocks, or any other JSON value, such as the dict above. The ``input`` of a tool call is
# always a dict of arguments.
#
# Turning a message into a dict and back
# --------------------------------------
#
# :meth:`Msg.to_dict <agentmsg.Msg.to_dict>` returns the message as a dict of plain JSON
# values, ready for ``json.dumps``. The dict has every field, including the ``id`` and
# the ``timestamp``.

import json

data = call.to_dict()

print(type(data))
print(json.dumps(data, indent=2))

# %%
# :meth:`Msg.to_json <agentmsg.Msg.to_json>` does both steps at once and returns the JSON
# text directly.

print(call.to_json())

# %%
# :meth:`Msg.from_dict <agentmsg.Msg.from_dict>` goes the other way. It checks the dict as
# strictly as the constructor checks its arguments, and the message it builds is equal to
# the original, with the same id and timestamp.

restored = Msg.from_dict(data)

print(type(restored))
print(restored.name, restored.role)
print(json.dumps(restored.content, indent=2))
print("Equal to the original:", restored == call)

# %%
# The :ref:`tutorial-saving-loading` tutorial goes further: JSON text with
# :meth:`Msg.from_json <agentmsg.Msg.from_json>`, whole conversations in a file, and the
# JSON Schema of the dict.
#
# Reading the content
# -------------------
#
# Three methods save you from walking through the blocks by hand. Each one treats a string
# content as if it were a single text block, so your code works the same for both forms.
#
# .. list-table:: Methods that read the content
#    :header-rows: 1
#    :widths: 25 25 50
#
#    * - Method
#      - Parameters
#      - Returns
#    * - :meth:`~agentmsg.Msg.get_text_content`
#      - ``separator`` (default: a newline)
#      - The text of all text blocks joined with the separator, or ``None`` when the
#        message has no text at all.
#    * - :meth:`~agentmsg.Msg.get_content_blocks`
#      - ``block_type``: a block type, a list of them, or ``None``
#      - A list of copies of the blocks of that type, or of all blocks.
#    * - :meth:`~agentmsg.Msg.has_content_blocks`
#      - ``block_type``: a block type, a list of them, or ``None``
#      - ``True`` when the message has at least one block of that type.
#
# First, the text. A message with several text blocks gives them back joined, and a tool
# call, which has no text, gives ``None``.

note = Msg(
    name="Jarvis",
    role="assistant",
    content=[
        TextBlock(type="text", text="Here is your picture again."),
        pixel,
        TextBlock(type="text", text="It is one transparent pixel."),
    ],
)

print(repr(greeting.get_text_content()))
print(repr(note.get_text_content()))
print(repr(note.get_text_content(separator=" ")))
print(repr(call.get_text_content()))

# %%
# Next, the blocks themselves. Asking a string content for its blocks gives one text
# block.

print([block["type"] for block in note.get_content_blocks()])
print(note.get_content_blocks("image"))
print(greeting.get_content_blocks())

# %%
# Finally, a quick yes-or-no question, handy for routing: does this message ask for a tool?

media_types = ["image", "audio", "video"]

for message in (greeting, note, call, result):
    text = message.has_content_blocks("text")
    tool_call = message.has_content_blocks("tool_use")
    media = message.has_content_blocks(media_types)
    print(f"{message.name:>12}  text={text!s:5}  tool call={tool_call!s:5}  media={media}")

# %%
# When something is wrong
# -----------------------
#
# Every check that fails raises :class:`agentmsg.MessageError`, a subclass of
# ``ValueError``. Its text names the field that was wrong and shows the value that
# was given, and its ``path`` attribute holds the same field path for programs.

from agentmsg import MessageError

try:
    Msg(name="Jarvis", role="robot", content="Beep.")
except MessageError as error:
    print(error)
    print("path:", error.path)

# %%
# The path also reaches inside the content, here to the second block, whose text is
# missing.

try:
    Msg(
        name="Jarvis",
        role="assistant",
        content=[
            TextBlock(type="text", text="First block."),
            {"type": "text", "txt": "A typo in the key."},
        ],
    )
except MessageError as error:
    print(error)
    print("path:", error.path)
