"""Section ``streams``: a streamed reply of about 200 events, per model API, assembled.

The reply: about 160 text pieces, then two tool calls whose arguments come in pieces of
four characters, as each API streams them. agentmsg takes the events with the format's
stream class and converts the result (``stream.extend(events); stream.result()``);
langchain-core makes an ``AIMessageChunk`` of each event (text as content, argument
pieces as ``tool_call_chunks``) and adds them up with ``+``, as its chat models do when
they stream. Both are checked to give the same text and tool calls before timing. A
second table sets the stream beside converting the unstreamed response of the same
reply with the format's ``from_*`` function.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ._common import SUBJECT, Check, Options, Row, Section, Table, time_side_by_side

SPEED_TARGET = 2.0
"""agentmsg must assemble a stream at least this many times faster than langchain-core."""

_SENTENCE = (
    "The weather in Lima is mild today, with a light breeze from the sea, a grey sky "
    "until noon and some sun after lunch; Oslo is colder, with rain in the evening. "
)
WORDS = [word + " " for word in (_SENTENCE * 6).split()][:160]
CALLS = (
    ("call_1", "get_weather", {"city": "Lima", "unit": "celsius", "days": 3}),
    ("call_2", "get_weather", {"city": "Oslo", "unit": "celsius", "days": 3}),
)
PIECE = 4


def _pieces(text: str) -> list[str]:
    return [text[start : start + PIECE] for start in range(0, len(text), PIECE)]


# -- the same reply in each format: (events, unstreamed response, langchain chunk kwargs) --


def openai_chat() -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1"}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": word}) for word in WORDS]
    for number, (call_id, name, arguments) in enumerate(CALLS):
        function = {"name": name, "arguments": ""}
        events.append(
            chunk(
                {
                    "tool_calls": [
                        {"index": number, "id": call_id, "type": "function", "function": function}
                    ]
                }
            )
        )
        for piece in _pieces(json.dumps(arguments)):
            events.append(
                chunk({"tool_calls": [{"index": number, "function": {"arguments": piece}}]})
            )
    events.append(chunk({}, "tool_calls"))
    usage = {"prompt_tokens": 80, "completion_tokens": 200, "total_tokens": 280}
    events.append({**head, "choices": [], "usage": usage})
    message = {
        "role": "assistant",
        "content": "".join(WORDS),
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
            for i, n, a in CALLS
        ],
    }
    response = {
        **head,
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        "usage": usage,
    }
    return events, response, _langchain_chunks(events, "openai_chat")


def openai_responses() -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []

    def add(kind: str, **fields: Any) -> None:
        events.append({"type": kind, "sequence_number": len(events), **fields})

    head = {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-5"}
    add("response.created", response={**head, "status": "in_progress", "output": []})
    text = "".join(WORDS)
    message = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed"}
    message["content"] = [{"type": "output_text", "text": text, "annotations": []}]
    add("response.output_item.added", output_index=0, item={**message, "content": []})
    where = {"output_index": 0, "item_id": "msg_1", "content_index": 0}
    add(
        "response.content_part.added",
        part={"type": "output_text", "text": "", "annotations": []},
        **where,
    )
    for word in WORDS:
        add("response.output_text.delta", delta=word, **where)
    add("response.output_text.done", text=text, **where)
    add("response.content_part.done", part=message["content"][0], **where)
    add("response.output_item.done", output_index=0, item=message)
    items: list[dict[str, Any]] = [message]
    for position, (call_id, name, arguments) in enumerate(CALLS, start=1):
        call = {"type": "function_call", "id": f"fc_{position}", "call_id": call_id, "name": name}
        call |= {"arguments": json.dumps(arguments), "status": "completed"}
        add("response.output_item.added", output_index=position, item={**call, "arguments": ""})
        for piece in _pieces(call["arguments"]):
            add(
                "response.function_call_arguments.delta",
                output_index=position,
                item_id=call["id"],
                delta=piece,
            )
        add("response.output_item.done", output_index=position, item=call)
        items.append(call)
    usage = {"input_tokens": 80, "output_tokens": 200, "total_tokens": 280}
    response = {**head, "status": "completed", "output": items, "usage": usage}
    add("response.completed", response=response)
    return events, response, _langchain_chunks(events, "openai_responses")


def anthropic() -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    head = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5"}
    start = {**head, "content": [], "usage": {"input_tokens": 80, "output_tokens": 1}}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}]
    events.append(
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}
    )
    for word in WORDS:
        events.append(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": word},
            }
        )
    events.append({"type": "content_block_stop", "index": 0})
    for number, (call_id, name, arguments) in enumerate(CALLS, start=1):
        block = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
        events.append({"type": "content_block_start", "index": number, "content_block": block})
        for piece in _pieces(json.dumps(arguments)):
            delta = {"type": "input_json_delta", "partial_json": piece}
            events.append({"type": "content_block_delta", "index": number, "delta": delta})
        events.append({"type": "content_block_stop", "index": number})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 200},
        }
    )
    events.append({"type": "message_stop"})
    content: list[dict[str, Any]] = [{"type": "text", "text": "".join(WORDS)}]
    content += [{"type": "tool_use", "id": i, "name": n, "input": a} for i, n, a in CALLS]
    response = {**head, "content": content, "stop_reason": "tool_use"}
    response["usage"] = {"input_tokens": 80, "output_tokens": 200}
    return events, response, _langchain_chunks(events, "anthropic")


def gemini() -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    # Gemini sends a function call whole; its text comes in pieces of a few words.
    head = {"modelVersion": "gemini-2.5-flash", "responseId": "r1"}
    usage = {"promptTokenCount": 80, "candidatesTokenCount": 200, "totalTokenCount": 280}

    def piece(parts: list[dict[str, Any]], finish: str | None = None) -> dict[str, Any]:
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
        if finish:
            candidate["finishReason"] = finish
        return {"candidates": [candidate], "usageMetadata": usage, **head}

    events = [piece([{"text": word}]) for word in WORDS]
    calls = [{"functionCall": {"id": i, "name": n, "args": a}} for i, n, a in CALLS]
    events += [piece([call]) for call in calls]
    events.append(piece([], "STOP"))
    parts = [{"text": "".join(WORDS)}, *calls]
    response = {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ]
    }
    response |= {"usageMetadata": usage, **head}
    return events, response, _langchain_chunks(events, "gemini")


def _langchain_chunks(events: list[dict[str, Any]], format: str) -> list[dict[str, Any]]:
    """Not timed: which text and tool-call fragment each event holds, per format, so that
    the langchain-core side builds its chunks from the same pieces."""
    pieces = []
    for event in events:
        text, fragment = "", None
        if format == "openai_chat":
            for choice in event["choices"]:
                text = choice["delta"].get("content") or ""
                for call in choice["delta"].get("tool_calls") or []:
                    function = call["function"]
                    fragment = (
                        function.get("name"),
                        function.get("arguments"),
                        call.get("id"),
                        call["index"],
                    )
        elif format == "openai_responses":
            if event["type"] == "response.output_text.delta":
                text = event["delta"]
            elif (
                event["type"] == "response.output_item.added"
                and event["item"]["type"] == "function_call"
            ):
                item = event["item"]
                fragment = (item["name"], "", item["call_id"], event["output_index"])
            elif event["type"] == "response.function_call_arguments.delta":
                fragment = (None, event["delta"], None, event["output_index"])
        elif format == "anthropic":
            delta = event.get("delta", {})
            if delta.get("type") == "text_delta":
                text = delta["text"]
            elif delta.get("type") == "input_json_delta":
                fragment = (None, delta["partial_json"], None, event["index"])
            elif (
                event["type"] == "content_block_start"
                and event["content_block"]["type"] == "tool_use"
            ):
                block = event["content_block"]
                fragment = (block["name"], "", block["id"], event["index"])
        else:
            for part in event["candidates"][0]["content"]["parts"]:
                if "text" in part:
                    text = part["text"]
                else:
                    call = part["functionCall"]
                    fragment = (call["name"], json.dumps(call["args"]), call["id"], len(pieces))
        pieces.append({"text": text, "fragment": fragment})
    return pieces


# The synthetic reply of each format of agentmsg.providers.FORMATS, by its key.
REPLIES: dict[str, Callable[[], Any]] = {
    "openai_chat": openai_chat,
    "openai_responses": openai_responses,
    "anthropic": anthropic,
    "gemini": gemini,
}


def _format(key: str) -> Any:
    """The registry record of the format *key* (``agentmsg.providers.FORMATS``)."""
    from agentmsg.providers import FORMATS

    return FORMATS[key]


def formats() -> dict[str, tuple[str, Callable[[], Any]]]:
    """Each format of the registry: its title and its synthetic reply."""
    from agentmsg.providers import FORMATS

    missing = sorted(FORMATS.keys() - REPLIES.keys())
    if missing:
        msg = f"bench/streams.py has no synthetic reply for {missing}: add one to REPLIES"
        raise RuntimeError(msg)
    return {key: (api.title, REPLIES[key]) for key, api in FORMATS.items()}


def _agentmsg(format: str, events: list[dict[str, Any]]) -> Callable[[], Any]:
    stream_class = _format(format).stream

    def assemble() -> Any:
        stream = stream_class()
        stream.extend(events)
        return stream.result().messages[0]

    return assemble


def _finish(format: str, events: list[dict[str, Any]]) -> Callable[[], Any]:
    """``result()`` alone, on a stream that has taken every event: the work left at the end."""
    stream = _format(format).stream()
    stream.extend(events)

    def finish() -> Any:
        return stream.result().messages[0]

    return finish


def _full(format: str, response: dict[str, Any]) -> Callable[[], Any]:
    convert = _format(format).read

    def whole() -> Any:
        return convert(response).messages[0]

    return whole


def _floor(events: list[dict[str, Any]]) -> Callable[[], Any]:
    """The least any accumulator does: a loop that reads each event's type and nothing
    more (a Chat Completions chunk or a Gemini piece has none: the lookup still costs)."""

    def read_types() -> Any:
        kind = None
        for event in events:
            kind = event.get("type")
        return kind

    return read_types


def _tool_call_chunks(fragment: tuple[Any, Any, Any, Any] | None) -> list[dict[str, Any]]:
    """langchain-core's ``tool_call_chunks`` of a piece: its one tool-call fragment, if any."""
    if fragment is None:
        return []
    name, args, call_id, index = fragment
    return [{"name": name, "args": args, "id": call_id, "index": index, "type": "tool_call_chunk"}]


