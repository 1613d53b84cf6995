"""Section ``messages``: messages built, turned into dicts and JSON and back, side by side.

Every library does the same work: an assistant message named ``Jarvis``, built from
fresh block dicts each time, then turned into a dict and back with the library's own
functions. The first table is a text + thinking + image-URL message. The realistic
workloads follow (``workloads.py``: a tool round, a 7-block multimodal message, a
100-message conversation saved and loaded as JSON Lines), each timed for build, to_dict,
from_dict, to_json and from_json, with msgspec's ratio beside each row as the compiled
reference; then a text-only message, held to its speed before this work. Before anything
is timed, each library's round trip is checked to give back what it wrote, and each
"equal guarantee" to_dict to share nothing mutable with the message, so the timings
compare working code.
"""

from __future__ import annotations

import gc
import json
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._common import (
    LIBRARIES,
    SUBJECT,
    Options,
    Row,
    Section,
    Table,
    time_side_by_side,
)
from ._revision import load_revision, revision_table
from .workloads import (
    WORKLOADS,
    Workload,
    conversation_langchain,
    conversation_turns,
    msgspec_schema,
)

NAME = "Jarvis"
TEXT = "Paris is the capital of France; the photo shows the Eiffel Tower at dusk."
THINKING = "The user asks about a landmark: name the city first, then describe the photo."
IMAGE_URL = "https://example.com/photos/eiffel-tower-at-dusk.jpg"

SPEED_TARGET = 2.0
"""On the 3-block message, agentmsg must be at least this many times faster than each
peer, per operation."""
REALISTIC_TARGETS = {"tool": 1.5, "multimodal": 1.0, "conversation": 1.0}
"""On the realistic workloads, each of build, to_dict and from_dict must be at least this
many times faster than the faster peer. msgspec's ratio is printed beside each row as the
compiled reference, not as a target."""
JSON_TEXT_TARGET = 1.0
"""to_json and from_json on every workload: at least as fast as the faster peer (issue 18
retired the tool round's 1.5x for them: every library hands the text to the same C codec,
and the ceiling measured was 1.70x)."""
REALISTIC_OPERATIONS = ("build", "to_dict", "from_dict", "to_json", "from_json")
REFERENCE = "msgspec"
BASELINE_COMMIT = "9900f8302d77bd42224d017f2b7136596d73c286"
"""agentmsg as it was before the realistic workloads and in-place checks were added."""
BASELINE_TARGET = 1.10
"""A text-only message keeps its speed: build, to_dict and from_dict cost at most this
many times what they cost at :data:`BASELINE_COMMIT`, measured side by side."""

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


def _read_stamp(message: Any) -> object:
    """Read a message's id and timestamp (agentmsg's and agentscope's ``Msg``)."""
    return message.id, message.timestamp


def _agentscope_to_dict_copy(message: Any) -> dict[str, Any]:
    """agentscope's ``Msg.to_dict`` with agentmsg's guarantee. It makes a new top-level
    dict whose content and metadata are the message's own objects: deep-copy those
    values, the least that gives the guarantee."""
    data: dict[str, Any] = message.to_dict()
    for key, value in data.items():
        if type(value) is dict or type(value) is list:
            data[key] = copy_json(value)
    return data


def _three_blocks() -> list[dict[str, Any]]:
    return [
        {"type": "text", "text": TEXT},
        {"type": "thinking", "thinking": THINKING},
        {"type": "image", "source": {"type": "url", "url": IMAGE_URL}},
    ]


def _three_langchain() -> list[dict[str, Any]]:
    # langchain-core's v1 standard content blocks: "reasoning" is its thinking block,
    # and an image block carries its URL directly.
    return [
        {"type": "text", "text": TEXT},
        {"type": "reasoning", "reasoning": THINKING},
        {"type": "image", "url": IMAGE_URL},
    ]


THREE_BLOCKS = Workload(
    "three", "3 blocks", _three_blocks, _three_langchain, (NAME, TEXT, THINKING, IMAGE_URL)
)
"""The 3-block message of the first table: text, thinking and an image by URL."""


