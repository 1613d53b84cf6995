"""The realistic messages of section ``messages``, for every library, and the msgspec schema.

Two workloads beside the 3-block one of ``messages.py``:

- ``tool``: an assistant turn that calls a tool and carries its result, the shape most
  agent loops produce: a text block, a tool use block (two arguments) and a tool result
  whose output is one text block (AgentScope's tools return a list of blocks).
- ``multimodal``: one block of each of the seven types: a text, a thinking block, a
  base64 PNG image (8 KiB, a small thumbnail), a base64 MP3 sound (16 KiB, about a
  second of speech), a video URL, a tool use, and a tool result holding a text and a
  base64 PNG chart (4 KiB).

and a ``text`` workload: a message whose content is one string, the commonest of all.

The media bytes are fixed pseudo-random bytes behind each format's signature (nothing
decodes them: no library checks base64 payloads when building a message), so every run
measures the same text. Each library gets the same information in its own standard
form: agentmsg's and agentscope's blocks are the same dicts; langchain-core's are its v1
standard content blocks (``reasoning``, ``image``/``audio`` with ``base64`` and
``mime_type``, ``video`` with ``url``, ``tool_call`` with ``args``, and
``server_tool_result``, its one block that holds a tool's result inside an AI message).

The msgspec schema is the floor: a compiled validator of the same rules, as far as
msgspec can state them: tagged unions of ``Struct`` types that forbid unknown fields,
non-empty ids and names, the roles as a ``Literal``, and patterns for the media types,
URLs and timestamps (agentmsg also checks that a timestamp is a real date, which no
pattern can). Its tool inputs and JSON outputs are ``dict[str, Any]``, which msgspec
passes through without checking or copying the values: agentmsg checks and copies them,
so the floor does a little less work than agentmsg.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

NAME = "Jarvis"


def _payload(signature: bytes, size: int, seed: int) -> str:
    """Base64 text of *size* bytes: *signature*, then fixed pseudo-random bytes."""
    rest = random.Random(seed).randbytes(size - len(signature))
    return base64.b64encode(signature + rest).decode("ascii")


PHOTO = _payload(b"\x89PNG\r\n\x1a\n", 8 * 1024, 1)
SOUND = _payload(b"ID3\x04\x00", 16 * 1024, 2)
CHART = _payload(b"\x89PNG\r\n\x1a\n", 4 * 1024, 3)
VIDEO_URL = "https://example.com/videos/lima-harbour-timelapse.mp4"
CALL_ID = "call_7f3a9c2e"
TOOL_TEXT = "Let me check the weather in Lima for you."
RESULT_TEXT = "19 °C, cloudy, a light wind from the south-west."
MULTI_TEXT = "Here is the forecast for Lima, with a chart of the week and the harbour."
MULTI_THINKING = "The user wants the forecast: call the weather tool, then show its chart."
ONLY_TEXT = "Paris is the capital of France; the Eiffel Tower stands on the Champ de Mars."


@dataclass(frozen=True)
class Workload:
    """One message, written for each library."""

    key: str
    title: str
    blocks: Callable[[], Any]
    """agentmsg's and agentscope's content, made fresh at each call."""
    langchain: Callable[[], Any]
    """langchain-core's content, made fresh at each call."""
    parts: tuple[str, ...]
    """Strings that every library's dict must hold (a check that nothing was dropped)."""


def tool_blocks() -> list[dict[str, Any]]:
    return [
        {"type": "text", "text": TOOL_TEXT},
        {
            "type": "tool_use",
            "id": CALL_ID,
            "name": "get_weather",
            "input": {"city": "Lima", "unit": "celsius"},
        },
        {
            "type": "tool_result",
            "id": CALL_ID,
            "name": "get_weather",
            "output": [{"type": "text", "text": RESULT_TEXT}],
        },
    ]


def tool_langchain() -> list[dict[str, Any]]:
    return [
        {"type": "text", "text": TOOL_TEXT},
        {
            "type": "tool_call",
            "id": CALL_ID,
            "name": "get_weather",
            "args": {"city": "Lima", "unit": "celsius"},
        },
        {
            "type": "server_tool_result",
            "tool_call_id": CALL_ID,
            "status": "success",
            "output": [{"type": "text", "text": RESULT_TEXT}],
        },
    ]


def multimodal_blocks() -> list[dict[str, Any]]:
    return [
        {"type": "text", "text": MULTI_TEXT},
        {"type": "thinking", "thinking": MULTI_THINKING},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PHOTO}},
        {"type": "audio", "source": {"type": "base64", "media_type": "audio/mpeg", "data": SOUND}},
        {"type": "video", "source": {"type": "url", "url": VIDEO_URL}},
        {
            "type": "tool_use",
            "id": CALL_ID,
            "name": "get_forecast",
            "input": {"city": "Lima", "days": 7},
        },
        {
            "type": "tool_result",
            "id": CALL_ID,
            "name": "get_forecast",
            "output": [
                {"type": "text", "text": RESULT_TEXT},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": CHART},
                },
            ],
        },
    ]


def multimodal_langchain() -> list[dict[str, Any]]:
    return [
        {"type": "text", "text": MULTI_TEXT},
        {"type": "reasoning", "reasoning": MULTI_THINKING},
        {"type": "image", "base64": PHOTO, "mime_type": "image/png"},
        {"type": "audio", "base64": SOUND, "mime_type": "audio/mpeg"},
        {"type": "video", "url": VIDEO_URL},
        {
            "type": "tool_call",
            "id": CALL_ID,
            "name": "get_forecast",
            "args": {"city": "Lima", "days": 7},
        },
        {
            "type": "server_tool_result",
            "tool_call_id": CALL_ID,
            "status": "success",
            "output": [
                {"type": "text", "text": RESULT_TEXT},
                {"type": "image", "base64": CHART, "mime_type": "image/png"},
            ],
        },
    ]


