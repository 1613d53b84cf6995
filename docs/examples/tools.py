"""
.. _tutorial-tools:

Tools
=====

A language model cannot run code by itself. When it needs something it cannot know,
such as today's weather, it asks your program to call a tool and waits for the answer.
In agentmsg, the request is a :class:`agentmsg.ToolUseBlock` inside an assistant
message, and the answer is a :class:`agentmsg.ToolResultBlock` that carries the same
call id.

This tutorial builds that round trip with plain local Python functions, so nothing
here talks to a model or to the network. You will see how to:

- read the tool calls out of an assistant message;
- keep a small registry of tool functions and run each requested call;
- answer with results whose ids match the calls, and check that none is missing;
- return text, JSON values, or a list of text and image blocks as a tool's output;
- report a failing tool in a predictable way;
- pair every call with its result across a whole conversation.
"""

import json
import struct
import zlib

from agentmsg import (
    ImageBlock,
    MessageError,
    Msg,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    URLSource,
    block_from_bytes,
)

# %%
# The request: a tool use block
# -----------------------------
#
# A model that wants a tool answers with an assistant message whose content holds one
# :class:`agentmsg.ToolUseBlock` per call. Each block has four fields: ``type`` is
# always ``"tool_use"``, ``id`` identifies this particular call, ``name`` says which
# tool to run, and ``input`` is a dict of the arguments. The message may also contain
# ordinary text, as it does here.

request = Msg(
    name="Jarvis",
    role="assistant",
    content=[
        TextBlock(type="text", text="Let me look up the weather in Lima."),
        ToolUseBlock(type="tool_use", id="call_1", name="get_weather", input={"city": "Lima"}),
    ],
)
request

# %%
# :meth:`agentmsg.Msg.get_content_blocks` with the argument ``"tool_use"`` returns only
# the calls, leaving the text aside. This is the list your program works through.

for call in request.get_content_blocks("tool_use"):
    print(call["id"], call["name"], call["input"])

# %%
# The tools: plain Python functions
# ---------------------------------
#
# A tool is any function your program is willing to run on a model's behalf. Here
# there are two. The first returns a dict of facts from a small local table, the second
# returns a sentence. A dict that maps each tool name to its function is all the
# registry a small program needs: the name in a tool use block is the key to look up.

WEATHER = {
    "Lima": {"city": "Lima", "sky": "cloudy", "temperature_c": 19},
    "Oslo": {"city": "Oslo", "sky": "sunny", "temperature_c": 4},
}


def get_weather(city: str) -> dict:
    """Return the current weather in a city."""
    return WEATHER[city]


def to_fahrenheit(celsius: float) -> str:
    """Convert a temperature from degrees Celsius to degrees Fahrenheit."""
    return f"{celsius} °C is {celsius * 9 / 5 + 32:g} °F."


TOOLS = {"get_weather": get_weather, "to_fahrenheit": to_fahrenheit}
print(sorted(TOOLS))

# %%
# The answer: a tool result with the same id
# ------------------------------------------
#
# For every call, the program runs the tool and wraps what it returned in a
# :class:`agentmsg.ToolResultBlock`. The result repeats the call's ``id``: that is how
# the model, and any code that reads the conversation later, knows which question this
# output answers. The ``name`` is repeated too, which keeps the result readable on its
# own. The ``output`` holds whatever the tool returned.
#
# The function below is a first, simple dispatcher. It handles a single call and
# assumes that the tool exists and succeeds; a later section makes it sturdier.


def run_call(call: ToolUseBlock) -> ToolResultBlock:
    tool = TOOLS[call["name"]]
    output = tool(**call["input"])
    return ToolResultBlock(type="tool_result", id=call["id"], name=call["name"], output=output)


first_result = run_call(request.get_content_blocks("tool_use")[0])
for field in ("id", "name", "output"):
    print(f"{field:>6}: {first_result[field]}")

