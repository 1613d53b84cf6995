"""
.. _tutorial-use-cases:

Use cases
=========

Messages made of typed blocks are useful wherever several kinds of information travel
together: a bug report with a screenshot, a lesson with a diagram and a recording, a
task passed from one agent to another, an answer adapted for someone who uses a screen
reader.

This tutorial follows one small story that touches all of these. At a school, a
teacher reports that the classroom projector shows "No signal". A help desk agent
reads her report, looks up the school's knowledge base and opens a ticket, then hands
the case to an audio-visual specialist. The specialist checks the room's equipment and
finds the cause. A tutor agent turns the fix into a short illustrated lesson with
audio, and the help desk sends the teacher an accessible answer. At the end, a few
lines of code summarise the whole exchange from the messages alone.

Every step is an ordinary :class:`agentmsg.Msg`. The agents are simulated, and the
images and sound are generated in a few lines, so the example runs anywhere, without
a model or a network connection.
"""

import io
import math
import struct
import textwrap
import wave
import zlib

from agentmsg import (
    MessageError,
    Msg,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    block_from_bytes,
)

# %%
# Media made in code
# ------------------
#
# The story needs a screenshot, a diagram and a spoken explanation. Real applications
# would read them from files or receive them from a model; here two small functions
# build them. The first encodes a tiny RGB image as PNG bytes using ``zlib`` and
# ``struct``. The second writes a short tone as WAV bytes with the ``wave``
# module; it stands in for the narration that a text-to-speech tool would produce.
# :func:`agentmsg.block_from_bytes` then turns the bytes into an image or audio block,
# recognising the format from the bytes themselves.