def _langchain(pieces: list[dict[str, Any]]) -> Callable[[], Any]:
    from langchain_core.messages import AIMessageChunk

    def assemble() -> Any:
        total = None
        for piece in pieces:
            calls = _tool_call_chunks(piece["fragment"])
            chunk = AIMessageChunk(content=piece["text"], tool_call_chunks=calls)
            total = chunk if total is None else total + chunk
        return total

    return assemble


def said_by_agentmsg(msg: Any) -> tuple[Any, ...]:
    calls = [(b["id"], b["name"], b["input"]) for b in msg.content if b["type"] == "tool_use"]
    return msg.get_text_content(), calls


def said_by_langchain(chunk: Any) -> tuple[Any, ...]:
    calls = [(call["id"], call["name"], call["args"]) for call in chunk.tool_calls]
    return chunk.content, calls


def run(options: Options) -> list[Table]:
    try:
        import langchain_core  # noqa: F401
    except ImportError as error:
        msg = (
            f"cannot import langchain-core ({error}); run `make bench`, or "
            "`pip install -e '.[bench]'`"
        )
        raise SystemExit(msg) from error
    peer_rows, full_rows, counts = [], [], {}
    for format, (label, make) in formats().items():
        events, response, pieces = make()
        counts[label] = len(events)
        ours, theirs, whole = _agentmsg(format, events), _langchain(pieces), _full(format, response)
        finish, floor = _finish(format, events), _floor(events)
        expected = said_by_agentmsg(whole())
        if said_by_agentmsg(ours()) != expected or said_by_langchain(theirs()) != expected:
            got = (said_by_agentmsg(ours()), said_by_langchain(theirs()))
            msg = f"{label}: the assembled replies differ from {expected}: {got}"
            raise RuntimeError(msg)
        medians, samples, _ = time_side_by_side(
            {
                SUBJECT: ours,
                "langchain-core": theirs,
                "full response": whole,
                "result()": finish,
                "floor": floor,
            },
            options,
        )
        operation = f"{len(events)} events, {label}"
        peer_rows.append(
            Row(
                operation,
                {SUBJECT: medians[SUBJECT], "langchain-core": medians["langchain-core"]},
                target=SPEED_TARGET,
                samples={name: samples[name] for name in (SUBJECT, "langchain-core")},
                excluded={"agentscope": "it has no public accumulator of stream events"},
            )
        )
        full_rows.append(
            Row(
                operation,
                {
                    "stream": medians[SUBJECT],
                    "result() at the end": medians["result()"],
                    "full response": medians["full response"],
                    "type-read loop": medians["floor"],
                },
                samples={
                    "stream": samples[SUBJECT],
                    "result() at the end": samples["result()"],
                    "full response": samples["full response"],
                    "type-read loop": samples["floor"],
                },
            )
        )
    return [
        Table(
            key="streams.time",
            title="A streamed reply assembled: median time (lower is better)",
            unit="s",
            rows=peer_rows,
            columns=(SUBJECT, "langchain-core"),
            parameters={"repeats": options.repeats, "events": counts},
            notes=[
                "The reply: 160 text pieces and two tool calls, their arguments in pieces of "
                f"{PIECE} characters (Gemini sends each call whole). agentmsg: the format's "
                "stream class, stream.extend(events) then stream.result(), which converts "
                "the rebuilt response and reports losses. langchain-core: an AIMessageChunk "
                "per event (content, tool_call_chunks) added up with +; the pieces each event "
                "holds are read beforehand, not timed. Both give the same text and tool "
                "calls, checked before timing.",
                f"Median of {options.repeats} repeats; ratio = langchain-core's time / "
                f"agentmsg's, target >= {SPEED_TARGET:g}x.",
            ],
        ),
        Table(
            key="streams.full",
            title="A streamed reply assembled, beside converting the unstreamed response",
            unit="s",
            rows=full_rows,
            columns=("stream", "result() at the end", "full response", "type-read loop"),
            compare=False,
            notes=[
                "stream: as above; result() at the end: that call alone, on a stream that "
                "has taken every event (the work left once the last event has come); full "
                "response: the from_* function on the unstreamed response of the same reply. "
                "Reported, with no target: its floor is shown below (the recorded streams "
                "table holds the stream targets).",
                "type-read loop: a loop over the same events that only reads each one's "
                "type, the floor of any accumulator in Python. result() converts the rebuilt "
                "response (about the full conversion's cost), so a stream costs at least the "
                "full conversion plus this loop: (full response + type-read loop) / full "
                "response is the best ratio reachable without a compiled accumulator. Taking "
                "an event for real (its text or argument piece appended, its place in the "
                "stream checked) costs several times the bare read.",
            ],
        ),
        *run_recorded(options),
    ]


