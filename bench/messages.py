"""Section ``messages``: build, to_dict and from_dict of one 3-block message, and its memory.

Every library does the same work: an assistant message named ``Jarvis`` whose content
is a text block, a thinking block and an image block with a URL source, built from
fresh block dicts each time, then turned into a dict and back with the library's own
functions. Before anything is timed, each library's round trip is checked to give back
the dict it started from, so the timings compare working code.
"""

from __future__ import annotations

import gc
import json
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._common import LIBRARIES, SUBJECT, Options, Row, Section, Table, time_side_by_side

NAME = "Jarvis"
TEXT = "Paris is the capital of France; the photo shows the Eiffel Tower at dusk."
THINKING = "The user asks about a landmark: name the city first, then describe the photo."
IMAGE_URL = "https://example.com/photos/eiffel-tower-at-dusk.jpg"

SPEED_TARGET = 2.0
"""agentmsg must be at least this many times faster than each peer, per operation."""


@dataclass(frozen=True)
class Contender:
    """One library's way of doing the benchmarked work."""

    label: str
    build: Callable[[], Any]
    to_dict: Callable[[Any], Any]
    from_dict: Callable[[Any], Any]


def _agentmsg() -> Contender:
    from agentmsg import ImageBlock, Msg, TextBlock, ThinkingBlock, URLSource

    def build() -> Msg:
        return Msg(
            NAME,
            [
                TextBlock(type="text", text=TEXT),
                ThinkingBlock(type="thinking", thinking=THINKING),
                ImageBlock(type="image", source=URLSource(type="url", url=IMAGE_URL)),
            ],
            "assistant",
        )

    return Contender(SUBJECT, build, Msg.to_dict, Msg.from_dict)


def _langchain() -> Contender:
    from langchain_core.messages import AIMessage, message_to_dict, messages_from_dict

    def build() -> AIMessage:
        # langchain-core's v1 standard content blocks: "reasoning" is its thinking block,
        # and an image block carries its URL directly.
        return AIMessage(
            name=NAME,
            content=[
                {"type": "text", "text": TEXT},
                {"type": "reasoning", "reasoning": THINKING},
                {"type": "image", "url": IMAGE_URL},
            ],
        )

    def from_dict(data: dict[str, Any]) -> Any:
        return messages_from_dict([data])[0]

    return Contender("langchain-core", build, message_to_dict, from_dict)


def _agentscope() -> Contender:
    from agentscope.message import ImageBlock, Msg, TextBlock, ThinkingBlock, URLSource

    def build() -> Msg:
        return Msg(
            NAME,
            [
                TextBlock(type="text", text=TEXT),
                ThinkingBlock(type="thinking", thinking=THINKING),
                ImageBlock(type="image", source=URLSource(type="url", url=IMAGE_URL)),
            ],
            "assistant",
        )

    return Contender("agentscope", build, Msg.to_dict, Msg.from_dict)


def load_contenders() -> dict[str, Contender]:
    """Import every library, failing with a hint when a peer is missing."""
    contenders = {}
    for load in (_agentmsg, _langchain, _agentscope):
        try:
            contender = load()
        except ImportError as error:
            msg = (
                f"cannot import a benchmarked library ({error}); the peers come with the "
                "`bench` extra: run `make bench`, or `pip install -e '.[bench]'`"
            )
            raise SystemExit(msg) from error
        contenders[contender.label] = contender
    return contenders


def check_round_trip(contender: Contender) -> dict[str, Any]:
    """Build, dump and load once; raise unless the reloaded message dumps the same dict."""
    data = contender.to_dict(contender.build())
    again = contender.to_dict(contender.from_dict(data))
    text = json.dumps(data)
    missing = [part for part in (NAME, TEXT, THINKING, IMAGE_URL) if part not in text]
    if again != data or missing:
        msg = (
            f"{contender.label}: the round trip is broken or incomplete "
            f"(missing {missing}):\n{data}\n{again}"
        )
        raise RuntimeError(msg)
    return data