# %%
# The results go back to the model in a message of their own. The role of a
# :class:`agentmsg.Msg` is ``user``, ``assistant`` or ``system``, and none of them is
# reserved for tools, so this tutorial, like the other ones, sends results in a
# ``system`` message, here named ``tools``. What matters is that each result keeps the
# id of its call.

answer = Msg(name="tools", role="system", content=[first_result])
answer

# %%
# JSON outputs
# ------------
#
# The weather tool returned a dict, and the result kept it as a dict: a tool's output
# may be a string, a number, a boolean, ``None``, a list or a dict, nested as deeply as
# you like. Code that reads the result can use the fields directly, without parsing
# any text. The dict also survives a trip through JSON, for example when the
# conversation is stored or sent to another process.

weather = answer.get_content_blocks("tool_result")[0]["output"]
print(f"{weather['city']}: {weather['temperature_c']} °C, {weather['sky']}")

restored = Msg.from_json(answer.to_json())
print("unchanged after a JSON round trip:", restored == answer)

# %%
# Only values that JSON can represent are accepted. A Python tuple, a set or a
# ``datetime`` would not come back unchanged from a JSON round trip, so the message
# refuses them instead of converting them silently. The error names the field that
# holds the value. Convert such values in the tool: a list instead of a tuple or a set,
# an ISO 8601 string instead of a date.

try:
    Msg(
        name="tools",
        role="system",
        content=[
            ToolResultBlock(type="tool_result", id="call_2", name="get_range", output=(4, 19)),
        ],
    )
except MessageError as error:
    print(error)

# %%
# Outputs made of blocks
# ----------------------
#
# Some tools produce more than data: a chart, a photo, a recording. A tool's output can
# therefore also be a list of content blocks, mixing text with images, audio and video.
#
# The next tool draws a small weather icon. To stay self-contained, it builds a tiny
# PNG image in memory with ``zlib`` and ``struct``, then turns the bytes into an
# image block with :func:`agentmsg.block_from_bytes`, which detects the media type and
# encodes the bytes as base64.


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


def sky_icon(city: str) -> list:
    """Return a short caption and a 48x48 icon of the sky over a city."""
    sky = WEATHER[city]["sky"]
    disc = (255, 200, 0) if sky == "sunny" else (200, 200, 210)
    background = (120, 190, 240) if sky == "sunny" else (110, 120, 135)

    def color_at(x, y):
        return disc if (x - 23.5) ** 2 + (y - 23.5) ** 2 < 225 else background

    image = block_from_bytes(png_bytes(48, 48, color_at))
    return [TextBlock(type="text", text=f"The sky over {city} is {sky}."), image]


TOOLS["sky_icon"] = sky_icon

icon_call = ToolUseBlock(type="tool_use", id="call_3", name="sky_icon", input={"city": "Oslo"})
icon_answer = Msg(name="tools", role="system", content=[run_call(icon_call)])
icon_answer

# %%
# Inside a tool output, a list is read as blocks when every item is a dict whose
# ``type`` names a content block; any other list, such as ``[4, 19]``, is plain JSON
# data. Only text, image, audio and video blocks may appear in an output: a thinking
# block or a nested tool call there is an error.
#
# Building a message never decodes base64 data, which keeps it fast. When you want to be
# sure the image really is a PNG, for instance before sending it to a model, call
# :meth:`agentmsg.Msg.check_media`. It looks inside tool outputs as well, and raises
# :exc:`agentmsg.MediaError` if a payload does not match its declared media type.

icon_answer.check_media()  # raises MediaError if a payload is wrong
image = icon_answer.get_content_blocks("tool_result")[0]["output"][1]
print(image["source"]["media_type"], len(image["source"]["data"]), "base64 characters")

# %%
# An image does not have to be carried as base64. A :class:`agentmsg.URLSource`
# accepts ``http``, ``https`` and ``data:`` URLs and local files, and a ``data:`` URL puts
# the bytes inside the URL itself. Nothing is downloaded, read or decoded when the block
# is built.