SECTION = Section(
    name="streams",
    description=(
        "a streamed reply of about 200 events assembled, per model API; recorded streams "
        "of 500+ events against each SDK's accumulator and langchain-core's bulk merge"
    ),
    run=run,
)


# -- recorded streams (tests/fixtures/streams/, sources and licences in each README) -------

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "streams"
READ_TARGET = 3.0
"""Reading the partial Msg after every event may cost at most this many times
accumulating alone."""
FLAT_TARGET = 1.5
"""The time per event at 10,000 events may be at most this many times that at 100."""


def recording(name: str) -> list[dict[str, Any]]:
    """The events of one recorded stream, ``<api>/<file stem>``."""
    lines = (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[1:]]


def lengthened(events: list[dict[str, Any]], middle: slice, count: int) -> list[dict[str, Any]]:
    """A recording made *count* events long by repeating its events in *middle* (the
    shapes the API sent, in the order it sent them), its head and tail kept."""
    head, body, tail = events[: middle.start], events[middle], events[middle.stop :]
    need = max(count - len(head) - len(tail), 1)
    return head + [body[number % len(body)] for number in range(need)] + tail


def _anthropic_text(count: int) -> list[dict[str, Any]]:
    # The text deltas of the SDK's recorded basic reply, repeated.
    events = [event for event in recording("anthropic/anthropic-sdk-basic_response")]
    deltas = [n for n, event in enumerate(events) if event["type"] == "content_block_delta"]
    return lengthened(events, slice(deltas[0], deltas[-1] + 1), count)