def _agentmsg_for(workload: Workload) -> Contender:
    from agentmsg import Msg

    blocks = workload.blocks

    def build() -> Msg:
        return Msg(NAME, blocks(), "assistant")

    return Contender(SUBJECT, build, Msg.to_dict, Msg.from_dict, Msg.to_dict, _read_stamp)


def _langchain_for(workload: Workload) -> Contender:
    from langchain_core.messages import AIMessage, message_to_dict, messages_from_dict

    content = workload.langchain

    def build() -> AIMessage:
        return AIMessage(name=NAME, content=content())

    def from_dict(data: dict[str, Any]) -> Any:
        return messages_from_dict([data])[0]

    # message_to_dict goes through pydantic's model_dump, which builds new dicts and
    # lists: it already shares nothing mutable with the message (checked below).
    return Contender("langchain-core", build, message_to_dict, from_dict, message_to_dict)


def _agentscope_for(workload: Workload) -> Contender:
    from agentscope.message import Msg

    blocks = workload.blocks

    def build() -> Msg:
        return Msg(NAME, blocks(), "assistant")

    return Contender(
        "agentscope", build, Msg.to_dict, Msg.from_dict, _agentscope_to_dict_copy, _read_stamp
    )


def load_contenders(workload: Workload | None = None) -> dict[str, Contender]:
    """Import every library, failing with a hint when a peer is missing; the contenders
    of *workload*, or of the 3-block message."""
    contenders = {}
    for load in (_agentmsg_for, _langchain_for, _agentscope_for):
        try:
            contender = load(workload or THREE_BLOCKS)
        except ImportError as error:
            msg = (
                f"cannot import a benchmarked library ({error}); the peers come with the "
                "`bench` dependency group: run `make bench`, or `pip install --group bench`"
            )
            raise SystemExit(msg) from error
        contenders[contender.label] = contender
    return contenders


def check_round_trip(
    contender: Contender, parts: tuple[str, ...] = (NAME, TEXT, THINKING, IMAGE_URL)
) -> dict[str, Any]:
    """Build, dump and load once; raise unless the reloaded message dumps the same dict,
    holding every one of *parts*."""
    data = contender.to_dict(contender.build())
    again = contender.to_dict(contender.from_dict(data))
    text = json.dumps(data, ensure_ascii=False)
    missing = [part for part in (NAME, *parts) if part not in text]
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


