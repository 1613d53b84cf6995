"""Section ``providers``: a 20-message conversation with tool calls to OpenAI Chat Completions.

Every library converts the same conversation, held in its own message objects, to the
``messages`` of a Chat Completions request: agentmsg with :func:`agentmsg.to_openai_chat`,
langchain-core with ``convert_to_openai_messages``, AgentScope 1.x with
``OpenAIChatFormatter.format``. Before anything is timed, each payload is checked to say
the same as the others (roles, senders, text, tool calls with their ids, names and
arguments, tool results with their call ids), so the timings compare working code.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ._common import SUBJECT, Options, Row, Section, Table, time_side_by_side

SPEED_TARGET = 2.0
"""agentmsg must convert at least this many times faster than the faster peer."""

SYSTEM = "You are Jarvis, a weather assistant. Answer in one sentence."
CITIES = ("Lima", "Oslo", "Rome", "Pune", "Quito")


def script() -> list[tuple[str, Any]]:
    """The conversation, library-neutral: 20 turns of (kind, data)."""
    turns: list[tuple[str, Any]] = [("system", SYSTEM)]
    for number, city in enumerate(CITIES[:4], start=1):
        call = (f"call_{number}", "get_weather", {"city": city, "unit": "celsius"})
        turns += [
            ("user", f"What is the weather in {city} right now?"),
            ("call", (f"Let me check the weather in {city}.", [call])),
            ("results", [(call[0], call[1], json.dumps({"city": city, "sky": "cloudy", "c": 19}))]),
            ("assistant", f"It is cloudy in {city}, 19 degrees."),
        ]
    calls = [(f"call_{5 + i}", "get_weather", {"city": city}) for i, city in enumerate(CITIES[3:])]
    turns += [
        ("user", "And in Pune and Quito?"),
        ("call", ("Checking both.", calls)),
        ("results", [(call_id, name, f"{args['city']}: sunny") for call_id, name, args in calls]),
    ]
    if len(turns) != 20:
        raise RuntimeError(f"the conversation has {len(turns)} messages, not 20")
    return turns


def block_messages(msg_class: Callable[[str, Any, str], Any]) -> list[Any]:
    """The conversation as ``msg_class(name, content, role)`` objects with content blocks:
    agentmsg's and agentscope's ``Msg`` take the same arguments and the same blocks."""
    messages = []
    for kind, data in script():
        if kind == "system":
            messages.append(msg_class("system", data, "system"))
        elif kind == "user":
            messages.append(msg_class("Ada", data, "user"))
        elif kind == "assistant":
            messages.append(msg_class("Jarvis", data, "assistant"))
        elif kind == "call":
            text, calls = data
            blocks: list[Any] = [{"type": "text", "text": text}]
            blocks += [{"type": "tool_use", "id": i, "name": n, "input": a} for i, n, a in calls]
            messages.append(msg_class("Jarvis", blocks, "assistant"))
        else:
            results = [{"type": "tool_result", "id": i, "name": n, "output": o} for i, n, o in data]
            messages.append(msg_class("system", results, "system"))
    return messages


def _agentmsg() -> tuple[Callable[[], Any], Any]:
    from agentmsg import Msg, to_openai_chat

    messages = block_messages(Msg)

    def convert() -> Any:
        return to_openai_chat(messages).payload["messages"]

    return convert, messages


def _langchain() -> tuple[Callable[[], Any], Any]:
    from langchain_core.messages import (
        AIMessage,
        HumanMessage,
        SystemMessage,
        ToolMessage,
        convert_to_openai_messages,
    )

    messages: list[Any] = []
    for kind, data in script():
        if kind == "system":
            messages.append(SystemMessage(data))
        elif kind == "user":
            messages.append(HumanMessage(data, name="Ada"))
        elif kind == "assistant":
            messages.append(AIMessage(data, name="Jarvis"))
        elif kind == "call":
            text, calls = data
            tool_calls = [{"id": i, "name": n, "args": a} for i, n, a in calls]
            messages.append(AIMessage(text, name="Jarvis", tool_calls=tool_calls))
        else:
            messages += [ToolMessage(o, tool_call_id=i, name=n) for i, n, o in data]

    def convert() -> Any:
        return convert_to_openai_messages(messages)

    return convert, messages


def _agentscope() -> tuple[Callable[[], Any], Any]:
    from agentscope.formatter import OpenAIChatFormatter
    from agentscope.message import Msg

    messages = block_messages(Msg)
    formatter = OpenAIChatFormatter()

    def convert() -> Any:
        # format() is a coroutine that awaits nothing real: driving it by hand measures
        # the formatter's own work, with no event loop around it.
        coroutine = formatter.format(messages)
        try:
            coroutine.send(None)
        except StopIteration as done:
            return done.value
        coroutine.close()
        raise RuntimeError("OpenAIChatFormatter.format awaited something")

    return convert, messages


def canonical(payload: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What a Chat Completions payload says, whatever the spelling of its content.

    Content as a string or as text parts is the same text; a missing ``name`` is the
    role's default; a tool message's ``name`` (AgentScope adds one) is not part of the
    API's tool message and is left aside.
    """
    said = []
    for entry in payload:
        content = entry.get("content")
        if isinstance(content, list):
            content = "\n".join(part["text"] for part in content)
        calls = tuple(
            (call["id"], call["function"]["name"], json.loads(call["function"]["arguments"]))
            for call in entry.get("tool_calls", [])
        )
        if entry["role"] == "tool":
            said.append(("tool", entry["tool_call_id"], content))
            continue
        name = entry.get("name", entry["role"])
        said.append((entry["role"], name, content or "", calls))
    return said