def _chat_logprobs(count: int) -> list[dict[str, Any]]:
    # A Chat Completions reply with log probabilities (openai-python's recording): its
    # content chunks, each with its token's log probability, repeated.
    return lengthened(recording("openai_chat/openai-python-83b060bae42e"), slice(1, 3), count)


def _responses_text(count: int) -> list[dict[str, Any]]:
    # The output text deltas of xAI's recorded reply, repeated; every event's
    # sequence_number renumbered so that the stream stays in order.
    events = recording("openai_responses/vercel-ai-xai-xai-text-with-reasoning-streaming_1")
    deltas = [n for n, event in enumerate(events) if event["type"] == "response.output_text.delta"]
    longer = lengthened(events, slice(deltas[0], deltas[-1] + 1), count)
    return [{**event, "sequence_number": number} for number, event in enumerate(longer)]


def _gemini_text(count: int) -> list[dict[str, Any]]:
    # The answer's text pieces (after the thoughts) of a recorded reply, repeated.
    events = recording("gemini/pydantic-ai-test_google_model_thinking_part_iter-0")
    return lengthened(events, slice(5, len(events) - 1), count)


#: (label, API, events): real recorded streams of 500 events or more, and recorded
#: shapes made longer where no recording of that length exists.
def recorded_streams() -> list[tuple[str, str, list[dict[str, Any]]]]:
    return [
        (
            "Chat Completions, reasoning (groq recording)",
            "openai_chat",
            recording("openai_chat/vercel-ai-groq-groq-reasoning"),
        ),
        (
            "Chat Completions, text (groq recording)",
            "openai_chat",
            recording("openai_chat/vercel-ai-groq-groq-text"),
        ),
        ("Chat Completions, log probabilities (lengthened)", "openai_chat", _chat_logprobs(1000)),
        (
            "Responses, compaction (OpenAI recording)",
            "openai_responses",
            recording("openai_responses/vercel-ai-openai-openai-compaction_1"),
        ),
        (
            "Responses, reasoning (xAI recording)",
            "openai_responses",
            recording("openai_responses/vercel-ai-xai-xai-text-with-reasoning-streaming_1"),
        ),
        (
            "Anthropic, code execution (recording)",
            "anthropic",
            recording("anthropic/vercel-ai-anthropic-anthropic-code-execution-20250825_2"),
        ),
        (
            "Anthropic, compaction (recording)",
            "anthropic",
            recording("anthropic/vercel-ai-anthropic-anthropic-compaction_1"),
        ),
        ("Gemini, thinking and text (lengthened)", "gemini", _gemini_text(600)),
    ]