def time_operations(contenders: dict[str, Contender], options: Options) -> Table:
    """The timing table: build, to_dict and from_dict, side by side."""
    messages = {label: c.build() for label, c in contenders.items()}
    dicts = {label: check_round_trip(c) for label, c in contenders.items()}
    operations: dict[str, dict[str, Callable[[], object]]] = {
        "build (3 blocks)": {label: c.build for label, c in contenders.items()},
        "to_dict": {
            label: (lambda to_dict=c.to_dict, message=messages[label]: to_dict(message))
            for label, c in contenders.items()
        },
        "from_dict": {
            label: (lambda from_dict=c.from_dict, data=dicts[label]: from_dict(data))
            for label, c in contenders.items()
        },
    }
    rows = []
    numbers: dict[str, dict[str, int]] = {}
    for operation, candidates in operations.items():
        medians, samples, numbers[operation] = time_side_by_side(candidates, options)
        rows.append(Row(operation, medians, target=SPEED_TARGET, samples=samples))
    return Table(
        key="messages.time",
        title="Message operations: median time per operation (lower is better)",
        unit="s",
        rows=rows,
        parameters={
            "repeats": options.repeats,
            "min_time_per_repeat": options.min_time,
            "loops_per_repeat": numbers,
        },
        notes=[
            "The work: an assistant message named 'Jarvis' with a text, a thinking and an "
            "image-URL block, built from fresh block dicts; to_dict of it; from_dict of "
            "that library's own to_dict output.",
            "agentmsg: Msg(...) with TextBlock, ThinkingBlock, ImageBlock(URLSource); "
            "Msg.to_dict; Msg.from_dict.",
            "agentscope: agentscope.message.Msg with its TextBlock, ThinkingBlock, "
            "ImageBlock(URLSource); Msg.to_dict; Msg.from_dict.",
            "langchain-core: AIMessage(name=..., content=[...]) with its v1 standard "
            "content blocks, the closest equivalent: {'type': 'text'}, "
            "{'type': 'reasoning'} (its thinking block), {'type': 'image', 'url': ...}; "
            "message_to_dict; messages_from_dict([d])[0].",
            "Not the same guarantees: agentmsg validates every field and copies the "
            "content on build, to_dict and from_dict, and makes an id and a timestamp; "
            "agentscope makes an id and a timestamp, checks only the content's type and "
            "the role (with assert) and copies nothing (its to_dict hands out its own "
            "content list); langchain-core validates with pydantic and makes no id or "
            "timestamp unless given one.",
            f"Median of {options.repeats} repeats of at least {options.min_time:g} s each, "
            "the libraries interleaved within each repeat; garbage collection off while "
            "timing (timeit's default). ratio = fastest peer's time / agentmsg's time.",
        ],
    )


def bytes_per_message(build: Callable[[], Any], count: int) -> float:
    """Traced bytes still held after building *count* messages, divided by *count*."""
    for _ in range(100):  # let lazy caches fill before counting
        build()
    keep: list[Any] = [None] * count  # the list's own slots are allocated before tracing
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for index in range(count):
            keep[index] = build()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    if len(keep) != count or keep[-1] is None:
        raise RuntimeError("the messages were not kept")
    return (after - before) / count


def measure_memory(contenders: dict[str, Contender], options: Options) -> Table:
    """The memory table: bytes per retained message."""
    count = options.memory_count
    values = {label: bytes_per_message(contenders[label].build, count) for label in LIBRARIES}
    return Table(
        key="messages.memory",
        title="Memory: bytes per retained message (lower is better)",
        unit="B",
        rows=[Row("message (3 blocks)", values)],
        parameters={"messages_kept": count},
        notes=[
            f"tracemalloc: bytes allocated and still held after building {count:,} "
            "messages (the same work as 'build'), kept alive in a preallocated list, "
            "divided by their number; 100 warm-up messages first so that lazily filled "
            "caches do not count. Only reported: there is no memory target.",
            "Shared constant strings (the text, the URL) are not counted; each message's "
            "own id and timestamp strings are. Memory that native code takes outside "
            "Python's allocators (pydantic-core's Rust side, say) is not traced.",
        ],
    )


def run(options: Options) -> list[Table]:
    contenders = load_contenders()
    return [time_operations(contenders, options), measure_memory(contenders, options)]


SECTION = Section(
    name="messages",
    description="build / to_dict / from_dict of a 3-block message, and memory per message",
    run=run,
)