def operations_of(
    contenders: dict[str, Contender], build_label: str, parts: tuple[str, ...] | None = None
) -> tuple[dict[str, dict[str, Callable[[], object]]], dict[str, bool]]:
    """The timed operations of each contender (after checking their round trips and copy
    guarantees), and whether each plain to_dict shares nothing with its message."""
    messages = {label: c.build() for label, c in contenders.items()}
    dicts = {
        label: check_round_trip(c) if parts is None else check_round_trip(c, parts)
        for label, c in contenders.items()
    }
    plain_copies = {label: check_copy_guarantee(c) for label, c in contenders.items()}
    if not plain_copies[SUBJECT]:
        raise RuntimeError("agentmsg's to_dict shares state with the message")
    operations: dict[str, dict[str, Callable[[], object]]] = {
        build_label: {label: c.build for label, c in contenders.items()},
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
    return operations, plain_copies


def time_operations(contenders: dict[str, Contender], options: Options) -> Table:
    """The timing table: build, to_dict and from_dict, side by side."""
    operations, plain_copies = operations_of(contenders, "build (3 blocks)")
    return operations_table(
        "messages.time",
        "Message operations: median time per operation (lower is better)",
        operations,
        plain_copies,
        options,
        {"build, then to_dict": None},
        SPEED_TARGET,
        [
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


def operations_table(
    key: str,
    title: str,
    operations: dict[str, dict[str, Callable[[], object]]],
    plain_copies: dict[str, bool],
    options: Options,
    targets: dict[str, float | None],
    default_target: float | None,
    notes: list[str],
) -> Table:
    """The table of :func:`operations_of`'s operations timed side by side: a row each,
    its target from *targets* or else *default_target*; the plain to_dict row does not
    hold agentmsg to a peer whose to_dict hands out its own content."""
    rows = []
    numbers: dict[str, dict[str, int]] = {}
    for operation, candidates in operations.items():
        medians, samples, numbers[operation] = time_side_by_side(candidates, options)
        rows.append(
            Row(
                operation,
                medians,
                target=targets.get(operation, default_target),
                samples=samples,
                excluded=dict(REFERENCES_EXCEPTION) if operation == "to_dict" else {},
            )
        )
    return Table(
        key=key,
        title=title,
        unit="s",
        rows=rows,
        parameters={
            "repeats": options.repeats,
            "min_time_per_repeat": options.min_time,
            "loops_per_repeat": numbers,
            "plain_to_dict_shares_nothing": plain_copies,
        },
        notes=notes,
    )


WORKLOAD_NOTES = [
    "The work: an assistant message named 'Jarvis' built from fresh block dicts (the "
    "workload's blocks, see bench/workloads.py); to_dict of it; from_dict of that "
    "library's own to_dict output. Each library gets the same information in its own "
    "standard blocks (langchain-core: v1 standard content blocks, its server_tool_result "
    "holding the tool result inside the AI message).",
    "Not the same guarantees: agentmsg validates every field, block and JSON value "
    "and copies the content on build, to_dict and from_dict; langchain-core validates "
    "with pydantic; agentscope checks only the content's type and the role (with assert) "
    "and copies nothing. None of them decodes base64 payloads here.",
    "to_dict (equal guarantee): each library's to_dict with agentmsg's guarantee that "
    "changing the dict leaves the message alone (see the first table).",
]


def time_workload(workload: Workload, options: Options) -> Table:
    """The timing table of one workload: build, to_dict and from_dict, side by side."""
    contenders = load_contenders(workload)
    operations, plain_copies = operations_of(contenders, "build", workload.parts)
    notes = list(WORKLOAD_NOTES)
    notes.append(
        "No peer target: a text-only message is held to its own speed before this "
        "work instead (the messages.baseline table)."
    )
    notes.append(
        f"Median of {options.repeats} repeats of at least {options.min_time:g} s each, "
        "the libraries interleaved within each repeat; garbage collection off while timing."
    )
    # No peer target: the text message is held to its baseline.
    return operations_table(
        f"messages.{workload.key}.time",
        f"Message operations, {workload.title}: median time (lower is better)",
        operations,
        plain_copies,
        options,
        {},
        None,
        notes,
    )


def _single(workload: Workload) -> dict[str, dict[str, Callable[..., Any]]]:
    """The five operations of each library on one message of *workload*."""
    import msgspec
    from agentscope.message import Msg as ScopeMsg
    from langchain_core.messages import AIMessage, message_to_dict, messages_from_dict

    from agentmsg import Msg

    blocks, content = workload.blocks, workload.langchain
    schema = msgspec_schema()

    def lc_from_dict(data: dict[str, Any]) -> Any:
        return messages_from_dict([data])[0]

    return {
        SUBJECT: {
            "build": lambda: Msg(NAME, blocks(), "assistant"),
            "to_dict": Msg.to_dict,
            "from_dict": Msg.from_dict,
            "to_json": Msg.to_json,
            "from_json": Msg.from_json,
        },
        "langchain-core": {
            "build": lambda: AIMessage(name=NAME, content=content()),
            "to_dict": message_to_dict,
            "from_dict": lc_from_dict,
            "to_json": lambda m: json.dumps(message_to_dict(m), ensure_ascii=False),
            "from_json": lambda text: lc_from_dict(json.loads(text)),
        },
        "agentscope": {
            "build": lambda: ScopeMsg(NAME, blocks(), "assistant"),
            "to_dict": _agentscope_to_dict_copy,
            "from_dict": ScopeMsg.from_dict,
            "to_json": lambda m: json.dumps(m.to_dict(), ensure_ascii=False),
            "from_json": lambda text: ScopeMsg.from_dict(json.loads(text)),
        },
        REFERENCE: {
            "build": lambda: msgspec.convert(
                {"name": NAME, "role": "assistant", "content": blocks()}, schema
            ),
            "to_dict": msgspec.to_builtins,
            "from_dict": lambda data: msgspec.convert(data, schema),
            "to_json": msgspec.json.encode,
            "from_json": lambda text: msgspec.json.decode(text, type=schema),
        },
    }


def _conversation() -> dict[str, dict[str, Callable[..., Any]]]:
    """The five operations of each library on the 100-message conversation, saved as
    JSON Lines (one message per line) and loaded back."""
    import msgspec
    from agentscope.message import Msg as ScopeMsg
    from langchain_core.messages import message_to_dict, messages_from_dict

    from agentmsg import Msg

    schema = msgspec_schema()
    encode, decode = msgspec.json.encode, msgspec.json.Decoder(schema).decode

    def each(function: Callable[[Any], Any]) -> Callable[[list[Any]], list[Any]]:
        return lambda items: [function(item) for item in items]

    return {
        SUBJECT: {
            "build": lambda: [Msg(*turn) for turn in conversation_turns()],
            "to_dict": each(Msg.to_dict),
            "from_dict": each(Msg.from_dict),
            "to_json": each(Msg.to_json),
            "from_json": each(Msg.from_json),
        },
        "langchain-core": {
            "build": conversation_langchain,
            "to_dict": each(message_to_dict),
            "from_dict": messages_from_dict,
            "to_json": each(lambda m: json.dumps(message_to_dict(m), ensure_ascii=False)),
            "from_json": lambda lines: messages_from_dict([json.loads(line) for line in lines]),
        },
        "agentscope": {
            "build": lambda: [ScopeMsg(*turn) for turn in conversation_turns()],
            "to_dict": each(_agentscope_to_dict_copy),
            "from_dict": each(ScopeMsg.from_dict),
            "to_json": each(lambda m: json.dumps(m.to_dict(), ensure_ascii=False)),
            "from_json": each(lambda line: ScopeMsg.from_dict(json.loads(line))),
        },
        REFERENCE: {
            "build": lambda: [
                msgspec.convert({"name": name, "role": role, "content": content}, schema)
                for name, content, role in conversation_turns()
            ],
            "to_dict": each(msgspec.to_builtins),
            "from_dict": each(lambda data: msgspec.convert(data, schema)),
            "to_json": each(encode),
            "from_json": each(decode),
        },
    }


REALISTIC_TITLES = {
    "tool": WORKLOADS["tool"].title,
    "multimodal": WORKLOADS["multimodal"].title,
    "conversation": "a 100-message tool conversation, saved and loaded as JSON Lines",
}


def realistic_inputs(
    libraries: dict[str, dict[str, Callable[..., Any]]],
) -> dict[str, dict[str, Any]]:
    """Each library's message (or messages), their dicts and their JSON, after checking
    that from_dict and from_json give back what to_dict and to_json wrote."""
    inputs = {}
    for label, ops in libraries.items():
        message = ops["build"]()
        data = ops["to_dict"](message)
        text = ops["to_json"](message)
        if (
            ops["to_dict"](ops["from_dict"](data)) != data
            or ops["to_json"](ops["from_json"](text)) != text
        ):
            msg = f"{label}: a realistic workload does not come back as it was written"
            raise RuntimeError(msg)
        inputs[label] = {"build": None, "to_dict": message, "to_json": message}
        inputs[label] |= {"from_dict": data, "from_json": text}
    return inputs


def time_realistic(key: str, options: Options) -> Table:
    """build, to_dict, from_dict, to_json and from_json of a realistic workload, agentmsg
    beside its peers, and msgspec as the compiled reference."""
    libraries = _conversation() if key == "conversation" else _single(WORKLOADS[key])
    inputs = realistic_inputs(libraries)
    rows = []
    numbers: dict[str, dict[str, int]] = {}
    for operation in REALISTIC_OPERATIONS:
        candidates: dict[str, Callable[[], object]] = {}
        for label, ops in libraries.items():
            function, argument = ops[operation], inputs[label][operation]
            candidates[label] = (
                function
                if argument is None
                else (lambda function=function, argument=argument: function(argument))
            )
        medians, samples, numbers[operation] = time_side_by_side(candidates, options)
        reference = medians[REFERENCE] / medians[SUBJECT]
        rows.append(
            Row(
                f"{operation} (msgspec {reference:.2f}x)",
                medians,
                target=JSON_TEXT_TARGET if operation.endswith("json") else REALISTIC_TARGETS[key],
                samples=samples,
            )
        )
    return Table(
        key=f"messages.{key}.realistic",
        title=f"Realistic workload, {REALISTIC_TITLES[key]}: median time (lower is better)",
        unit="s",
        rows=rows,
        columns=(*LIBRARIES, REFERENCE),
        parameters={
            "repeats": options.repeats,
            "min_time_per_repeat": options.min_time,
            "loops_per_repeat": numbers,
        },
        notes=[
            f"Target: build, to_dict and from_dict >= {REALISTIC_TARGETS[key]:g}x the faster "
            f"of langchain-core and agentscope, to_json and from_json >= {JSON_TEXT_TARGET:g}x. "
            "The ratio in brackets is msgspec's time / "
            "agentmsg's (above 1: agentmsg is cheaper): msgspec, compiled, is the reference "
            "of what a validating library can cost, not a target.",
            "Each library's own way: agentmsg's Msg methods; langchain-core's "
            "message_to_dict / messages_from_dict, with json.dumps and json.loads for JSON; "
            "agentscope's Msg.to_dict (its content and metadata deep-copied, so the dict "
            "shares nothing with the message, as agentmsg's) / Msg.from_dict, with json; "
            "msgspec's convert, to_builtins and json encode/decode of the equivalent schema "
            "(bench/workloads.py).",
            "The conversation: 25 rounds of a question, a text and a tool call, the tool's "
            "result and an answer (100 messages), each saved as one line of JSON.",
            f"Median of {options.repeats} repeats of at least {options.min_time:g} s each, "
            "the libraries interleaved within each repeat; garbage collection off while timing.",
        ],
    )


def time_baseline(options: Options) -> Table:
    """agentmsg now and at :data:`BASELINE_COMMIT`, side by side, on the workloads."""
    import agentmsg

    baseline = load_revision(BASELINE_COMMIT, "agentmsg_baseline")
    column = f"at {BASELINE_COMMIT[:7]}"
    pairs: dict[str, dict[str, Callable[[], object]]] = {}
    for key in ("text", "tool", "multimodal"):
        blocks = WORKLOADS[key].blocks
        for label, cls in (("now", agentmsg.Msg), ("before", baseline.Msg)):
            message = cls(NAME, blocks(), "assistant")
            data = message.to_dict()
            if cls.from_dict(data).to_dict() != data:
                raise RuntimeError(f"{label}: the {key} round trip is broken")
            pairs.setdefault(f"{key}: build", {})[label] = lambda cls=cls, blocks=blocks: cls(
                NAME, blocks(), "assistant"
            )
            pairs.setdefault(f"{key}: to_dict", {})[label] = message.to_dict
            pairs.setdefault(f"{key}: from_dict", {})[label] = lambda cls=cls, data=data: (
                cls.from_dict(data)
            )
    checked = {
        f"text: {operation}": f"text only: {operation} / {column}"
        for operation in ("build", "to_dict", "from_dict")
    }
    return revision_table(
        "messages.baseline",
        BASELINE_COMMIT,
        pairs,
        options,
        limit=BASELINE_TARGET,
        checked=checked,
        parameters={"baseline_commit": BASELINE_COMMIT},
        notes=[
            f"The baseline: src/agentmsg at {BASELINE_COMMIT[:7]} (before the realistic "
            "workloads, the in-place checks and the AgentScope and ERNIE Bot Agent "
            "patterns), read from git and imported beside the current package, both timed "
            "in this run, interleaved repeat by repeat.",
            f"Target: a text-only message keeps its speed, build, to_dict and from_dict "
            f"<= {BASELINE_TARGET:g}x the baseline's time. The tool and multimodal rows are "
            "reported: they show what this work changed.",
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
    tables = [time_operations(contenders, options), measure_memory(contenders, options)]
    tables += [time_realistic(key, options) for key in REALISTIC_TARGETS]
    tables += [time_workload(WORKLOADS["text"], options), time_baseline(options)]
    return tables


SECTION = Section(
    name="messages",
    description="build / to_dict / from_dict of a 3-block message; build, to_dict, from_dict, "
    "to_json and from_json of a tool round, a 7-block multimodal message and a 100-message "
    "conversation (msgspec beside them); a text-only message; memory per message",
    run=run,
)