def _sdk(format: str, events: list[dict[str, Any]]) -> Callable[[], Any] | None:
    """The provider SDK's own accumulator over the SDK's event objects (built
    beforehand, not timed, as its stream decoder builds them: ``construct_type``, which
    does not validate); None for Gemini,
    whose SDK hands each piece on and accumulates nothing."""
    if format == "openai_chat":
        from openai._models import construct_type
        from openai.lib.streaming.chat._completions import ChatCompletionStreamState
        from openai.types.chat import ChatCompletionChunk

        chunks = [construct_type(type_=ChatCompletionChunk, value=event) for event in events]

        def chat() -> Any:
            state = ChatCompletionStreamState()
            for chunk in chunks:
                state.handle_chunk(chunk)
            return state.current_completion_snapshot

        return chat
    if format == "openai_responses":
        from openai import omit
        from openai._models import construct_type as construct_openai
        from openai.lib.streaming.responses._responses import ResponseStreamState
        from openai.types.responses import ResponseStreamEvent

        parsed = [construct_openai(type_=ResponseStreamEvent, value=event) for event in events]

        def responses() -> Any:
            state: Any = ResponseStreamState(input_tools=omit, text_format=omit)
            for event in parsed:
                state.handle_event(event)
            return state._completed_response

        return responses
    if format == "anthropic":
        import inspect

        from anthropic._models import construct_type as construct_anthropic
        from anthropic.lib.streaming import _messages
        from anthropic.types import RawMessageStreamEvent

        kept = [event for event in events if event["type"] != "ping"]
        parsed = [construct_anthropic(type_=RawMessageStreamEvent, value=event) for event in kept]
        buffers = "json_bufs" in inspect.signature(_messages.accumulate_event).parameters

        def anthropic() -> Any:
            snapshot = None
            extra: dict[str, Any] = {"json_bufs": {}} if buffers else {}
            for event in parsed:
                snapshot = _messages.accumulate_event(
                    event=event, current_snapshot=snapshot, **extra
                )
            return snapshot

        return anthropic
    return None


