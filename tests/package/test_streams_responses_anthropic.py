"""The partial Msg of the Responses and Anthropic streams, read after every event: one
message as it grows, never changed once handed out, and the quick ways check what the
full ways check."""

from __future__ import annotations

from typing import Any

import pytest

from agentmsg import (
    AnthropicStream,
    MessageError,
    OpenAIResponsesStream,
    deterministic,
    from_openai_responses,
)
from agentmsg.providers import openai_responses
from stream_samples import ANTHROPIC_EVENTS, RESPONSES_EVENTS


def anthropic_events(*pieces: str) -> list[dict[str, Any]]:
    """An Anthropic reply whose one text block streams *pieces*, left open."""
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x"}
    message |= {"content": [], "usage": {"input_tokens": 3, "output_tokens": 1}}
    start = {"type": "text", "text": ""}
    return [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": start},
        *(
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}}
            for p in pieces
        ),
    ]


def responses_events(*pieces: str) -> list[dict[str, Any]]:
    """A Responses reply whose one output text part streams *pieces*, left open."""
    response = {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-x"}
    response |= {"status": "in_progress", "output": []}
    item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress"}
    where = {"output_index": 0, "item_id": "msg_1", "content_index": 0}
    part = {"type": "output_text", "text": "", "annotations": []}
    events = [
        {"type": "response.created", "response": response},
        {"type": "response.output_item.added", "output_index": 0, "item": {**item, "content": []}},
        {"type": "response.content_part.added", **where, "part": part},
        *({"type": "response.output_text.delta", **where, "delta": p} for p in pieces),
    ]
    return [{**event, "sequence_number": number} for number, event in enumerate(events)]


# Whole replies (thinking, text and tool calls), and replies of one growing text.
WHOLE = {AnthropicStream: ANTHROPIC_EVENTS, OpenAIResponsesStream: RESPONSES_EVENTS}
GROWING = {
    AnthropicStream: anthropic_events("Hel", "lo", " there"),
    OpenAIResponsesStream: responses_events("Hel", "lo", " there"),
}


def text_of(stream: Any) -> str:
    """The text of the stream's partial message (its read of ``content`` included)."""
    return "".join(block.get("text", "") for block in stream.msg.content)


class TestQuickWayChecks:
    """The quick way of the next text piece refuses what the full way refuses."""

    def test_anthropic_lone_surrogate_refused(self):
        """A text delta with a lone surrogate, after deltas of its kind, is refused at
        its event (UTF-8 cannot hold it), and the stream goes on without it."""
        stream = AnthropicStream()
        stream.extend(anthropic_events("Hel", "lo"))

        with pytest.raises(MessageError) as raised:
            stream.add(anthropic_events("\ud800")[-1])
        stream.add(anthropic_events(" there")[-1])

        assert ("events[4].delta.text", "Hello there") == (raised.value.path, text_of(stream))

    def test_responses_lone_surrogate_refused(self):
        """An output text delta with a lone surrogate, after deltas of its part, is
        refused at its event, and the stream goes on without it."""
        events = responses_events("Hel", "lo", "\ud800", " there")
        stream = OpenAIResponsesStream()
        stream.extend(events[:5])

        with pytest.raises(MessageError) as raised:
            stream.add(events[5])
        stream.add({**events[6], "sequence_number": 5})

        assert ("events[5].delta", "Hello there") == (raised.value.path, text_of(stream))


@pytest.mark.parametrize("stream_class", sorted(WHOLE, key=lambda cls: cls.__name__))
class TestOneMessageAsItGrows:
    """The partial messages of one stream are one message as it grows."""

    def test_one_id_and_time(self, stream_class):
        """Read after every event (block starts and stops too), the partial messages
        all have the id and timestamp of the first one."""
        stream = stream_class()
        seen = set()
        for event in WHOLE[stream_class]:
            stream.add(event)
            if stream.msg is not None:
                seen.add((stream.msg.id, stream.msg.timestamp))

        assert 1 == len(seen)

    def test_one_id_in_deterministic_mode(self, stream_class):
        """In a ``deterministic()`` block, the partial messages share the block's first
        id, and the same stream read again in a new block gives the same id."""
        ids = []
        for _ in range(2):
            with deterministic(seed=3):
                stream = stream_class()
                found = set()
                for event in WHOLE[stream_class]:
                    stream.add(event)
                    found.add(stream.msg.id)
                ids.append(found)

        assert (1, ids[0]) == (len(ids[0]), ids[1])

    def test_kept_partials_keep_their_text(self, stream_class):
        """A partial message the caller keeps says what it said when read, however
        the later ones grow."""
        stream = stream_class()
        kept = []
        for event in WHOLE[stream_class]:
            stream.add(event)
            kept.append((stream.msg, stream.msg.to_dict()))

        assert [said for _, said in kept] == [msg.to_dict() for msg, _ in kept]

    @pytest.mark.parametrize("change", ["setters", "content"])
    def test_changes_to_a_dropped_partial_do_not_carry_over(self, stream_class, change):
        """A partial message changed (through its setters, or its content list) and then
        let go, while only the text grows, does not show its changes in the next one."""
        events = GROWING[stream_class]
        first = next(n for n, event in enumerate(events) if "delta" in event["type"])
        stream = stream_class()
        stream.extend(events[: first + 1])
        stream.msg  # noqa: B018  # the first text piece read
        stream.add(events[first + 1])
        if change == "setters":
            stream.msg.name = "Ada"
            stream.msg.metadata = {"note": "mine"}
            stream.msg.timestamp = "2020-01-01 00:00:00.000"
        else:
            stream.msg.content.append({"type": "text", "text": "!"})
        stream.add(events[first + 2])

        expected = stream._convert(stream.response, False).messages[0]
        assert (expected.name, expected.metadata, expected.content) == (
            stream.msg.name,
            stream.msg.metadata,
            stream.msg.content,
        )

    def test_last_partial_is_the_result(self, stream_class):
        """Read after every event, the last partial message says what the result says."""
        stream = stream_class()
        for event in WHOLE[stream_class]:
            stream.add(event)
            stream.msg  # noqa: B018  # every event read
        reply = stream.result().messages[0]

        assert (reply.content, reply.metadata) == (stream.msg.content, stream.msg.metadata)


def many_items(count: int) -> list[dict[str, Any]]:
    """A Responses reply of *count* rounds of output items, each a reasoning item, a
    message of two text parts and a function call (one with arguments that are not an
    object), and items the conversion drops or puts in a message of their own."""
    events: list[dict[str, Any]] = []

    def add(kind: str, **fields: Any) -> None:
        events.append({"type": kind, "sequence_number": len(events), **fields})

    def item(done: dict[str, Any], started: dict[str, Any]) -> None:
        position = sum(event["type"] == "response.output_item.added" for event in events)
        add("response.output_item.added", output_index=position, item=started)
        add("response.output_item.done", output_index=position, item=done)

    response = {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-x"}
    add("response.created", response={**response, "status": "in_progress", "output": []})
    for number in range(count):
        summary = [{"type": "summary_text", "text": f"think {number}"}]
        reasoning = {"type": "reasoning", "id": f"rs_{number}", "summary": summary}
        item({**reasoning, "encrypted_content": "e"}, {**reasoning, "summary": []})
        parts = [{"type": "output_text", "text": t, "annotations": []} for t in ("a", "b")]
        message = {"type": "message", "id": f"msg_{number}", "role": "assistant"}
        item({**message, "status": "completed", "content": parts}, {**message, "content": []})
        arguments = "[1]" if number % 2 else f'{{"n": {number}}}'
        call = {"type": "function_call", "id": f"fc_{number}", "call_id": f"c{number}"}
        call |= {"name": "f", "arguments": arguments, "status": "completed"}
        item(call, {**call, "arguments": ""})
        if number == 1:
            search = {"type": "web_search_call", "id": "ws_1", "status": "completed"}
            item(search, search)
    return events


class TestManyOutputItems:
    """A Responses reply of many output items: each done item is converted once, and
    every read says what converting the whole response so far says."""

    def test_every_read_agrees_with_the_whole_conversion(self):
        """Read after every event, the partial message says what the response rebuilt
        so far says converted whole (its first message)."""
        stream = OpenAIResponsesStream()
        reads, wholes = [], []
        for event in many_items(4):
            stream.add(event)
            msg = stream.msg
            whole = from_openai_responses(stream.response).messages[0]
            reads.append((msg.content, msg.metadata, msg.invocation_id))
            wholes.append((whole.content, whole.metadata, whole.invocation_id))

        assert wholes == reads

    def test_a_read_converts_the_open_items_only(self, monkeypatch):
        """The output items converted over all reads grow with the events, not with
        the events times the items before them."""
        converted = []

        def counting(data: Any, **options: Any) -> Any:
            converted.append(len(data.get("output") or ()))
            return from_openai_responses(data, **options)

        monkeypatch.setattr(openai_responses, "from_openai_responses", counting)
        events = many_items(30)
        stream = OpenAIResponsesStream()
        for event in events:
            stream.add(event)
            assert stream.msg is not None

        assert sum(converted) <= 2 * len(events)

    def test_an_item_of_another_role_is_read_the_whole_way(self):
        """An output message of another role (a message of its own) or of text alone
        (a string) is read by converting the whole response, as before."""
        stream = OpenAIResponsesStream()
        events = many_items(2)  # more items than are converted whole each time
        stream.extend(events)
        user = {"type": "message", "id": "m_u", "role": "user", "content": "hi"}
        text = {"type": "message", "id": "m_t", "role": "assistant", "content": "hi"}
        added = sum(event["type"] == "response.output_item.added" for event in events)
        for position, item in enumerate((user, text), start=added):
            number = stream.count
            stream.add(
                {
                    "type": "response.output_item.added",
                    "sequence_number": number,
                    "output_index": position,
                    "item": item,
                }
            )
            whole = from_openai_responses(stream.response).messages[0]

            assert (whole.content, whole.metadata) == (stream.msg.content, stream.msg.metadata)