def text_only() -> str:
    return ONLY_TEXT


WORKLOADS = {
    "tool": Workload(
        "tool",
        "text + tool_use + tool_result",
        tool_blocks,
        tool_langchain,
        (TOOL_TEXT, CALL_ID, "get_weather", "celsius", RESULT_TEXT),
    ),
    "multimodal": Workload(
        "multimodal",
        "7 blocks: text, thinking, base64 image and audio, video URL, tool use and result",
        multimodal_blocks,
        multimodal_langchain,
        (MULTI_TEXT, MULTI_THINKING, PHOTO, SOUND, VIDEO_URL, CALL_ID, RESULT_TEXT, CHART),
    ),
    "text": Workload("text", "text only (a string)", text_only, text_only, (ONLY_TEXT,)),
}


# -- the msgspec floor -------------------------------------------------------------------


def msgspec_schema() -> Any:
    """The msgspec ``Struct`` of a message, equivalent to agentmsg's rules (see above)."""
    from typing import Annotated, Literal

    import msgspec
    from msgspec import UNSET, Meta, UnsetType

    non_empty = Annotated[str, Meta(min_length=1)]
    stamp = Annotated[str, Meta(pattern=r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$")]
    optional_text = (str | UnsetType, UNSET)  # an optional field: absent unless given

    def struct(name: str, tag: str | None, fields: list[Any]) -> Any:
        if tag is None:
            return msgspec.defstruct(name, fields, forbid_unknown_fields=True)
        return msgspec.defstruct(
            name, fields, tag_field="type", tag=tag, forbid_unknown_fields=True
        )

    def media(kind: str) -> Any:
        media_type = Annotated[str, Meta(pattern=f"^{kind}/.")]
        url = Annotated[
            str,
            Meta(
                pattern=f"^(https?://.|data:({kind}/[^;,]*)?(;[^,]*)?,"
                r"|file://[^/?#\\]*/.|/[^/]|[A-Za-z]:[\\/].)"
            ),
        ]
        base64_source = struct(
            f"{kind}_base64", "base64", [("media_type", media_type), ("data", str)]
        )
        url_source = struct(f"{kind}_url", "url", [("url", url)])
        return struct(kind, kind, [("source", base64_source | url_source)])

    image, audio, video = media("image"), media("audio"), media("video")
    text = struct("text", "text", [("text", str), ("thought_signature", *optional_text)])
    thinking = struct("thinking", "thinking", [("thinking", str), ("signature", *optional_text)])
    tool_use = struct(
        "tool_use",
        "tool_use",
        [
            ("id", non_empty),
            ("name", non_empty),
            ("input", dict[str, Any]),
            ("raw_input", *optional_text),
            ("thought_signature", *optional_text),
        ],
    )
    output = str | list[text | image | audio | video] | dict[str, Any] | None
    tool_result = struct(
        "tool_result", "tool_result", [("id", non_empty), ("name", non_empty), ("output", output)]
    )
    block = text | thinking | image | audio | video | tool_use | tool_result
    return struct(
        "Message",
        None,
        [
            ("name", non_empty),
            ("role", Literal["user", "assistant", "system"]),
            ("content", str | list[block]),
            ("id", non_empty | None, None),
            ("metadata", dict[str, Any] | None, None),
            ("timestamp", stamp | None, None),
            ("invocation_id", str | None, None),
        ],
    )


# -- the 100-message conversation --------------------------------------------------------

ROUNDS = 25
"""Rounds of the conversation, four messages each: 100 messages."""


def conversation_turns() -> list[tuple[str, str, Any]]:
    """The conversation as (sender, content, role) for agentmsg and agentscope, made fresh:
    per round a question, a text and a tool call, the tool's result, and the answer."""
    turns: list[tuple[str, str, Any]] = []
    for index in range(ROUNDS):
        call_id = f"call_{index:04d}"
        turns += [
            ("user", f"What is the weather in city number {index}?", "user"),
            (
                NAME,
                [
                    {"type": "text", "text": TOOL_TEXT},
                    {
                        "type": "tool_use",
                        "id": call_id,
                        "name": "get_weather",
                        "input": {"city": f"city {index}", "unit": "celsius"},
                    },
                ],
                "assistant",
            ),
            (
                "system",
                [
                    {
                        "type": "tool_result",
                        "id": call_id,
                        "name": "get_weather",
                        "output": [{"type": "text", "text": RESULT_TEXT}],
                    }
                ],
                "system",
            ),
            (NAME, f"It is {index % 30} °C and cloudy there.", "assistant"),
        ]
    return turns


def conversation_langchain() -> list[Any]:
    """The same conversation as langchain-core messages: human, AI with a tool call (v1
    blocks), tool and AI messages."""
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    messages: list[Any] = []
    for index in range(ROUNDS):
        call_id = f"call_{index:04d}"
        messages += [
            HumanMessage(content=f"What is the weather in city number {index}?"),
            AIMessage(
                name=NAME,
                content=[
                    {"type": "text", "text": TOOL_TEXT},
                    {
                        "type": "tool_call",
                        "id": call_id,
                        "name": "get_weather",
                        "args": {"city": f"city {index}", "unit": "celsius"},
                    },
                ],
            ),
            ToolMessage(content=[{"type": "text", "text": RESULT_TEXT}], tool_call_id=call_id),
            AIMessage(name=NAME, content=f"It is {index % 30} °C and cloudy there."),
        ]
    return messages