data_url = "data:image/png;base64," + image["source"]["data"]
url_image = ImageBlock(type="image", source=URLSource(type="url", url=data_url))
url_answer = Msg(
    name="tools",
    role="system",
    content=[
        ToolResultBlock(type="tool_result", id="call_4", name="sky_icon", output=[url_image]),
    ],
)
source = url_answer.get_content_blocks("tool_result")[0]["output"][0]["source"]
print(source["type"], source["url"][:30] + "...")

# %%
# When a tool fails
# -----------------
#
# Tools fail: a city is missing from the table, the model invents a tool that does not
# exist, or it passes an argument the function does not take. Raising the exception in
# the middle of the loop would stop the conversation. It is usually better to tell the
# model what went wrong, so that it can correct itself or explain the problem to the
# user.
#
# agentmsg has no special field for errors. This tutorial follows a simple convention:
# a failed call still gets a tool result with the call's id, and its output is a dict
# with a single ``error`` key that describes the problem. Any code that reads the
# results can then tell failures apart with one test. The convention belongs to this
# program, not to the library, so pick one that suits yours and apply it everywhere.
#
# Here is the sturdier dispatcher. It answers every call, whatever goes wrong inside the
# tool. One mistake still surfaces later: an output that JSON cannot represent is
# refused when the result message is built, as the previous section showed.


def run_call(call: ToolUseBlock) -> ToolResultBlock:
    try:
        tool = TOOLS.get(call["name"])
        if tool is None:
            raise LookupError(f"there is no tool named {call['name']!r}")
        output = tool(**call["input"])
    except Exception as error:
        output = {"error": f"{type(error).__name__}: {error}"}
    return ToolResultBlock(type="tool_result", id=call["id"], name=call["name"], output=output)


for bad_call in [
    ToolUseBlock(type="tool_use", id="call_5", name="get_weather", input={"city": "Atlantis"}),
    ToolUseBlock(type="tool_use", id="call_6", name="get_forecast", input={"city": "Lima"}),
    ToolUseBlock(type="tool_use", id="call_7", name="get_weather", input={"town": "Lima"}),
]:
    print(run_call(bad_call)["output"])

# %%
# Several calls in one message
# ----------------------------
#
# A model may ask for several tools at once, for example when the calls do not depend
# on each other. The message then holds several tool use blocks, each with its own id.
# The program runs them all and answers with one message that holds one result per
# call. The helper below does exactly that for any assistant message.


def answer_calls(message: Msg) -> Msg:
    results = [run_call(call) for call in message.get_content_blocks("tool_use")]
    return Msg(name="tools", role="system", content=results)


multi_request = Msg(
    name="Jarvis",
    role="assistant",
    content=[
        TextBlock(type="text", text="I will compare Lima and Oslo."),
        ToolUseBlock(type="tool_use", id="call_8", name="get_weather", input={"city": "Lima"}),
        ToolUseBlock(type="tool_use", id="call_9", name="get_weather", input={"city": "Oslo"}),
        ToolUseBlock(type="tool_use", id="call_10", name="to_fahrenheit", input={"celsius": 4}),
    ],
)
multi_answer = answer_calls(multi_request)
multi_answer

# %%
# Models expect an answer to every call they made, and some model APIs reject a
# conversation in which a call has no result. Because results are matched by id and
# not by position, the check compares two sets of ids: the calls that were asked for
# and the calls that were answered. Both differences should be empty. The second
# example forgets the last result on purpose.


def check_answers(calls: Msg, results: Msg) -> None:
    asked = {block["id"] for block in calls.get_content_blocks("tool_use")}
    answered = {block["id"] for block in results.get_content_blocks("tool_result")}
    print("unanswered:", sorted(asked - answered), "| unexpected:", sorted(answered - asked))


check_answers(multi_request, multi_answer)

incomplete = Msg(
    name="tools", role="system", content=multi_answer.get_content_blocks("tool_result")[:2]
)
check_answers(multi_request, incomplete)

