"""Section ``messages``: build, to_dict and from_dict of one 3-block message, and its memory.

Every library does the same work: an assistant message named ``Jarvis`` whose content
is a text block, a thinking block and an image block with a URL source, built from
fresh block dicts each time, then turned into a dict and back with the library's own
functions. Before anything is timed, each library's round trip is checked to give back
the dict it started from, and each "equal guarantee" to_dict is checked to hand out a
dict that shares nothing mutable with the message, so the timings compare working code.
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

REFERENCES_EXCEPTION = {
    "agentscope": "agentscope's to_dict returns references to the message's own content "
    "and metadata; agentmsg copies by contract, so that the caller may change the dict "
    "without changing the message. The 'to_dict (equal guarantee)' row compares the same "
    "guarantee"
}
"""Why the plain to_dict row does not hold agentmsg to 2x agentscope."""


@dataclass(frozen=True)
class Contender:
    """One library's way of doing the benchmarked work."""

    label: str
    build: Callable[[], Any]
    to_dict: Callable[[Any], Any]
    from_dict: Callable[[Any], Any]
    to_dict_copy: Callable[[Any], Any]
    """to_dict with agentmsg's guarantee: nothing mutable shared with the message."""
    read_stamp: Callable[[Any], object] = lambda message: None
    """Read the message's id and timestamp (agentmsg writes its timestamp on first read)."""


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON-shaped value: dicts and lists copied, other values shared.

    The cheapest correct deep copy of a dict of JSON values found here: several times
    cheaper than :func:`copy.deepcopy`, and cheaper than a pickle, marshal or JSON round
    trip. Leaves (strings, numbers, None) are immutable, so sharing them is safe.
    """
    kind = type(value)
    if kind is dict:
        copied = value.copy()
        for key, item in value.items():
            inner = type(item)
            if inner is dict or inner is list:
                copied[key] = copy_json(item)
        return copied
    if kind is list:
        copied = value.copy()
        for index, item in enumerate(value):
            inner = type(item)
            if inner is dict or inner is list:
                copied[index] = copy_json(item)
        return copied
    return value


def _agentmsg() -> Contender:
    from agentmsg import Msg

    def build() -> Msg:
        return Msg(
            NAME,
            [
                {"type": "text", "text": TEXT},
                {"type": "thinking", "thinking": THINKING},
                {"type": "image", "source": {"type": "url", "url": IMAGE_URL}},
            ],
            "assistant",
        )

    def read_stamp(message: Msg) -> object:
        return message.id, message.timestamp

    return Contender(SUBJECT, build, Msg.to_dict, Msg.from_dict, Msg.to_dict, read_stamp)


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

    # message_to_dict goes through pydantic's model_dump, which builds new dicts and
    # lists: it already shares nothing mutable with the message (checked below).
    return Contender("langchain-core", build, message_to_dict, from_dict, message_to_dict)


def _agentscope() -> Contender:
    from agentscope.message import Msg

    def build() -> Msg:
        return Msg(
            NAME,
            [
                {"type": "text", "text": TEXT},
                {"type": "thinking", "thinking": THINKING},
                {"type": "image", "source": {"type": "url", "url": IMAGE_URL}},
            ],
            "assistant",
        )

    def to_dict_copy(message: Msg) -> dict[str, Any]:
        # Msg.to_dict makes a new top-level dict whose content and metadata are the
        # message's own objects: deep-copy those values, the least that gives the guarantee.
        data: dict[str, Any] = message.to_dict()
        for key, value in data.items():
            if type(value) is dict or type(value) is list:
                data[key] = copy_json(value)
        return data

    def read_stamp(message: Msg) -> object:
        return message.id, message.timestamp

    return Contender("agentscope", build, Msg.to_dict, Msg.from_dict, to_dict_copy, read_stamp)


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


def _poke(value: Any) -> None:
    """Change every dict and list inside *value* (and *value* itself)."""
    if type(value) is dict:
        for item in list(value.values()):
            _poke(item)
        value["__poked__"] = True
    elif type(value) is list:
        for item in value:
            _poke(item)
        value.append("__poked__")


def shares_nothing(contender: Contender, to_dict: Callable[[Any], Any]) -> bool:
    """Whether changing every container of ``to_dict(message)`` leaves the message alone."""
    message = contender.build()
    before = json.dumps(contender.to_dict(message), sort_keys=True)
    _poke(to_dict(message))
    return json.dumps(contender.to_dict(message), sort_keys=True) == before


def check_copy_guarantee(contender: Contender) -> bool:
    """Raise unless the contender's equal-guarantee to_dict shares nothing; return whether
    its plain to_dict does too."""
    if not shares_nothing(contender, contender.to_dict_copy):
        msg = f"{contender.label}: the 'equal guarantee' to_dict shares state with the message"
        raise RuntimeError(msg)
    return shares_nothing(contender, contender.to_dict)


def time_operations(contenders: dict[str, Contender], options: Options) -> Table:
    """The timing table: build, to_dict and from_dict, side by side."""
    messages = {label: c.build() for label, c in contenders.items()}
    dicts = {label: check_round_trip(c) for label, c in contenders.items()}
    plain_copies = {label: check_copy_guarantee(c) for label, c in contenders.items()}
    if not plain_copies[SUBJECT]:
        raise RuntimeError("agentmsg's to_dict shares state with the message")
    operations: dict[str, dict[str, Callable[[], object]]] = {
        "build (3 blocks)": {label: c.build for label, c in contenders.items()},
        "to_dict": {
            label: (lambda to_dict=c.to_dict, message=messages[label]: to_dict(message))
            for label, c in contenders.items()
        },
        "to_dict (equal guarantee)": {
            label: (lambda to_dict=c.to_dict_copy, message=messages[label]: to_dict(message))
            for label, c in contenders.items()
        },
        "from_dict": {
            label: (lambda from_dict=c.from_dict, data=dicts[label]: from_dict(data))
            for label, c in contenders.items()
        },
        "build, then to_dict": {
            label: (lambda build=c.build, to_dict=c.to_dict: to_dict(build()))
            for label, c in contenders.items()
        },
    }
    targets: dict[str, float | None] = {"build, then to_dict": None}
    exceptions = {"to_dict": {p: REFERENCES_EXCEPTION[p] for p in REFERENCES_EXCEPTION}}
    rows = []
    numbers: dict[str, dict[str, int]] = {}
    for operation, candidates in operations.items():
        medians, samples, numbers[operation] = time_side_by_side(candidates, options)
        row = Row(
            operation,
            medians,
            target=targets.get(operation, SPEED_TARGET),
            samples=samples,
            excluded=exceptions.get(operation, {}),
        )
        rows.append(row)
    return Table(
        key="messages.time",
        title="Message operations: median time per operation (lower is better)",
        unit="s",
        rows=rows,
        parameters={
            "repeats": options.repeats,
            "min_time_per_repeat": options.min_time,
            "loops_per_repeat": numbers,
            "plain_to_dict_shares_nothing": plain_copies,
        },
        notes=[
            "The work: an assistant message named 'Jarvis' with a text, a thinking and an "
            "image-URL block, built from fresh block dicts; to_dict of it; from_dict of "
            "that library's own to_dict output.",
            "Every library gets its blocks as dict literals, the same work for all three. "
            "agentmsg's and agentscope's block classes are TypedDicts: calling one builds "
            "the same dict through dict(**kwargs), about 0.25 us a block, the same cost "
            "for both and none of either library's doing.",
            "agentmsg: Msg(...) with text, thinking and image(url) block dicts; "
            "Msg.to_dict; Msg.from_dict. A Msg made without a timestamp stores its creation "
            "time (time.time_ns) and writes the timestamp text when it is first read, so "
            "'build' leaves that work to to_dict, repr or the attribute; 'build, then "
            "to_dict' (reported, no target) includes it.",
            "agentscope: agentscope.message.Msg with the same block dicts; Msg.to_dict; "
            "Msg.from_dict.",
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
            "to_dict (equal guarantee): each library's to_dict with agentmsg's guarantee "
            "that changing the dict leaves the message alone (checked before timing by "
            "changing every dict and list in the result). agentmsg: Msg.to_dict; "
            "langchain-core: message_to_dict, which already copies (pydantic model_dump); "
            "agentscope: Msg.to_dict, then its content and metadata deep-copied with "
            "copy_json (bench/messages.py), a recursive dict/list copy and the cheapest "
            "correct deep copy we found (copy.deepcopy, what a user would likely write, "
            "costs several times more).",
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

    def build_and_read(contender: Contender) -> Callable[[], Any]:
        def build() -> Any:
            message = contender.build()
            contender.read_stamp(message)
            return message

        return build

    read = {
        label: bytes_per_message(build_and_read(contenders[label]), count) for label in LIBRARIES
    }
    return Table(
        key="messages.memory",
        title="Memory: bytes per retained message (lower is better)",
        unit="B",
        rows=[
            Row("message (3 blocks)", values),
            Row("message (3 blocks), id and timestamp read", read),
        ],
        parameters={"messages_kept": count},
        notes=[
            f"tracemalloc: bytes allocated and still held after building {count:,} "
            "messages (the same work as 'build'), kept alive in a preallocated list, "
            "divided by their number; 100 warm-up messages first so that lazily filled "
            "caches do not count. Only reported: there is no memory target.",
            "Shared constant strings (the text, the URL) are not counted; each message's "
            "own id and timestamp strings are. An agentmsg message keeps an int (its "
            "creation time) instead of its timestamp text until the timestamp is first read: "
            "the second row reads the id and timestamp of every message (langchain-core's "
            "message has neither). Memory that native code takes outside "
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
