"""Random conversations for the provider-format tests, and how to compare them.

:func:`conversations` draws a conversation of Msg objects. Its keyword flags say what
it may hold, so a test can draw conversations that a format carries whole (only what
the format has a place for, in the shape it comes back in) or anything at all. Every
text, id and media payload is unique in a conversation, so a block can be looked for in
what comes back.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
from typing import Any

from hypothesis import strategies as st

import agentmsg
from agentmsg import Msg, providers

FORMATS = tuple(providers.FORMATS)
TOOLS = ("get_weather", "sky_icon")
PNG = (  # a 1x1 PNG
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def b64(label: str) -> str:
    """Unique, valid base64 text (the SDKs decode it; nothing checks the bytes' format)."""
    return base64.b64encode(f"bytes of {label}".encode()).decode()


def converters(name: str) -> tuple[Any, Any]:
    """The ``to_*`` and ``from_*`` functions of a format."""
    return getattr(agentmsg, f"to_{name}"), getattr(agentmsg, f"from_{name}")


#: What each format carries whole: the flags of :func:`conversations` for it.
CARRIED: dict[str, dict[str, bool]] = {
    "openai_chat": {
        "users_in_a_row": True,
        "assistant_first": True,
        "names": True,
        "audio": True,
        "system_anywhere": True,
        "assistant_in_a_row": True,
        "empty_messages": True,
    },
    "openai_responses": {
        "users_in_a_row": True,
        "assistant_first": True,
        "empty_messages": True,
        "image_outputs": True,
        "system_anywhere": True,
        "text_after_call": True,
    },
    "anthropic": {
        "users_in_a_row": True,
        "assistant_first": True,
        "image_outputs": True,
        "text_after_call": True,
        "tools_in_a_row": True,
        "assistant_in_a_row": True,
    },
    "gemini": {
        "thinking": True,
        "audio": True,
        "video": True,
        "json_outputs": True,
        "image_outputs": True,
        "text_after_call": True,
        "tools_in_a_row": True,
    },
}

ANYTHING = {
    "names": True,
    "odd_names": True,
    "thinking": True,
    "audio": True,
    "video": True,
    "json_outputs": True,
    "image_outputs": True,
    "media_outputs": True,
    "system_anywhere": True,
    "text_after_call": True,
    "tools_in_a_row": True,
    "assistant_in_a_row": True,
    "tool_sender": True,
    "mixed": True,
    "unknown_calls": True,
    "unanswered_calls": True,
    "empty_messages": True,
    "users_in_a_row": True,
    "assistant_first": True,
}


@st.composite
def conversations(draw: Any, **flags: bool) -> list[Msg]:
    """A conversation holding only what *flags* allow (see :data:`ANYTHING`)."""
    counter = itertools.count()
    allow = flags.get

    def unique(prefix: str) -> str:
        return f"{prefix} {next(counter)}"

    def name(default: str) -> str:
        choices = [default]
        if allow("names"):
            choices += ["Ada", "Jarvis"]
        if allow("odd_names"):
            choices += ["Ada Lovelace", "a/b"]
        return draw(st.sampled_from(choices))

    def image() -> dict[str, Any]:
        if draw(st.booleans()):
            source = {"type": "url", "url": f"https://example.org/{next(counter)}.png"}
        else:
            source = {"type": "base64", "media_type": "image/png", "data": b64(unique("image"))}
        return {"type": "image", "source": source}

    def media() -> dict[str, Any]:
        kinds = ["image"]
        if allow("audio"):
            kinds.append("audio")
        if allow("video"):
            kinds.append("video")
        kind = draw(st.sampled_from(kinds))
        if kind == "image":
            return image()
        media_type = (
            draw(st.sampled_from(["audio/wav", "audio/mpeg"])) if kind == "audio" else "video/mp4"
        )
        return {
            "type": kind,
            "source": {"type": "base64", "media_type": media_type, "data": b64(unique(kind))},
        }

    def text() -> dict[str, Any]:
        return {"type": "text", "text": unique("text")}

    messages: list[Msg] = []
    pending: list[tuple[str, str]] = []
    system_done = False
    last = ""
    if draw(st.booleans()):
        content: Any = unique("system")
        if draw(st.booleans()):
            content = [text() for _ in range(draw(st.integers(1, 2)))]
        messages.append(Msg(name("system"), content, "system"))
        system_done = True
        last = "system"
    for _ in range(draw(st.integers(1, 7))):
        kinds = ["user", "assistant"]
        if pending or allow("unknown_calls"):
            kinds.append("tools")
        if allow("system_anywhere") or (not system_done and not messages):
            kinds.append("system")
        kind = draw(st.sampled_from(kinds))
        if pending and not allow("unanswered_calls"):
            kind = "tools"  # every API wants a call's result before the conversation goes on
        if kind == last and kind == "tools" and not allow("tools_in_a_row"):
            kind = "user"
        if kind == last and kind == "assistant" and not allow("assistant_in_a_row"):
            kind = "user"
        if kind == "user" and last in ("user", "tools") and not allow("users_in_a_row"):
            kind = "assistant"  # Gemini wants user and model turns to alternate
        if kind == "assistant" and last in ("", "system") and not allow("assistant_first"):
            kind = "user"  # and a conversation that starts with a user turn
        if kind == "user":
            if draw(st.integers(0, 3)) == 0:
                messages.append(Msg(name("user"), unique("question"), "user"))
            else:
                blocks = [
                    draw(st.sampled_from(["text", "media"])) for _ in range(draw(st.integers(1, 3)))
                ]
                content = [text() if item == "text" else media() for item in blocks]
                if allow("thinking") and allow("mixed") and draw(st.booleans()):
                    content.append({"type": "thinking", "thinking": unique("musing")})
                messages.append(Msg(name("user"), content, "user"))
        elif kind == "system":
            messages.append(Msg(name("system"), [text()], "system"))
        elif kind == "assistant":
            if draw(st.integers(0, 3)) == 0:
                messages.append(Msg(name("assistant"), unique("answer"), "assistant"))
                last = kind
                continue
            content = []
            if allow("thinking") and draw(st.booleans()):
                content.append({"type": "thinking", "thinking": unique("thought")})
            content.extend(text() for _ in range(draw(st.integers(0, 2))))
            for _ in range(draw(st.integers(0, 2))):
                call_id = unique("call").replace(" ", "_")
                tool = draw(st.sampled_from(TOOLS))
                content.append(
                    {
                        "type": "tool_use",
                        "id": call_id,
                        "name": tool,
                        "input": {"city": unique("city")},
                    }
                )
                pending.append((call_id, tool))
            if allow("text_after_call") and pending and draw(st.booleans()):
                content.append(text())
            if allow("mixed") and draw(st.booleans()):
                content.append(media())
            if not content and not allow("empty_messages"):
                content.append(text())
            messages.append(Msg(name("assistant"), content, "assistant"))
        else:
            calls = pending or [(unique("orphan").replace(" ", "_"), "get_weather")]
            pending = []
            results = [
                {
                    "type": "tool_result",
                    "id": call_id,
                    "name": tool,
                    "output": draw(_outputs(flags, unique)),
                }
                for call_id, tool in calls
            ]
            if allow("mixed") and draw(st.booleans()):
                results.append(text())
            role = draw(st.sampled_from(["system", "user"])) if allow("mixed") else "system"
            sender = (
                draw(st.sampled_from(["system", "tools"])) if allow("tool_sender") else "system"
            )
            messages.append(Msg(sender, results, role))
        last = kind
    return messages


def _outputs(flags: dict[str, bool], unique: Any) -> Any:
    options: list[Any] = [
        st.builds(lambda: unique("result")),
        st.builds(lambda: [{"type": "text", "text": unique("line")}]),
    ]
    if flags.get("json_outputs"):
        options.append(st.builds(lambda: {"value": unique("data"), "n": 3}))
    if flags.get("image_outputs"):
        options.append(
            st.builds(
                lambda: [
                    {"type": "text", "text": unique("caption")},
                    {
                        "type": "image",
                        "source": {
                            "type": "base64",
                            "media_type": "image/png",
                            "data": b64(unique("x")),
                        },
                    },
                ]
            )
        )
    if flags.get("media_outputs"):
        options.append(
            st.builds(
                lambda: [
                    {
                        "type": "image",
                        "source": {
                            "type": "url",
                            "url": f"https://example.org/{unique('i').replace(' ', '')}.png",
                        },
                    },
                    {
                        "type": "audio",
                        "source": {
                            "type": "base64",
                            "media_type": "audio/wav",
                            "data": b64(unique("a")),
                        },
                    },
                    {"type": "text", "text": unique("after")},
                ]
            )
        )
    return st.one_of(options)


# -- comparing -------------------------------------------------------------------------


def normal_block(block: dict[str, Any]) -> dict[str, Any]:
    """A block in one spelling: a base64 ``data:`` URL becomes a base64 source."""
    source = block.get("source")
    if source is not None and source["type"] == "url" and source["url"].startswith("data:"):
        header, _, data = source["url"].partition(",")
        media_type = header[5:].partition(";")[0]
        return {
            "type": block["type"],
            "source": {"type": "base64", "media_type": media_type, "data": data},
        }
    if block["type"] == "tool_result" and isinstance(block["output"], list):
        output = block["output"]
        if output and all(isinstance(item, dict) and "type" in item for item in output):
            return {**block, "output": [normal_block(item) for item in output]}
    return block


def normal_content(content: Any) -> list[dict[str, Any]]:
    """Content as a list of blocks in one spelling (a string is one text block)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return [normal_block(block) for block in content]


def normal(messages: list[Msg]) -> list[tuple[str, str, list[dict[str, Any]]]]:
    return [(msg.role, msg.name, normal_content(msg.content)) for msg in messages]


def atoms(messages: list[Msg]) -> dict[str, str]:
    """Every block and tool-output item of a conversation, by path, as JSON text."""
    found: dict[str, str] = {}
    for index, msg in enumerate(messages):
        for position, block in enumerate(normal_content(msg.content)):
            path = f"messages[{index}].content[{position}]"
            found[path] = json.dumps(block, sort_keys=True)
            output = block.get("output")
            if (
                block["type"] == "tool_result"
                and isinstance(output, list)
                and output
                and all(isinstance(i, dict) and "type" in i for i in output)
            ):
                for item_index, item in enumerate(output):
                    found[f"{path}.output[{item_index}]"] = json.dumps(item, sort_keys=True)
    return found


# -- tool rounds whose call ids repeat and collide -----------------------------------

#: Call ids that meet every renaming rule: repeated ids, ids alike once cleaned for
#: Anthropic ('a/b', 'a:b', 'a_b'), an id a numbered one would take ('c_2'), ids over
#: the 40 characters of Chat Completions and the 64 of Responses that share their start.
COLLIDING_IDS = (
    "c",
    "c_2",
    "a/b",
    "a_b",
    "a:b",
    "call_0",
    "x" * 45,
    "x" * 45 + "y",
    "y" * 70,
    "y" * 70 + "z",
)


@st.composite
def tool_rounds(draw: Any) -> list[Msg]:
    """Rounds of tool calls with ids from :data:`COLLIDING_IDS`, each answered.

    Each call's input is ``{"n": n}`` and its result's output ``"answer n"``, a number
    unique in the conversation, so the call a result answers is known whatever ids they
    are sent with. The results of a round come in any order, but those of calls that
    share an id answer them in order (nothing else tells them apart); they come in one
    message or one message each.
    """
    counter = itertools.count()
    messages = [Msg("user", "Go.", "user")]
    for _ in range(draw(st.integers(1, 4))):
        ids = draw(st.lists(st.sampled_from(COLLIDING_IDS), min_size=1, max_size=4))
        content: list[dict[str, Any]] = []
        if draw(st.booleans()):
            content.append({"type": "text", "text": f"Calling {next(counter)}."})
        calls: dict[str, list[int]] = {}
        for call_id in ids:
            n = next(counter)
            content.append({"type": "tool_use", "id": call_id, "name": "probe", "input": {"n": n}})
            calls.setdefault(call_id, []).append(n)
        if draw(st.booleans()):
            content.append({"type": "text", "text": f"Called {next(counter)}."})
        messages.append(Msg("assistant", content, "assistant"))
        results = []
        for call_id in draw(st.permutations(ids)):
            n = calls[call_id].pop(0)
            results.append(
                {"type": "tool_result", "id": call_id, "name": "probe", "output": f"answer {n}"}
            )
        if draw(st.booleans()):
            messages.append(Msg("system", results, "system"))
        else:
            messages.extend(Msg("system", [result], "system") for result in results)
        messages.append(Msg("assistant", f"Done {next(counter)}.", "assistant"))
        messages.append(Msg("user", "Again.", "user"))
    return messages


def tool_blocks(messages: list[Msg], kind: str) -> list[tuple[str, dict[str, Any]]]:
    """The blocks of type *kind* of a conversation, in order, with their paths."""
    return [
        (f"messages[{index}].content[{position}]", block)
        for index, msg in enumerate(messages)
        if not isinstance(msg.content, str)
        for position, block in enumerate(msg.content)
        if block["type"] == kind
    ]


@st.composite
def colliding_conversations(draw: Any) -> list[Msg]:
    """A conversation of :func:`conversations` with anything in it, whose call ids are
    replaced by ids of :data:`COLLIDING_IDS` (a result keeps naming its call's id), so
    that calls of one turn and of different turns share ids or collide once renamed."""
    mapping: dict[str, str] = {}
    out = []
    for msg in draw(conversations(**ANYTHING)):
        content = msg.content
        if not isinstance(content, str):
            content = [dict(block) for block in content]
            for block in content:
                if block["type"] in ("tool_use", "tool_result"):
                    if block["id"] not in mapping:
                        mapping[block["id"]] = draw(st.sampled_from(COLLIDING_IDS))
                    block["id"] = mapping[block["id"]]
        out.append(Msg(msg.name, content, msg.role))
    return out


# -- the pairing rules of each API, checked on a payload -------------------------------

_ANTHROPIC_ID = re.compile(r"[a-zA-Z0-9_-]+")


def pairing_faults(name: str, payload: dict[str, Any]) -> list[str]:
    """What in *payload* breaks the rules by which the API pairs tool results with their
    calls (docs/api.rst, "Conversation rules"), as sentences; empty when nothing does.

    A request may end with calls that wait for their results.
    """
    return _CHECKERS[name](payload)


def _chat_faults(payload: dict[str, Any]) -> list[str]:
    faults = []
    messages = payload["messages"]
    waiting: set[str] | None = None  # the calls of the assistant message before the run
    for at, message in enumerate(messages):
        if message["role"] == "tool":
            if waiting is None or message["tool_call_id"] not in waiting:
                faults.append(f"messages[{at}] answers no waiting call")
            else:
                waiting.discard(message["tool_call_id"])
            continue
        if waiting:
            faults.append(f"calls {sorted(waiting)} before messages[{at}] have no tool message")
        waiting = None
        ids = [call["id"] for call in message.get("tool_calls", ())]
        if ids:
            if len(ids) != len(set(ids)) or any(len(i) > 40 for i in ids):
                faults.append(f"messages[{at}] has repeated or long call ids {ids}")
            waiting = set(ids)
    return faults


def _responses_faults(payload: dict[str, Any]) -> list[str]:
    faults = []
    items = payload["input"]
    calls: dict[str, int] = {}
    answered: set[str] = set()
    for at, item in enumerate(items):
        if item["type"] == "function_call":
            if item["call_id"] in calls or len(item["call_id"]) > 64:
                faults.append(f"input[{at}] repeats or has a long call id {item['call_id']!r}")
            calls[item["call_id"]] = at
        elif item["type"] == "function_call_output":
            if item["call_id"] not in calls or item["call_id"] in answered:
                faults.append(f"input[{at}] answers no call, or one answered")
            answered.add(item["call_id"])
    last_message = max(  # calls after the last user or system message wait for outputs
        (at for at, i in enumerate(items) if i["type"] == "message" and i["role"] != "assistant"),
        default=-1,
    )
    for call_id, at in calls.items():
        if call_id not in answered and at < last_message:
            faults.append(f"input[{at}] has no output")
    return faults


def _merged_turns(turns: list[dict[str, Any]], key: str) -> list[tuple[str, list[Any]]]:
    """Consecutive turns of one role as one (Anthropic merges them; Gemini refuses them,
    which its writer never sends)."""
    merged: list[tuple[str, list[Any]]] = []
    for turn in turns:
        content = turn[key]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if merged and merged[-1][0] == turn["role"]:
            merged[-1][1].extend(blocks)
        else:
            merged.append((turn["role"], list(blocks)))
    return merged


def _anthropic_faults(payload: dict[str, Any]) -> list[str]:
    faults = []
    seen: set[str] = set()
    turns = _merged_turns(payload["messages"], "content")
    for at, (role, blocks) in enumerate(turns):
        calls = [b["id"] for b in blocks if b["type"] == "tool_use"]
        for call_id in calls:
            if call_id in seen or not _ANTHROPIC_ID.fullmatch(call_id):
                faults.append(f"turn {at} repeats or has a bad call id {call_id!r}")
            seen.add(call_id)
        before = turns[at - 1][1] if at and turns[at - 1][0] == "assistant" else []
        asked = {b["id"] for b in before if b["type"] == "tool_use"}
        results = [b["tool_use_id"] for b in blocks if b["type"] == "tool_result"]
        if results and (
            role != "user"
            or sorted(results) != sorted(asked)
            or any(b["type"] != "tool_result" for b in blocks[: len(results)])
        ):
            faults.append(f"turn {at}'s results {results} do not answer the calls {asked}")
        if asked and not results and at < len(turns):
            faults.append(f"turn {at - 1}'s calls have no results in turn {at}")
    return faults


def _gemini_faults(payload: dict[str, Any]) -> list[str]:
    faults = []
    contents = payload["contents"]
    for at, content in enumerate(contents):
        parts = content["parts"]
        calls = [p["function_call"] for p in parts if "function_call" in p]
        ids = [call["id"] for call in calls]
        if len(ids) != len(set(ids)):
            faults.append(f"contents[{at}] repeats call ids {ids}")
        before = contents[at - 1]["parts"] if at else []
        asked = sorted(
            (p["function_call"]["id"], p["function_call"]["name"])
            for p in before
            if "function_call" in p and contents[at - 1]["role"] == "model"
        )
        answers = sorted(
            (p["function_response"]["id"], p["function_response"]["name"])
            for p in parts
            if "function_response" in p
        )
        if (answers or asked) and answers != asked:
            faults.append(f"contents[{at}] answers {answers}, the calls before are {asked}")
    return faults


_CHECKERS = {
    "openai_chat": _chat_faults,
    "openai_responses": _responses_faults,
    "anthropic": _anthropic_faults,
    "gemini": _gemini_faults,
}