# %%
# Collecting results from a conversation
# --------------------------------------
#
# Over a longer conversation, calls and results are spread across many messages. To
# audit what the tools did, gather every tool use block and every tool result block
# from all the messages, index the results by id, and walk through the calls. Because
# this pairing relies on ids alone, each call id should be unique within a
# conversation. Models generate unique ids; agentmsg checks that an id is a non-empty
# string but does not compare ids across messages.

conversation = [
    Msg(name="Ada", role="user", content="Is it warmer in Lima or in Oslo right now?"),
    multi_request,
    multi_answer,
    Msg(
        name="Jarvis",
        role="assistant",
        content=[
            ToolUseBlock(type="tool_use", id="call_11", name="sky_icon", input={"city": "Lima"}),
            ToolUseBlock(type="tool_use", id="call_12", name="sky_icon", input={"city": "Rome"}),
        ],
    ),
]
conversation.append(answer_calls(conversation[-1]))
conversation.append(
    Msg(
        name="Jarvis",
        role="assistant",
        content="Lima is warmer: 19 °C under clouds, against 4 °C (39.2 °F) and sun in Oslo.",
    )
)

uses = [block for message in conversation for block in message.get_content_blocks("tool_use")]
results = {
    block["id"]: block
    for message in conversation
    for block in message.get_content_blocks("tool_result")
}


def describe(output) -> str:
    if isinstance(output, dict) and "error" in output:
        return "FAILED " + output["error"]
    if isinstance(output, dict):
        return ", ".join(f"{key}={value}" for key, value in output.items())
    if isinstance(output, list) and all(isinstance(item, dict) for item in output):
        return " + ".join(item["type"] for item in output) + " blocks"
    return repr(output)


for call in uses:
    shown = ", ".join(f"{key}={value!r}" for key, value in call["input"].items())
    result = results.get(call["id"])
    outcome = "no result" if result is None else describe(result["output"])
    print(f"{call['id']:<8} {call['name']}({shown}) -> {outcome}")

# %%
# The table shows each call next to its outcome, including the failure for Rome, a city
# the weather table does not know. The ``error`` convention made it easy to spot.

# %%
# A tool input must be a dict
# ---------------------------
#
# The ``input`` of a tool use block is always a dict of named arguments. Some model APIs
# deliver the arguments as a JSON string instead. Passing that string on unchanged is
# a common mistake, and the message rejects it with a :exc:`agentmsg.MessageError`
# that names the field and shows the value. The error's ``path`` attribute holds the
# same field path, for code that needs to react to it.

arguments = '{"city": "Lima"}'
try:
    Msg(
        name="Jarvis",
        role="assistant",
        content=[
            ToolUseBlock(type="tool_use", id="call_13", name="get_weather", input=arguments),
        ],
    )
except MessageError as error:
    print(error)
    print("path:", error.path)

# %%
# The fix is to decode the string first with ``json.loads``, which turns the JSON
# object into the dict that the block expects.

fixed = Msg(
    name="Jarvis",
    role="assistant",
    content=[
        ToolUseBlock(
            type="tool_use", id="call_13", name="get_weather", input=json.loads(arguments)
        ),
    ],
)
print(fixed.get_content_blocks("tool_use")[0]["input"])

# %%
# Recap
# -----
#
# - A tool call is a :class:`agentmsg.ToolUseBlock` in an assistant message; its
#   ``input`` is a dict of arguments.
# - A dispatcher looks the tool up by name, runs it and answers with a
#   :class:`agentmsg.ToolResultBlock` that repeats the call's ``id`` and ``name``.
# - An output is a string, any JSON value, or a list of text, image, audio and video
#   blocks.
# - Failures are reported as results too; the ``{"error": ...}`` dict used here is a
#   convention of this tutorial, not a feature of the library.
# - Pair calls and results by id, never by position, and check that every call has
#   exactly one answer.