def png_bytes(width, height, color_at):
    """Encode an RGB image as PNG; color_at(x, y) returns an (r, g, b) tuple."""

    def chunk(kind, data):
        checksum = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + checksum

    rows = b"".join(
        b"\x00" + bytes(value for x in range(width) for value in color_at(x, y))
        for y in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def wav_bytes(frequency, seconds, rate=8000):
    """Encode a mono 8-bit sine tone as WAV."""
    samples = bytes(
        round(128 + 90 * math.sin(2 * math.pi * frequency * n / rate))
        for n in range(int(seconds * rate))
    )
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(1)
        wav.setframerate(rate)
        wav.writeframes(samples)
    return buffer.getvalue()


def screenshot_pixel(x, y):
    if y < 12:
        return (200, 200, 200)  # title bar
    if 28 <= x < 100 and 36 <= y < 60:
        return (255, 255, 255)  # the "No signal" box
    return (20, 30, 90)


def diagram_pixel(x, y):
    if 8 <= x < 40 and 12 <= y < 52:
        return (40, 110, 200)  # laptop
    if 40 <= x < 88 and 30 <= y < 34:
        return (60, 60, 60)  # HDMI cable
    if 88 <= x < 120 and 20 <= y < 44:
        return (240, 140, 30)  # projector
    return (250, 250, 250)


screenshot = block_from_bytes(png_bytes(128, 80, screenshot_pixel))
diagram = block_from_bytes(png_bytes(128, 64, diagram_pixel))
narration = block_from_bytes(wav_bytes(440, 1.0))
for block in (screenshot, diagram, narration):
    source = block["source"]
    print(f"{block['type']:<6} {source['media_type']:<10} {len(source['data']):>6,} characters")

# %%
# The agents also need two lookups: a search in the school's knowledge base and the
# inventory of each classroom's equipment. They are plain functions over local data.
# A dispatcher runs the tool a :class:`agentmsg.ToolUseBlock` names and answers with a
# :class:`agentmsg.ToolResultBlock` that carries the same call id. The :ref:`tutorial-tools`
# tutorial explains this round trip, and how to handle failing tools, in detail.

KNOWLEDGE_BASE = [
    {"id": "KB-12", "title": "Projector shows No signal", "fix": "Check cable and display mode"},
    {"id": "KB-31", "title": "Projector lamp does not light", "fix": "Replace the lamp"},
]
ROOMS = {"B12": {"projector": "Epson EB-X51", "input": "HDMI 1", "laptop_port": "USB-C adapter"}}


def search_knowledge_base(query: str) -> list:
    words = query.lower().split()
    return [
        article
        for article in KNOWLEDGE_BASE
        if all(word in article["title"].lower() for word in words)
    ]


def room_equipment(room: str) -> dict:
    return ROOMS[room]


TOOLS = {"search_knowledge_base": search_knowledge_base, "room_equipment": room_equipment}


def run_tools(request: Msg) -> Msg:
    results = [
        ToolResultBlock(
            type="tool_result",
            id=call["id"],
            name=call["name"],
            output=TOOLS[call["name"]](**call["input"]),
        )
        for call in request.get_content_blocks("tool_use")
    ]
    return Msg(name="tools", role="system", content=results)


conversation = []
print(sorted(TOOLS))

# %%
# A support ticket with a screenshot
# ----------------------------------
#
# The teacher, Grace, writes to the help desk. Her message combines a sentence and a
# screenshot of what her laptop shows, in the order she wants them read. She also
# mentions that she uses a screen reader, which will shape the final answer. The
# ``name`` field tells the participants apart; her ``role`` is ``user``. Every message
# of the story is appended to the list ``conversation``, which the last section reads
# back.

report = Msg(
    name="Grace",
    role="user",
    content=[
        TextBlock(
            type="text",
            text="The projector in room B12 says 'No signal'. Here is my laptop screen. "
            "I use a screen reader, so a spoken explanation would help.",
        ),
        screenshot,
    ],
)
conversation.append(report)
report

# %%
# Triage: thinking and a lookup
# -----------------------------
#
# The agents in this story all write with the ``assistant`` role, and their ``name``
# says which agent is speaking. The help desk agent plans before acting. A reasoning
# model's plan travels in a :class:`agentmsg.ThinkingBlock`, which keeps it apart from
# the words meant for the user. In the same message, the agent asks for a knowledge base
# search with a tool use block, and the dispatcher answers with the matching result.

triage = Msg(
    name="helpdesk",
    role="assistant",
    content=[
        ThinkingBlock(
            type="thinking",
            thinking="A 'No signal' screen usually means a cable or display setting. "
            "Search the knowledge base first, then involve the AV team.",
        ),
        TextBlock(type="text", text="Thanks, Grace. I am looking into it."),
        ToolUseBlock(
            type="tool_use",
            id="kb_1",
            name="search_knowledge_base",
            input={"query": "no signal"},
        ),
    ],
)
search = run_tools(triage)
conversation += [triage, search]
for found in search.get_content_blocks("tool_result")[0]["output"]:
    print(found["id"], "-", found["title"])

# %%
# The ticket lives in metadata
# ----------------------------
#
# The help desk opens a ticket and passes the case to the audio-visual specialist. The
# hand-off message has two readers. Its content is for the specialist: a summary
# in words and the teacher's screenshot, copied from her message with
# :meth:`agentmsg.Msg.get_content_blocks`. Its ``metadata`` is for programs: a
# structured ticket record that a tracking system can store and update without reading
# any prose. Metadata may hold any JSON values.

article = search.get_content_blocks("tool_result")[0]["output"][0]
handoff = Msg(
    name="helpdesk",
    role="assistant",
    content=[
        TextBlock(
            type="text",
            text=f"Room B12 projector shows 'No signal'. {article['id']} suggests "
            "checking the cable and display mode. Screenshot attached.",
        ),
        *report.get_content_blocks("image"),
    ],
    metadata={
        "ticket": {
            "id": "T-1042",
            "room": "B12",
            "category": "projector",
            "status": "escalated",
            "assigned_to": "av_specialist",
            "needs": ["audio", "image descriptions"],
        }
    },
)
conversation.append(handoff)
handoff

# %%
# Passing the case between agents
# --------------------------------
#
# A message records its sender, not its recipient: delivering it to the right agent is
# the job of your application. Agents often run in separate processes, so the hand-off
# travels as text, for example through a queue. :meth:`agentmsg.Msg.to_json` writes the
# whole message, image and metadata included, and :meth:`agentmsg.Msg.from_json`
# rebuilds it on the other side, validating every field again. The specialist receives
# an equal message.

wire = handoff.to_json()
received = Msg.from_json(wire)
print(f"{len(wire):,} characters of JSON; same message on arrival: {received == handoff}")

# %%
# The specialist reasons about the case, checks the room's equipment with a tool, and
# reports back. Its findings are written twice on purpose: as a sentence for people and
# models to read, and as structured metadata that the help desk's code can use
# directly.

investigation = Msg(
    name="av_specialist",
    role="assistant",
    content=[
        ThinkingBlock(
            type="thinking",
            thinking="The screenshot shows the laptop's own screen, so the laptop works. "
            "Check which input the projector expects.",
        ),
        ToolUseBlock(type="tool_use", id="inv_1", name="room_equipment", input={"room": "B12"}),
    ],
)
equipment_answer = run_tools(investigation)
equipment = equipment_answer.get_content_blocks("tool_result")[0]["output"]

findings = Msg(
    name="av_specialist",
    role="assistant",
    content=f"The {equipment['projector']} listens on {equipment['input']}. The laptop "
    "sends its picture only to its own screen; switching to 'Duplicate' fixes it.",
    metadata={
        "cause": "laptop display mode is 'PC screen only'",
        "fix": ["Press Windows + P", "Choose Duplicate", "Wait five seconds"],
        "ticket": "T-1042",
    },
)
conversation += [investigation, equipment_answer, findings]
findings

# %%
# A lesson with a diagram and audio
# ---------------------------------
#
# Teachers meet this problem again and again, so a tutor agent turns the fix into a
# short lesson for the staff handbook. It reads the steps from the specialist's
# metadata and builds one message that mixes numbered steps, the diagram of the
# connection and the spoken version.

steps = findings.metadata["fix"]
lesson = Msg(
    name="tutor",
    role="assistant",
    content=[
        TextBlock(type="text", text="Lesson: getting the picture onto the projector"),
        diagram,
        TextBlock(type="text", text="\n".join(f"{n}. {s}" for n, s in enumerate(steps, 1))),
        narration,
    ],
)
conversation.append(lesson)
lesson

# %%
# An accessible answer
# --------------------
#
# Grace uses a screen reader, so the answer must work without seeing the picture. An
# image block has exactly two fields, ``type`` and ``source``: there is no field for a
# description, and the message rejects unknown fields rather than ignoring them.

try:
    Msg(
        name="helpdesk",
        role="assistant",
        content=[{**diagram, "alt": "A laptop connected to a projector"}],
    )
except MessageError as error:
    print(error)

# %%
# The description therefore goes in a text block placed right after the image, where a
# model reads it and a screen reader announces it. The symbols in the steps make them
# easy to scan, and each one sits next to words, so nothing is lost when it is read
# aloud. The recording comes last. The ticket record in the metadata is updated to
# show that the case is resolved.

numbered = [(n, "①②③④⑤⑥⑦⑧⑨"[n - 1], step) for n, step in enumerate(steps, 1)]
ticket = {**handoff.metadata["ticket"], "status": "resolved", "cause": findings.metadata["cause"]}
answer = Msg(
    name="helpdesk",
    role="assistant",
    content=[
        TextBlock(type="text", text="Good news, Grace: the projector is fine. ✔"),
        TextBlock(
            type="text",
            text="\n".join(f"{symbol} Step {n}: {step}." for n, symbol, step in numbered),
        ),
        diagram,
        TextBlock(
            type="text",
            text="Image description: a laptop on the left, joined by an HDMI cable "
            "to a projector on the right.",
        ),
        narration,
    ],
    metadata={"ticket": ticket},
)
conversation.append(answer)
answer

# %%
# Summing up the exchange
# -----------------------
#
# Everything that happened is in the messages themselves, so a short loop can report
# it. For each message, :meth:`agentmsg.Msg.get_content_blocks` lists the kinds of
# blocks it holds and :meth:`agentmsg.Msg.get_text_content` joins its text. A message
# made only of tool calls or tool results has no text, so the loop names the tools
# instead.

for number, message in enumerate(conversation, 1):
    kinds = ", ".join(block["type"] for block in message.get_content_blocks())
    text = message.get_text_content()
    if text is None:
        tools = message.get_content_blocks(["tool_use", "tool_result"])
        text = ", ".join(f"{block['type']} {block['name']}" for block in tools)
    print(f"{number}. {message.name} ({message.role}) [{kinds}]")
    print("  ", textwrap.shorten(text, width=64, placeholder=" ..."))

# %%
# The checks below answer the questions a reviewer would ask, using
# :meth:`agentmsg.Msg.has_content_blocks` and the metadata: did every tool call get a
# result, does the final answer include audio and an image, and what does the ticket
# say now? :meth:`agentmsg.Msg.check_media` also confirms that every base64 payload
# really is the PNG or WAV data it claims to be.

calls = {b["id"] for m in conversation for b in m.get_content_blocks("tool_use")}
results = {b["id"] for m in conversation for b in m.get_content_blocks("tool_result")}
print("every tool call answered:", calls == results)
print("final answer has audio:", answer.has_content_blocks("audio"))
print("final answer has an image:", answer.has_content_blocks("image"))
thinkers = [m.name for m in conversation if m.has_content_blocks("thinking")]
print("agents that showed their reasoning:", thinkers)

for message in conversation:
    message.check_media()
print("all media payloads verified")

final_ticket = conversation[-1].metadata["ticket"]
for key in ("id", "room", "status", "cause"):
    print(f"{key:>7}: {final_ticket[key]}")