def check_equivalent(payloads: dict[str, list[dict[str, Any]]]) -> None:
    """Raise unless every library's payload says the same as agentmsg's."""
    expected = canonical(payloads[SUBJECT])
    if len(expected) != 21 or sum(1 for said in expected if said[0] == "tool") != 6:
        raise RuntimeError(f"agentmsg's payload is not the expected one: {expected}")
    for label, payload in payloads.items():
        said = canonical(payload)
        if said != expected:
            msg = f"{label}'s payload differs from agentmsg's:\n{said}\n{expected}"
            raise RuntimeError(msg)


def load() -> dict[str, Callable[[], Any]]:
    converters = {}
    for label, make in (
        (SUBJECT, _agentmsg),
        ("langchain-core", _langchain),
        ("agentscope", _agentscope),
    ):
        try:
            convert, _ = make()
        except ImportError as error:
            msg = (
                f"cannot import a benchmarked library ({error}); the peers come with the "
                "`bench` dependency group: run `make bench`, or `pip install --group bench`"
            )
            raise SystemExit(msg) from error
        converters[label] = convert
    return converters


def run(options: Options) -> list[Table]:
    converters = load()
    check_equivalent({label: convert() for label, convert in converters.items()})
    medians, samples, numbers = time_side_by_side(converters, options)
    row = Row("20 messages to Chat Completions", medians, target=SPEED_TARGET, samples=samples)
    return [
        Table(
            key="providers.time",
            title="Conversation to OpenAI Chat Completions: median time (lower is better)",
            unit="s",
            rows=[row],
            parameters={
                "repeats": options.repeats,
                "min_time_per_repeat": options.min_time,
                "loops_per_repeat": numbers,
                "messages": 20,
            },
            notes=[
                "The work: a system prompt, five questions from 'Ada', five assistant "
                "messages from 'Jarvis' with text and tool calls (six calls in all), the "
                "tool results and four text answers: 20 messages, 21 Chat Completions "
                "messages (one message holds two results). Each library converts its own "
                "message objects, built beforehand; the payloads were checked to say the "
                "same (roles, senders, text, tool calls with ids, names and arguments, "
                "tool results with call ids) before timing.",
                "agentmsg: to_openai_chat(messages).payload, which also checks each "
                "message and reports losses (none here). langchain-core: "
                "convert_to_openai_messages(messages), with one ToolMessage per result. "
                "agentscope: OpenAIChatFormatter().format(msgs), a coroutine driven by "
                "hand (coroutine.send) so no event loop is timed; it also writes a `name` "
                "into each tool message.",
                f"Median of {options.repeats} repeats of at least {options.min_time:g} s "
                "each, the libraries interleaved; ratio = faster peer's time / agentmsg's "
                f"time, target >= {SPEED_TARGET:g}x.",
            ],
        )
    ]


SECTION = Section(
    name="providers",
    description="a 20-message conversation with tool calls converted to Chat Completions",
    run=run,
)