def _bulk_langchain(format: str, events: list[dict[str, Any]]) -> Callable[[], Any]:
    """langchain-core's bulk merge, ``add_ai_message_chunks``, of one chunk per event
    holding what langchain's integration for *format* puts in it (the chunks made
    beforehand, not timed): see :func:`_pieces_of`."""
    from langchain_core.messages import AIMessageChunk
    from langchain_core.messages.ai import add_ai_message_chunks

    chunks = [
        AIMessageChunk(
            content=piece["text"],
            tool_call_chunks=_tool_call_chunks(piece["fragment"]),
            response_metadata=piece["metadata"],
            usage_metadata=piece["usage"],
        )
        for piece in _pieces_of(format, events)
    ]

    def merge() -> Any:
        return add_ai_message_chunks(chunks[0], *chunks[1:])

    return merge


def _pieces_of(format: str, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each event of a recording as langchain's integration for *format* makes it a
    chunk: its text or tool-call piece, the usage it carries (Gemini's running totals as
    the difference from the last, as langchain-google-genai makes them), and its
    ``response_metadata`` (Chat Completions' log probabilities and finish reason;
    Gemini's safety ratings and finish reason; Anthropic's stop reason)."""
    from langchain_core.messages.ai import subtract_usage

    pieces, running = [], None
    for event in events:
        text, fragment, metadata = "", None, {}
        usage: Any = None
        if format == "openai_chat":
            for choice in event.get("choices") or []:
                delta = choice.get("delta") or {}
                text = delta.get("content") or delta.get("reasoning") or ""
                for call in delta.get("tool_calls") or []:
                    function = call.get("function") or {}
                    fragment = (
                        function.get("name"),
                        function.get("arguments"),
                        call.get("id"),
                        call.get("index", 0),
                    )
                if choice.get("logprobs"):
                    metadata["logprobs"] = choice["logprobs"]
                if choice.get("finish_reason"):
                    metadata["finish_reason"] = choice["finish_reason"]
            usage = _usage(event.get("usage"), "prompt_tokens", "completion_tokens")
        elif format == "openai_responses":
            if event.get("type") in (
                "response.output_text.delta",
                "response.reasoning_summary_text.delta",
                "response.reasoning_text.delta",
            ):
                text = event["delta"]
            elif event.get("type") == "response.function_call_arguments.delta":
                fragment = (None, event["delta"], None, event["output_index"])
            elif event.get("type") == "response.completed":
                usage = _usage(event["response"].get("usage"), "input_tokens", "output_tokens")
        elif format == "anthropic":
            delta = event.get("delta") or {}
            text = delta.get("text") or delta.get("thinking") or ""
            if delta.get("type") == "input_json_delta":
                fragment = (None, delta["partial_json"], None, event["index"])
            if delta.get("stop_reason"):
                metadata["stop_reason"] = delta["stop_reason"]
            counts = event.get("usage") or (event.get("message") or {}).get("usage")
            usage = _usage(counts, "input_tokens", "output_tokens")
        else:
            for candidate in event.get("candidates") or []:
                for part in (candidate.get("content") or {}).get("parts") or []:
                    text += part.get("text") or ""
                metadata["safety_ratings"] = candidate.get("safetyRatings") or []
                if candidate.get("finishReason"):
                    metadata["finish_reason"] = candidate["finishReason"]
            counts = event.get("usageMetadata") or {}
            total: Any = {
                "input_tokens": counts.get("promptTokenCount", 0),
                "output_tokens": counts.get("candidatesTokenCount", 0)
                + counts.get("thoughtsTokenCount", 0),
                "total_tokens": counts.get("totalTokenCount", 0),
                "input_token_details": {"cache_read": counts.get("cachedContentTokenCount", 0)},
            }
            usage = subtract_usage(total, running) if running else total
            running = total
        pieces.append({"text": text, "fragment": fragment, "metadata": metadata, "usage": usage})
    return pieces


def _usage(counts: dict[str, Any] | None, read: str, written: str) -> dict[str, int] | None:
    """langchain's ``usage_metadata`` of an API's token counts (None without them)."""
    if not counts:
        return None
    prompt, completion = counts.get(read) or 0, counts.get(written) or 0
    total = prompt + completion
    return {"input_tokens": prompt, "output_tokens": completion, "total_tokens": total}


def _accumulate(format: str, events: list[dict[str, Any]], read: bool) -> Callable[[], Any]:
    """agentmsg: ``extend`` then ``result()``; with *read*, ``add`` and the partial
    ``msg`` read after every event, then ``result()``."""
    stream_class = _format(format).stream
    if not read:

        def accumulate() -> Any:
            stream = stream_class()
            stream.extend(events)
            return stream.result()

        return accumulate

    def reading() -> Any:
        stream = stream_class()
        for event in events:
            stream.add(event)
            stream.msg  # noqa: B018  # the read is what is measured
        return stream.result()

    return reading


def run_recorded(options: Options) -> list[Table]:
    """The recorded streams: agentmsg against each SDK's own accumulator and
    langchain-core's bulk merge, the cost of reading the partial Msg, and the time per
    event as a stream grows."""
    rows, checks, counts = [], [], {}
    for label, format, events in recorded_streams():
        counts[label] = len(events)
        candidates = {
            SUBJECT: _accumulate(format, events, False),
            "reading .msg after every event": _accumulate(format, events, True),
            "langchain-core bulk merge": _bulk_langchain(format, events),
        }
        sdk = _sdk(format, events)
        if sdk is not None:
            candidates["provider SDK"] = sdk
        medians, samples, _ = time_side_by_side(candidates, options)
        rows.append(Row(f"{len(events)} events, {label}", medians, samples=samples))
        ours = medians[SUBJECT]
        for peer in ("provider SDK", "langchain-core bulk merge"):
            if peer in medians:
                ratio = medians[peer] / ours
                checks.append(
                    Check(f"{label}: {peer} / agentmsg", f"{ratio:.2f}x", ">= 1.0x", ratio >= 1.0)
                )
        read = medians["reading .msg after every event"] / ours
        checks.append(
            Check(
                f"{label}: reading .msg after every event / accumulating",
                f"{read:.2f}x",
                f"<= {READ_TARGET:g}x",
                read <= READ_TARGET,
            )
        )
    flat_rows = []
    for label, format, make in (
        ("Chat Completions, log probabilities", "openai_chat", _chat_logprobs),
        ("Responses, text", "openai_responses", _responses_text),
        ("Anthropic, text", "anthropic", _anthropic_text),
        ("Gemini, text", "gemini", _gemini_text),
    ):
        per_event: dict[str, dict[int, float]] = {"accumulate": {}, "read": {}}
        row_values: dict[str, float] = {}
        for count in (100, 1_000, 10_000):
            events = make(count)
            medians, _, _ = time_side_by_side(
                {
                    "accumulate": _accumulate(format, events, False),
                    "read": _accumulate(format, events, True),
                },
                options,
            )
            for kind in ("accumulate", "read"):
                per_event[kind][count] = medians[kind] / len(events)
                row_values[f"{kind}, {count:,} events"] = medians[kind] / len(events)
        flat_rows.append(Row(f"{label}: time per event", row_values))
        for kind, what in (
            ("accumulate", "accumulating"),
            ("read", "reading .msg after every event"),
        ):
            growth = per_event[kind][10_000] / per_event[kind][100]
            checks.append(
                Check(
                    f"{label}, {what}: time per event at 10,000 / at 100 events",
                    f"{growth:.2f}x",
                    f"<= {FLAT_TARGET:g}x",
                    growth <= FLAT_TARGET,
                )
            )
    columns = (
        SUBJECT,
        "provider SDK",
        "langchain-core bulk merge",
        "reading .msg after every event",
    )
    for row in rows:
        row.values.setdefault("provider SDK", float("nan"))
    return [
        Table(
            key="streams.recorded",
            title="Recorded streams accumulated: median time (lower is better)",
            unit="s",
            rows=rows,
            columns=columns,
            compare=False,
            checks=checks,
            parameters={"repeats": options.repeats, "events": counts},
            notes=[
                "Real streams recorded from the APIs (tests/fixtures/streams/, each README "
                "names its source and licence), and recorded shapes repeated where no "
                "recording is that long ('lengthened'). agentmsg: stream.extend(events) then "
                "stream.result(), from the events' JSON. provider SDK: openai's "
                "ChatCompletionStreamState and ResponseStreamState, anthropic's "
                "accumulate_event, over the SDK's event objects parsed beforehand (not "
                "timed); google-genai has no accumulator (nan). langchain-core: "
                "add_ai_message_chunks over one AIMessageChunk per event made beforehand "
                "(not timed), holding what langchain's integration for the API puts in it: "
                "text, tool-call pieces, usage (Gemini's running totals as differences), log "
                "probabilities, finish or stop reason, Gemini's safety ratings. reading "
                ".msg: add() and the partial Msg after every event, then result().",
                f"Targets: agentmsg at least as fast as the SDK and langchain-core; reading "
                f"the partial Msg after every event <= {READ_TARGET:g}x accumulating alone.",
            ],
        ),
        Table(
            key="streams.per_event",
            title="Time per event as a stream grows (lower is better)",
            unit="s",
            rows=flat_rows,
            columns=tuple(
                f"{kind}, {count:,} events"
                for kind in ("accumulate", "read")
                for count in (100, 1_000, 10_000)
            ),
            compare=False,
            notes=[
                "Recorded shapes repeated to 100, 1,000 and 10,000 events (the Responses "
                "events' sequence numbers renumbered). accumulate: "
                "extend + result(); read: add + .msg after every event + result(). "
                f"Target: the time per event at 10,000 events <= {FLAT_TARGET:g}x that at 100.",
            ],
        ),
    ]
