"""The stream accumulators: recorded streams give what their unstreamed response gives."""

from __future__ import annotations

import contextlib
import copy
import inspect
import json
import re
import subprocess
import sys
import typing
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agentmsg
import generated_streams
from agentmsg import (
    AIMessageChunk,
    AnthropicStream,
    MessageError,
    OpenAIChatStream,
    OpenAIResponsesStream,
)
from agentmsg.providers import FORMATS
from corpus import STREAMS as RECORDED
from corpus import corpus_params
from stream_samples import (
    ANTHROPIC_EVENTS,
    ANTHROPIC_RESPONSE,
    ANTHROPIC_START,
    CHAT_TOOLS_EVENTS,
    GEMINI_EVENTS,
    RESPONSES_EVENTS,
    RESPONSES_START,
    SAMPLES,
    rejected,
)

STREAMS = {key: api.stream for key, api in FORMATS.items()}
CONVERT = {key: api.read for key, api in FORMATS.items()}


def said(parsed: agentmsg.Parsed) -> tuple[Any, ...]:
    """What a conversion says, without the ids and timestamps each Msg makes up."""
    messages = [
        (msg.name, msg.role, msg.content, msg.metadata, msg.invocation_id)
        for msg in parsed.messages
    ]
    return messages, parsed.losses


def sdk_event(format: str, event: dict[str, Any]) -> Any:
    """The SDK's stream event object for *event*, parsed from JSON as the SDK parses the
    wire (this also checks that the recording is a valid event of the SDK's types); None
    for an Anthropic ``ping``, which the SDK reads and never hands on."""
    if format == "anthropic" and event["type"] == "ping":
        return None
    text = json.dumps(event)
    if format == "openai_chat":
        from openai.types.chat import ChatCompletionChunk

        return ChatCompletionChunk.model_validate_json(text)
    if format == "openai_responses":
        from openai.types.responses import ResponseStreamEvent

        return _member(ResponseStreamEvent, event["type"]).model_validate_json(text)
    if format == "anthropic":
        from anthropic.types import RawMessageStreamEvent

        return _member(RawMessageStreamEvent, event["type"]).model_validate_json(text)
    from google.genai import types

    return types.GenerateContentResponse.model_validate_json(text)


def _member(union: Any, kind: str) -> Any:
    """The class of an SDK's union of event types whose ``type`` is *kind*."""
    while typing.get_origin(union) is typing.Annotated:
        union = typing.get_args(union)[0]
    for member in typing.get_args(union):
        if typing.get_args(member.model_fields["type"].annotation) == (kind,):
            return member
    raise AssertionError(f"the SDK has no stream event of type {kind!r}")


def sdk_response(format: str, response: dict[str, Any]) -> Any:
    """The SDK's unstreamed response object for *response* (which checks its shape)."""
    text = json.dumps(response)
    if format == "openai_chat":
        from openai.types.chat import ChatCompletion

        return ChatCompletion.model_validate_json(text)
    if format == "openai_responses":
        from openai.types.responses import Response

        return Response.model_validate_json(text)
    if format == "anthropic":
        from anthropic.types import Message

        return Message.model_validate_json(text)
    from google.genai import types

    return types.GenerateContentResponse.model_validate_json(text)


def fed(format: str, events: list[Any]) -> Any:
    stream = STREAMS[format]()
    stream.extend(events)
    return stream


class TestRecordedStreams:
    """Each recorded stream, beside the unstreamed response of the same reply."""

    @pytest.mark.parametrize("name", sorted(SAMPLES))
    def test_events_and_response_are_of_the_sdk_types(self, name):
        """Every recorded event parses as the SDK's stream event type, and the response
        as its response type, with nothing left aside."""
        format, events, response = SAMPLES[name]
        for event in events:
            parsed = sdk_event(format, event)
            assert parsed is not None or event == {"type": "ping"}
        assert sdk_response(format, response) is not None

    @pytest.mark.parametrize("name", sorted(SAMPLES))
    def test_result_is_the_conversion_of_the_response(self, name):
        """The finished stream gives the messages and losses of converting the response."""
        format, events, response = SAMPLES[name]
        stream = fed(format, events)

        assert stream.done
        assert said(CONVERT[format](response)) == said(stream.result())
        assert said(CONVERT[format](response, strict=False)) == said(stream.result(strict=False))

    @pytest.mark.parametrize("name", sorted(SAMPLES))
    def test_sdk_objects_give_the_same_result(self, name):
        """Events as the SDK's objects give what the same events as dicts give, and what
        the SDK's response object gives."""
        format, events, response = SAMPLES[name]
        objects = [sdk_event(format, event) for event in events]
        stream = fed(format, [obj for obj in objects if obj is not None])

        assert said(CONVERT[format](sdk_response(format, response))) == said(stream.result())

    @pytest.mark.parametrize("name", sorted(SAMPLES))
    def test_rebuilt_response_is_of_the_sdk_type(self, name):
        """``response`` is a valid unstreamed response of the SDK, converting as it does."""
        format, events, _ = SAMPLES[name]
        stream = fed(format, events)
        rebuilt = sdk_response(format, stream.response)

        assert said(CONVERT[format](rebuilt)) == said(stream.result())

    @pytest.mark.parametrize("name", sorted(SAMPLES))
    def test_partial_message_text_grows(self, name):
        """At each event, the partial message's text starts with the text before it."""
        format, events, _ = SAMPLES[name]
        stream = STREAMS[format]()
        before = ""
        for event in events:
            stream.add(event)
            if stream.msg is None:
                continue
            text = stream.msg.get_text_content() or ""
            assert text.startswith(before)
            before = text
        assert before == (stream.result().messages[0].get_text_content() or "")

    def test_responses_items_rebuilt_before_the_end(self):
        """Before ``response.completed``, the items rebuilt from the deltas are those of
        the response (the final event is not needed to know them)."""
        format, events, response = SAMPLES["responses_tools"]
        stream = fed(format, events[:-1])

        assert not stream.done
        assert response["output"] == stream.response["output"]

    def test_anthropic_agrees_with_the_sdk_accumulator(self):
        """anthropic's own MessageStream accumulation of the events converts the same."""
        from anthropic.lib.streaming._messages import accumulate_event

        snapshot = None
        buffers: dict[int, bytes] = {}
        for event in ANTHROPIC_EVENTS[:2] + ANTHROPIC_EVENTS[3:]:
            snapshot = accumulate_event(
                event=sdk_event("anthropic", event), current_snapshot=snapshot, json_bufs=buffers
            )
        assert said(agentmsg.from_anthropic(snapshot)) == said(
            fed("anthropic", ANTHROPIC_EVENTS).result()
        )
        assert (
            ANTHROPIC_RESPONSE["content"] == fed("anthropic", ANTHROPIC_EVENTS).response["content"]
        )

    def test_tool_call_shows_its_fragments_while_they_come(self):
        """A Chat Completions tool call shows its arguments text so far, then its input."""
        stream = OpenAIChatStream()
        stream.extend(CHAT_TOOLS_EVENTS[:6])
        call = stream.msg.content[-1]

        assert ("get_weather", {}, '{"city": "Li') == (
            call["name"],
            call["input"],
            call["raw_input"],
        )
        stream.extend(CHAT_TOOLS_EVENTS[6:])
        assert {"city": "Lima"} == stream.result().messages[0].content[1]["input"]

    def test_anthropic_tool_call_shows_its_input_text_while_it_comes(self):
        """An open Anthropic tool_use block shows its input JSON so far in ``raw_input``."""
        stream = fed("anthropic", ANTHROPIC_EVENTS[:14])
        call = stream.msg.content[-1]

        assert ({}, '{"city": "Li') == (call["input"], call["raw_input"])
        stream.extend(ANTHROPIC_EVENTS[14:16])
        assert {"city": "Lima"} == stream.msg.content[-1]["input"]
        assert "raw_input" not in stream.msg.content[-1]

    def test_msg_is_cached_until_the_next_event(self):
        """Reading ``msg`` twice gives the same object; a new event makes a new one."""
        stream = fed("anthropic", ANTHROPIC_EVENTS[:9])
        first = stream.msg

        assert first is stream.msg
        stream.add(ANTHROPIC_EVENTS[9])
        assert first is not stream.msg

    def test_before_anything(self):
        """A new stream has no message, no response and no result yet."""
        for format, cls in STREAMS.items():
            stream = cls()
            assert (None, None, False, 0) == (
                stream.msg,
                stream.response,
                stream.done,
                stream.count,
            )
            with pytest.raises(MessageError, match=r"has not ended: 0 events came"):
                stream.result()
            assert f"<{cls.__name__}: 0 events, open>" == repr(stream), format

    def test_strict_result_raises_on_a_drop(self):
        """``result(strict=True)`` raises where the conversion would drop something."""
        format, events, _ = SAMPLES["chat_two_choices"]
        with pytest.raises(MessageError, match=r"choices\[1\]"):
            fed(format, events).result(strict=True)

    def test_response_is_a_copy(self):
        """Changing the dict ``response`` returns changes nothing in the stream."""
        stream = fed("anthropic", ANTHROPIC_EVENTS)
        stream.response["content"].clear()

        assert 4 == len(stream.response["content"])

    def test_import_agentmsg_does_not_import_the_streams(self):
        """The stream classes are imported on first use, like the conversions."""
        code = "import sys, agentmsg; print('agentmsg.providers' in sys.modules)"
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )

        assert "False" == out.stdout.strip()


def without_raw_input(msg: agentmsg.Msg) -> tuple[Any, ...]:
    content = msg.content
    if not isinstance(content, str):
        content = [{k: v for k, v in block.items() if k != "raw_input"} for block in content]
    return msg.name, msg.role, content, msg.metadata, msg.invocation_id


def _cuts(draw: Any, count: int) -> list[int]:
    return sorted(draw(st.sets(st.integers(0, count), max_size=count)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), name=st.sampled_from(sorted(SAMPLES)))
def test_every_way_of_feeding_gives_the_same_result(data, name):
    """However the events are cut into batches, fed as dicts or as SDK objects, and
    however often the partial message is read in between, the result is the conversion of
    the unstreamed response."""
    format, events, response = SAMPLES[name]
    as_objects = data.draw(st.lists(st.booleans(), min_size=len(events), max_size=len(events)))
    items = [
        (sdk_event(format, event) or event) if obj else copy.deepcopy(event)
        for event, obj in zip(events, as_objects, strict=True)
    ]
    cuts = _cuts(data.draw, len(items))
    stream = STREAMS[format]()
    start = 0
    for cut in [*cuts, len(items)]:
        if data.draw(st.booleans()):
            stream.extend(items[start:cut])
        else:
            for item in items[start:cut]:
                stream.add(item)
        start = cut
        if data.draw(st.booleans()) and stream.response is not None:
            # The partial message is what converting the response rebuilt so far gives
            # (an open Anthropic tool call shows its input text so far beside it).
            partial = CONVERT[format](stream.response).messages
            expected = partial[:1] or [agentmsg.Msg("assistant", [], "assistant")]
            assert without_raw_input(expected[0]) == without_raw_input(stream.msg)

    assert said(CONVERT[format](response)) == said(stream.result())


# -- rejected events ------------------------------------------------------------------------


def _other(format: str) -> dict[str, Any]:
    """An event of another stream of the same format, that fits anywhere in the middle."""
    if format == "openai_chat":
        return {**CHAT_TOOLS_EVENTS[1], "id": "chatcmpl-other"}
    if format == "openai_responses":
        return {**RESPONSES_EVENTS[4], "item_id": "rs_other"}
    if format == "anthropic":
        return ANTHROPIC_EVENTS[0]
    return {**GEMINI_EVENTS[2], "responseId": "another-response"}


#: For each format, (position, the event put there, what the error says) cases.
def _bad_cases() -> list[tuple[str, str, int, dict[str, Any], str]]:
    cases = []
    chat, anthropic, gemini = CHAT_TOOLS_EVENTS, ANTHROPIC_EVENTS, GEMINI_EVENTS
    responses = RESPONSES_EVENTS
    cases += [
        ("openai_chat", "foreign", 3, _other("openai_chat"), r"`events\[3\]\.id`.*first chunk has"),
        (
            "openai_chat",
            "fragment before its start",
            3,
            chat[4],
            r"`events\[3\]\.choices\[0\]\.delta\.tool_calls\[0\]\.id`",
        ),
        (
            "openai_chat",
            "a call skipped",
            3,
            chat[7],
            r"`events\[3\].*\.index` .* is 1: tool call 0 is the next",
        ),
        (
            "openai_chat",
            "after the usage chunk",
            12,
            chat[5],
            r"`events\[12\]`.*ended with its usage chunk",
        ),
        (
            "openai_chat",
            "a response, not a chunk",
            1,
            {**chat[1], "object": "chat.completion"},
            r"`events\[1\]\.object`",
        ),
        (
            "openai_responses",
            "foreign",
            4,
            _other("openai_responses"),
            r"`events\[4\]\.item_id` .* is 'rs_other'",
        ),
        (
            "openai_responses",
            "duplicated",
            4,
            responses[3],
            r"`events\[4\]\.sequence_number` .* is 3: event 3 had come",
        ),
        (
            "openai_responses",
            "out of order",
            4,
            responses[5],
            r"`events\[4\]\.sequence_number` .* is 5: event 4 is the next",
        ),
        (
            "openai_responses",
            "before the start",
            0,
            responses[2],
            r"`events\[0\]\.type` .* starts with response\.created",
        ),
        ("anthropic", "foreign", 3, _other("anthropic"), r"`events\[3\]\.type`.*another stream's"),
        (
            "anthropic",
            "duplicated start",
            2,
            anthropic[1],
            r"`events\[2\]\.index`.*block 0 is still open",
        ),
        (
            "anthropic",
            "duplicated stop",
            7,
            anthropic[6],
            r"`events\[7\]\.index` .* is 0: content block 0 had stopped already",
        ),
        (
            "anthropic",
            "delta out of order",
            1,
            anthropic[3],
            r"`events\[1\]\.index`.*no content block of that index is open",
        ),
        (
            "anthropic",
            "wrong kind of delta",
            8,
            {**anthropic[8], "delta": {"type": "thinking_delta", "thinking": "x"}},
            r"`events\[8\]\.delta\.type`.*block 1 is a text",
        ),
        ("anthropic", "after the end", 21, anthropic[9], r"`events\[21\]\.index`"),
        (
            "anthropic",
            "an error event",
            5,
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
            r"`events\[5\]\.error\.message`.*Overloaded",
        ),
        (
            "gemini",
            "foreign",
            2,
            _other("gemini"),
            r"`events\[2\]\.response_id` .* is 'another-response'",
        ),
        (
            "gemini",
            "text not text",
            2,
            {**gemini[2], "candidates": [{"content": {"role": "model", "parts": [{"text": 5}]}}]},
            r"`events\[2\]\.candidates\[0\]\.content\.parts\[0\]\.text` .* is 5",
        ),
        (
            "gemini",
            "unhashable index",
            2,
            {**gemini[2], "candidates": [{**gemini[2]["candidates"][0], "index": [0]}]},
            r"`events\[2\]\.candidates\[0\]\.index` .* is \[0\]",
        ),
        (
            "gemini",
            "finish reason not text",
            2,
            # A number that is not an enum's (Vertex AI may send the enum's number).
            {**gemini[2], "candidates": [{**gemini[2]["candidates"][0], "finishReason": 5.0}]},
            r"`events\[2\]\.candidates\[0\]\.finish_reason` .* is 5\.0",
        ),
        (
            "openai_chat",
            "content not text",
            2,
            {**chat[2], "choices": [{"index": 0, "delta": {"content": 5}}]},
            r"`events\[2\]\.choices\[0\]\.delta\.content` .* is 5",
        ),
        (
            "openai_chat",
            "unhashable index",
            2,
            {**chat[2], "choices": [{"index": [0], "delta": {"content": "x"}}]},
            r"`events\[2\]\.choices\[0\]\.index` .* is \[0\]",
        ),
        (
            "openai_chat",
            "logprobs not an object",
            2,
            {**chat[2], "choices": [{"index": 0, "delta": {"content": "x"}, "logprobs": 5}]},
            r"`events\[2\]\.choices\[0\]\.logprobs` .* is 5",
        ),
        (
            "openai_chat",
            "tool-call fragment without index or id",
            2,
            {**chat[2], "choices": [{"index": 0, "delta": {"tool_calls": [{"function": {}}]}}]},
            r"`events\[2\]\.choices\[0\]\.delta\.tool_calls\[0\]\.index` .* is None",
        ),
        (
            "anthropic",
            "text not text",
            9,
            {**anthropic[9], "delta": {"type": "text_delta", "text": 5}},
            r"`events\[9\]\.delta\.text` .* is 5",
        ),
        (
            "anthropic",
            "unhashable delta type",
            9,
            {**anthropic[9], "delta": {"type": ["text_delta"], "text": "x"}},
            r"`events\[9\]\.delta\.type`",
        ),
        (
            "openai_responses",
            "delta not text",
            5,
            {**responses[5], "delta": 5},
            r"`events\[5\]\.delta` .* is 5",
        ),
        (
            "openai_responses",
            "unhashable part index",
            5,
            {**responses[5], "summary_index": [0]},
            r"`events\[5\]\.summary_index` .* is \[0\]",
        ),
    ]
    return cases


BAD = _bad_cases()
MAIN_SAMPLE = {
    "openai_chat": "chat_tools",
    "openai_responses": "responses_tools",
    "anthropic": "anthropic_tools",
    "gemini": "gemini_tools",
}


class TestRejectedEvents:
    """Events out of order, duplicated or of another stream raise, naming their index,
    and change nothing."""

    @pytest.mark.parametrize(
        ("format", "what", "position", "bad", "says"), BAD, ids=[f"{c[0]}: {c[1]}" for c in BAD]
    )
    def test_rejected_and_nothing_changes(self, format, what, position, bad, says):
        """The bad event raises a MessageError naming its index; the stream then takes
        the rest of the recording and gives the same result as without it."""
        _, events, response = SAMPLES[MAIN_SAMPLE[format]]
        stream = fed(format, events[:position])
        before = stream.response

        with pytest.raises(MessageError, match=says) as caught:
            stream.add(copy.deepcopy(bad))
        assert caught.value.path.startswith(f"events[{position}]")
        assert before == stream.response
        assert position == stream.count
        stream.extend(events[position:])
        assert said(CONVERT[format](response)) == said(stream.result())

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(position=st.integers(1, len(RESPONSES_EVENTS) - 1), offset=st.integers(-3, 3))
    def test_responses_rejects_any_event_out_of_its_place(self, position, offset):
        """A Responses event anywhere but at its place in the sequence is rejected."""
        other = position + offset
        if offset == 0 or not 0 <= other < len(RESPONSES_EVENTS):
            return
        stream = fed("openai_responses", RESPONSES_EVENTS[:position])
        with pytest.raises(MessageError, match=rf"`events\[{position}\]\.sequence_number`"):
            stream.add(RESPONSES_EVENTS[other])

    def test_not_an_event(self):
        """Something that is neither a dict nor an SDK object is rejected."""
        for cls in STREAMS.values():
            with pytest.raises(MessageError, match=r"`events\[0\]` .* an event is a dict"):
                cls().add("data: {}")

    def test_anthropic_input_that_is_not_json(self):
        """Input JSON pieces that do not make JSON are rejected when their block stops."""
        events = [
            *ANTHROPIC_EVENTS[:13],
            {**ANTHROPIC_EVENTS[13], "delta": {"type": "input_json_delta", "partial_json": '{"ci'}},
        ]
        stream = fed("anthropic", events)
        with pytest.raises(
            MessageError, match=r"`events\[14\]` .*pieces of block 2 do not make JSON"
        ):
            stream.add(ANTHROPIC_EVENTS[15])

    def test_gemini_partial_arguments_are_assembled(self):
        """Function-call arguments streamed in pieces (``partialArgs`` with
        ``willContinue``) make one call whose arguments are the pieces put together."""
        stream = fed("gemini", RECORDED["gemini/shape-partial-args"])

        expected = [{"type": "tool_use", "id": "call_get_weather", "name": "get_weather",
                     "input": {"city": "Lima", "days": 3}}]  # fmt: skip
        assert expected == stream.result().messages[0].content


class TestAIMessageChunk:
    """Adding up AIMessageChunk pieces agrees with the accumulators."""

    def test_chat_chunks_add_up_to_the_stream_result(self):
        """The Chat Completions chunks of a reply with one tool call, each as an
        AIMessageChunk, add up to the text and the tool call the stream gives."""
        events = [event for event in CHAT_TOOLS_EVENTS if not _second_call(event)]
        pieces = []
        for event in events:
            for choice in event["choices"]:
                delta = choice["delta"]
                fragment = (delta.get("tool_calls") or [None])[0]
                call = None
                if fragment is not None:
                    function = fragment["function"]
                    call = {"arguments": function.get("arguments", "")}
                    if "name" in function:
                        call["name"] = function["name"]
                    if "id" in fragment:
                        call["id"] = fragment["id"]
                pieces.append(AIMessageChunk(delta.get("content") or "", call))
        total = sum(pieces[1:], pieces[0])
        stream = fed("openai_chat", events)
        reply = stream.result().messages[0]

        assert reply.get_text_content() == total.content
        expected = next(block for block in reply.content if block["type"] == "tool_use")
        got = next(block for block in total.to_msg().content if block["type"] == "tool_use")
        assert (expected["id"], expected["name"], expected["input"]) == (
            got["id"],
            got["name"],
            got["input"],
        )


class TestAIMessageChunkAnthropic:
    """The same agreement for Anthropic's events."""

    def test_anthropic_events_add_up_to_the_stream_result(self):
        """Text deltas as content and the tool call's start and input pieces as function
        call pieces add up to the text and the call the stream gives."""
        events = ANTHROPIC_EVENTS[:16] + ANTHROPIC_EVENTS[19:]
        pieces = [AIMessageChunk("")]
        for event in events:
            delta = event.get("delta", {})
            block = event.get("content_block", {})
            if delta.get("type") == "text_delta":
                pieces.append(AIMessageChunk(delta["text"]))
            elif delta.get("type") == "input_json_delta":
                pieces.append(AIMessageChunk("", {"arguments": delta["partial_json"]}))
            elif block.get("type") == "tool_use":
                call = {"name": block["name"], "id": block["id"], "arguments": ""}
                pieces.append(AIMessageChunk("", call))
        total = sum(pieces[1:], pieces[0])
        reply = fed("anthropic", events).result().messages[0]
        expected = [b for b in reply.content if b["type"] == "tool_use"]
        got = [b for b in total.to_msg().content if b["type"] == "tool_use"]

        assert reply.get_text_content() == total.content
        assert [(b["id"], b["name"], b["input"]) for b in expected] == [
            (b["id"], b["name"], b["input"]) for b in got
        ]


def _second_call(event: dict[str, Any]) -> bool:
    for choice in event["choices"]:
        for fragment in choice["delta"].get("tool_calls") or []:
            if fragment["index"] == 1:
                return True
    return False


class TestAIMessageChunkPieces:
    """A chunk's function call may leave the name to an earlier piece."""

    def test_a_later_piece_may_leave_out_the_name(self):
        """The pieces of a streamed call add up; the first names the function."""
        first = AIMessageChunk("", {"name": "get_weather", "arguments": '{"city"', "id": "c1"})
        total = first + AIMessageChunk("", {"arguments": ': "Lima"}'})

        assert {
            "name": "get_weather",
            "arguments": '{"city": "Lima"}',
            "id": "c1",
        } == total.function_call

    def test_a_nameless_call_is_no_msg_yet(self):
        """A piece whose call has no name yet cannot become a Msg; an AIMessage needs one."""
        piece = AIMessageChunk("", {"arguments": "{}"})
        with pytest.raises(MessageError, match=r"`function_call` has no `name`"):
            piece.to_msg()
        with pytest.raises(MessageError, match=r"`function_call` has no `name` field"):
            agentmsg.AIMessage("", {"arguments": "{}"})


class TestFormatDetails:
    """What each format's stream does beyond the recorded samples."""

    def test_chat_usage_in_every_chunk(self):
        """A server that reports usage in every chunk (a running total) ends with the last."""
        head = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"}
        events = [
            {**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}],
             "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}},
            {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
             "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}},
            {**head, "choices": [],
             "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}},
        ]  # fmt: skip
        stream = fed("openai_chat", events)

        assert 5 == stream.result().messages[0].metadata["token_usage"]["total_tokens"]
        with pytest.raises(MessageError, match=r"`events\[3\]`.*ended with its usage chunk"):
            stream.add(events[1])

    def test_chat_fragments_that_repeat_id_and_name(self):
        """Fragments that repeat their call's id and name (as some servers send them) are
        taken; a fragment naming another function is not."""
        head = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"}

        def fragment(name, arguments):
            call = {"index": 0, "id": "call_1", "type": "function",
                    "function": {"name": name, "arguments": arguments}}  # fmt: skip
            return {**head, "choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}

        stream = OpenAIChatStream()
        stream.extend([fragment("f", '{"a":'), fragment("f", " 1}")])
        with pytest.raises(MessageError, match=r"`events\[2\].*function\.name` .* is 'g'"):
            stream.add(fragment("g", ""))
        stream.add({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
        assert {"a": 1} == stream.result().messages[0].content[0]["input"]

    def test_chat_other_delta_fields_are_kept(self):
        """A delta field agentmsg has no place for is joined like text and reported lost by
        the conversion, not dropped silently."""
        head = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"}
        events = [
            {**head, "choices": [{"index": 0, "delta": {"reasoning_content": "Think"}}]},
            {**head, "choices": [{"index": 0, "delta": {"reasoning_content": "ing."}}]},
            {
                **head,
                "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": "stop"}],
            },
        ]
        result = fed("openai_chat", events).result()

        assert ["choices[0].message.reasoning_content"] == [loss.path for loss in result.losses]
        assert "Thinking." in str(fed("openai_chat", events).response)

    def test_responses_error_event(self):
        """An ``error`` event raises with the API's message."""
        stream = fed("openai_responses", RESPONSES_EVENTS[:3])
        event = {"type": "error", "sequence_number": 3, "code": "server_error", "message": "Boom"}
        with pytest.raises(MessageError, match=r"`events\[3\]\.message` .* is 'Boom'"):
            stream.add(event)

    def test_responses_other_events_are_checked_for_their_item(self):
        """An event of a kind without text (an annotation) must name an open item."""
        stream = fed("openai_responses", RESPONSES_EVENTS[:17])
        annotation = {
            "type": "response.output_text.annotation.added",
            "sequence_number": 17,
            "output_index": 1,
            "item_id": "msg_other",
            "content_index": 0,
            "annotation_index": 0,
            "annotation": {"type": "url_citation", "url": "https://example.org"},
        }
        with pytest.raises(MessageError, match=r"`events\[17\]\.item_id` .* is 'msg_other'"):
            stream.add(annotation)
        stream.add({**annotation, "item_id": RESPONSES_EVENTS[16]["item_id"]})
        assert 18 == stream.count

    def test_responses_partial_reasoning(self):
        """A reasoning summary shows as a thinking block while it streams."""
        stream = fed("openai_responses", RESPONSES_EVENTS[:6])

        assert [{"type": "thinking", "thinking": "**Planning the lookup**"}] == stream.msg.content

    def test_anthropic_redacted_thinking_and_pings(self):
        """A redacted thinking block comes whole in its start; pings anywhere change nothing."""
        events = [
            ANTHROPIC_EVENTS[0],
            {"type": "ping"},
            {"type": "content_block_start", "index": 0,
             "content_block": {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}},
            {"type": "content_block_stop", "index": 0},
            {"type": "ping"},
            {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
             "usage": {"output_tokens": 5}},
            {"type": "message_stop"},
        ]  # fmt: skip
        response = {**ANTHROPIC_RESPONSE, "content": [events[2]["content_block"]]}
        response["stop_reason"] = "end_turn"
        response["usage"] = {"input_tokens": 472, "output_tokens": 5}

        assert said(agentmsg.from_anthropic(response)) == said(fed("anthropic", events).result())

    def test_gemini_text_after_a_signed_part_starts_a_new_part(self):
        """A thought signature closes its part: the text after it is a part of its own."""
        signed = {"text": "A", "thoughtSignature": "c2ln"}
        events = [
            {"candidates": [{"content": {"role": "model", "parts": [signed]}}]},
            {"candidates": [{"content": {"role": "model", "parts": [{"text": "B"}]}}]},
            {"candidates": [{"content": {"role": "model", "parts": [{"text": "C"}]},
                             "finishReason": "STOP"}]},
        ]  # fmt: skip
        parts = fed("gemini", events).response["candidates"][0]["content"]["parts"]

        assert [{"text": "A", "thought_signature": "c2ln"}, {"text": "BC"}] == parts

    def test_chat_first_chunk_without_choices(self):
        """A first chunk with no choice and empty ids (as Azure OpenAI sends its prompt
        filter results) does not hide the response's id and model."""
        head = {"id": "chatcmpl-9", "object": "chat.completion.chunk", "created": 1, "model": "m"}
        filters = [{"prompt_index": 0, "content_filter_results": {}}]
        events = [
            {"id": "", "object": "", "created": 0, "model": "", "choices": [],
             "prompt_filter_results": filters},
            {**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "A"}}]},
            {**head, "choices": [{"index": 0, "delta": {"content": "B"}, "finish_reason": "stop"}]},
        ]  # fmt: skip
        reply = fed("openai_chat", events).result().messages[0]

        assert ("AB", "chatcmpl-9", "m") == (
            reply.content,
            reply.invocation_id,
            reply.metadata["model"],
        )


# -- recorded streams, as the APIs sent them (tests/fixtures/streams/*/README.md) --------

#: The recordings that are not a reply: the API (or an OpenAI-compatible server) ended
#: the stream with an error, or sent what is not Chat Completions; what the error says.
REFUSED = {
    "openai_chat/pydantic-ai-test_groq_model_web_search_tool_stream-0": (
        r"`events\[1\]\.id`.*first chunk has"
    ),
    "openai_chat/pydantic-ai-test_mistral_model_thinking_part_iter-0": (
        r"`events\[2\]\.choices\[0\]\.delta\.content`.*must be text"
    ),
    "openai_chat/pydantic-ai-test_openrouter_stream_error-0": (
        r"`events\[3\]\.error`.*'Token limit reached'"
    ),
    "openai_chat/pydantic-ai-test_tool_use_failed_error_streaming-0": (
        r"`events\[94\]\.error`.*Tool call validation failed"
    ),
    "openai_chat/pydantic-ai-test_tool_use_failed_error_streaming_with_text-0": (
        r"`events\[85\]\.error`.*Tool choice is required"
    ),
    "openai_chat/vercel-ai-mistral-mistral-reasoning": (
        r"`events\[0\]\.choices\[0\]\.delta\.content`.*must be text"
    ),
    # The legacy Completions API, and Perplexity's closing chat.completion.done object.
    "openai_chat/vercel-ai-openai-openai-completion-text": (
        r"`events\[0\]\.object`.*'text_completion'"
    ),
    "openai_chat/vercel-ai-perplexity-perplexity-citations": (
        r"`events\[7\]\.object`.*'chat\.completion\.done'"
    ),
    "openai_chat/vercel-ai-perplexity-perplexity-text": (
        r"`events\[7\]\.object`.*'chat\.completion\.done'"
    ),
    # Made by hand to test a client's refusal: two streams spliced together.
    "anthropic/vercel-ai-anthropic-duplicate-message-start": (
        r"`events\[1\]\.type`.*a second message_start"
    ),
    "anthropic/vercel-ai-anthropic-spliced-message-start": (
        r"`events\[7\]\.type`.*a second message_start"
    ),
    # A proxy that changes the response id mid-stream; a fixture with events left out.
    "openai_responses/vercel-ai-openai-github-copilot-id-rotation_1": (
        r"`events\[1\]\.response\.id`.*'capture-id-2'"
    ),
    "openai_responses/vercel-ai-openai-openai-phase_1": (
        r"`events\[6\]\.sequence_number`.*41: event 6 is the next"
    ),
    "openai_responses/vercel-ai-openai-openai-error_1": (
        r"`events\[2\]\.message`.*You exceeded your current quota"
    ),
    # Gemini: error bodies (at the start or mid-stream), a blocked prompt, and the
    # Firebase SDKs' test replies that stop before a finish reason or are not Gemini's.
    "gemini/firebase-test-data-googleai-streaming-failure-image-rejected": (
        r"`events\[0\]\.error\.message`.*invalid argument"
    ),
    "gemini/firebase-test-data-vertexai-streaming-failure-api-key": (
        r"`events\[0\]\.error\.message`.*API key not valid"
    ),
    "gemini/firebase-test-data-vertexai-streaming-failure-http-error": (
        r"`events\[0\]\.error\.message`.*the API ended the stream with an error"
    ),
    "gemini/firebase-test-data-vertexai-streaming-failure-unknown-model": (
        r"`events\[0\]\.error\.message`.*models/unknown is not found"
    ),
    "gemini/firebase-test-data-vertexai-streaming-failure-error-mid-stream": (
        r"`events\[2\]\.error\.message`.*The operation was cancelled"
    ),
    "gemini/firebase-test-data-googleai-streaming-failure-prompt-blocked-safety": (
        r"`prompt_feedback\.block_reason` is 'SAFETY': Gemini blocked the prompt"
    ),
    "gemini/firebase-test-data-vertexai-streaming-failure-prompt-blocked-safety-with-message": (
        r"`prompt_feedback\.block_reason` is 'SAFETY'.*\('Reasons'\)"
    ),
    "gemini/firebase-test-data-vertexai-streaming-failure-invalid-json": (
        r"`events\[0\]` .*it is not a Gemini response piece"
    ),
    "gemini/firebase-test-data-vertexai-streaming-failure-empty-content": (
        r"Gemini stream has not ended: 1 event came"
    ),
    "gemini/firebase-test-data-vertexai-streaming-failure-malformed-content": (
        r"Gemini stream has not ended: 1 event came"
    ),
    "gemini/firebase-test-data-vertexai-streaming-success-quotes-escaped": (
        r"Gemini stream has not ended: 4 events came"
    ),
}
#: The recordings that end with a reply.
REPLAYED = [key for key in sorted(RECORDED) if key not in REFUSED]


class TestRecordedFixtures:
    """Every recorded stream gives its reply, or a clear MessageError when the API
    itself ended it with an error."""

    @pytest.mark.parametrize("key", corpus_params(sorted(RECORDED)))
    def test_the_events_are_left_as_they_came(self, key):
        """Fed event by event, with the partial Msg and the response read after each,
        a stream changes none of the events it is given (a web search's citations grew
        the list of the event that started their block)."""
        events = RECORDED[key]
        sent = copy.deepcopy(events)
        stream = STREAMS[key.split("/")[0]]()
        with contextlib.suppress(MessageError):
            for event in events:
                stream.add(event)
                stream.msg  # noqa: B018
                stream.response  # noqa: B018

        assert sent == events

    def test_the_corpus_is_there(self):
        """The corpus holds scores of recordings of each API."""
        counts = {name: sum(key.startswith(name + "/") for key in RECORDED) for name in STREAMS}
        least = {"openai_chat": 80, "openai_responses": 90, "anthropic": 75, "gemini": 80}
        assert {name: True for name in STREAMS} == {
            name: counts[name] >= least[name] for name in STREAMS
        }

    @pytest.mark.parametrize("key", corpus_params(sorted(RECORDED)))
    def test_replays_to_a_msg_or_a_clear_error(self, key):
        """Fed event by event, with the partial Msg read after each one (it never raises),
        the recording ends with a reply Msg, or with the MessageError it deserves."""
        format = key.split("/")[0]
        stream = STREAMS[format]()
        outcome: Any = None
        try:
            for event in RECORDED[key]:
                stream.add(event)
                partial = stream.msg
                assert partial is None or isinstance(partial, agentmsg.Msg)
            parsed = stream.result()
            outcome = [msg.role for msg in parsed.messages][:1]
        except MessageError as error:
            outcome = str(error)
        if key in REFUSED:
            assert isinstance(outcome, str)
            assert re.search(REFUSED[key], outcome), outcome
        else:
            assert ["assistant"] == outcome

    @pytest.mark.parametrize("key", corpus_params(REPLAYED))
    def test_sdk_objects_same_as_dicts(self, key):
        """Fed as the SDK's own event objects (parsed from the recording as the SDK
        parses the wire), a recording gives what its dicts give, whenever the installed
        SDK takes every event (it refuses event types newer than itself)."""
        format = key.split("/")[0]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # google-genai warns of unknown enum values
                objects = [sdk_event(format, event) for event in RECORDED[key]]
        # pydantic's ValidationError is a ValueError; google-genai raises AttributeError
        # on an enum sent as a number.
        except (ValueError, AssertionError, AttributeError) as error:
            pytest.skip(f"the SDK does not take this recording: {type(error).__name__}")
        from_objects = fed(format, [item for item in objects if item is not None]).result()

        assert unordered(said(fed(format, RECORDED[key]).result())) == unordered(said(from_objects))

    @pytest.mark.parametrize(
        "key", corpus_params(key for key in sorted(RECORDED) if key.startswith("openai_chat/"))
    )
    def test_chat_same_as_the_sdk(self, key):
        """A recording gives what converting the OpenAI SDK's own accumulated completion
        gives (the SDK keeps each call's stream ``index``, which the unstreamed
        completion has not), whenever the SDK takes the recording: it refuses those of
        servers that stray from the API (no ``object``, a Mistral ``content`` list)."""
        from openai.lib.streaming.chat._completions import ChatCompletionStreamState
        from openai.types.chat import ChatCompletionChunk

        try:
            state = ChatCompletionStreamState()
            for event in RECORDED[key]:
                state.handle_chunk(ChatCompletionChunk.model_validate(event))
            snapshot = state.current_completion_snapshot
            completion = snapshot.model_dump(mode="json", exclude_none=True)
            for choice in completion["choices"]:
                for call in choice["message"].get("tool_calls") or []:
                    call.pop("index", None)
            # The SDK keeps the first chunk's x_groq; Groq's usage comes in the last one's.
            groq = [event["x_groq"] for event in RECORDED[key] if "x_groq" in event]
            if groq:
                completion["x_groq"] = groq[-1]
            sdk = agentmsg.from_openai_chat(completion)
        except (ValueError, RuntimeError) as error:  # pydantic's ValidationError is one
            pytest.skip(f"the SDK does not take this recording: {type(error).__name__}")
        ours = fed("openai_chat", RECORDED[key]).result()
        if key.endswith("moderation_stream-0"):
            # The SDK takes the usage of the last chunk, the moderation one, which has
            # none: agentmsg keeps the usage the chunk before brought.
            assert 24 == ours.messages[0].metadata["token_usage"]["total_tokens"]
            assert "token_usage" not in sdk.messages[0].metadata
            return
        assert unordered(said(sdk)) == unordered(said(ours))

    @pytest.mark.parametrize(
        "key",
        corpus_params(
            key for key in sorted(RECORDED) if key.startswith("anthropic/") and key not in REFUSED
        ),
    )
    def test_anthropic_same_as_the_sdk(self, key):
        """Each Anthropic recording gives what converting the SDK's own accumulated
        message gives; a tool input cut short (which the SDK parses as far as it goes)
        is reported instead."""
        from anthropic.lib.streaming import _messages

        # The SDK builds its own event objects from the JSON, as it does off the wire
        # (loosely: block types newer than the installed SDK are kept).
        parameters = inspect.signature(_messages.accumulate_event).parameters
        extra = {"json_bufs": {}} if "json_bufs" in parameters else {}
        snapshot = None
        for event in RECORDED[key]:
            if event["type"] != "ping":
                snapshot = _messages.accumulate_event(
                    event=copy.deepcopy(event), current_snapshot=snapshot, **extra
                )
        dumped = snapshot.model_dump(mode="json", exclude_none=True, warnings=False)
        sdk = agentmsg.from_anthropic(dumped)
        ours = fed("anthropic", RECORDED[key]).result()
        cut = [loss.path for loss in ours.losses if loss.what == "cut tool input"]
        if key.endswith("incomplete_partial_json_response"):
            assert ["content[1].input"] == cut
        else:
            # The losses in any order: the SDK's usage model orders its counts its way.
            assert unordered(said(sdk)) == unordered(said(ours))


def unordered(said: tuple[Any, ...]) -> tuple[Any, ...]:
    """What a conversion says, its losses sorted."""
    return said[0], sorted(said[1])


def _events_of(format: str) -> list[list[dict[str, Any]]]:
    return [events for key, events in RECORDED.items() if key.startswith(format + "/")]


FOREIGN_EVENTS = {
    "openai_chat": RECORDED["openai_chat/openai-python-2018feb66ae1"][1],
    "openai_responses": RECORDED["openai_responses/shape-no-sequence-number"][3],
    "anthropic": {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "text_delta", "text": "x"},
    },
    "gemini": RECORDED["gemini/shape-finish-every-piece"][0],
}


class TestForeignEvents:
    """An event of another API is refused with a MessageError naming its index."""

    @pytest.mark.parametrize(
        ("format", "other"),
        [
            (format, other)
            for format in sorted(STREAMS)
            for other in sorted(STREAMS)
            if format != other
        ],
    )
    def test_refused(self, format, other):
        """After the first event of a recording, each other API's event is refused."""
        first = next(
            key for key in sorted(RECORDED) if key.startswith(format + "/") and key not in REFUSED
        )
        stream = fed(format, RECORDED[first][:1])
        with pytest.raises(MessageError, match=r"`events\[1\]"):
            stream.add(FOREIGN_EVENTS[other])


JUNK = [5, "x", [], None, {"index": []}, {"type": []}, {"choices": [{"index": [1]}]}]


@st.composite
def _mangled(draw: Any) -> tuple[str, list[Any]]:
    """A recording cut, with events reordered, duplicated, or taken from another API."""
    format = draw(st.sampled_from(sorted(STREAMS)))
    events = list(draw(st.sampled_from(_events_of(format))))
    for _ in range(draw(st.integers(0, 4))):
        if not events:
            break
        action = draw(st.sampled_from(["cut", "swap", "repeat", "foreign", "junk"]))
        at = draw(st.integers(0, len(events) - 1))
        if action == "cut":
            events = events[:at]
        elif action == "swap":
            other = draw(st.integers(0, len(events) - 1))
            events[at], events[other] = events[other], events[at]
        elif action == "repeat":
            events.insert(at, events[at])
        elif action == "foreign":
            events.insert(at, FOREIGN_EVENTS[draw(st.sampled_from(sorted(STREAMS)))])
        else:
            events.insert(at, draw(st.sampled_from(JUNK)))
    return format, events


class TestMangledStreams:
    """Cut, reordered, duplicated and foreign events never escape as another exception,
    and the partial Msg never raises."""

    @given(_mangled())
    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    def test_only_message_errors(self, case):
        """Each event is taken or refused with a MessageError; the partial Msg is always
        there to read, and the result is a Parsed or a MessageError."""
        format, events = case
        stream = STREAMS[format]()
        for event in events:
            with contextlib.suppress(MessageError):
                stream.add(copy.deepcopy(event))
            partial = stream.msg
            assert partial is None or isinstance(partial, agentmsg.Msg)
        try:
            outcome: Any = type(stream.result())
        except MessageError:
            outcome = MessageError
        assert outcome in (agentmsg.Parsed, MessageError)


def replayed(key: str) -> Any:
    """The stream of recording *key*, fed whole."""
    return fed(key.split("/")[0], RECORDED[key])


class TestStreamsAsRecorded:
    """The classes of real streams issue 19 lists, each from a recording or a shape."""

    def test_chat_audio_without_choices_or_finish(self):
        """An audio stream (chunks without choices, usage-only chunks, no finish reason)
        ends with its usage chunk; the audio's id, repeated in every piece, is kept once."""
        stream = replayed("openai_chat/shape-audio-no-finish")
        audio = stream.response["choices"][0]["message"]["audio"]

        expected = {"id": "audio_1", "transcript": "Hello.", "data": "UklGRiQA"}
        assert expected == {key: audio[key] for key in expected}
        assert [("choices[0].message.audio", "audio reply")] == [
            (loss.path, loss.what) for loss in stream.result().losses if "audio" in loss.path
        ]

    def test_chat_usage_chunk_without_finish_reason(self):
        """A server that never sends a finish reason (OpenRouter's Novita) ends with a
        chunk that brings the usage and no piece: the reply is its Msg, with the usage."""
        parsed = replayed("openai_chat/llm-test_tools_streaming_variant_a-0").result()
        (msg,) = parsed.messages

        assert (["tool_use"], 74) == (
            [block["type"] for block in msg.content],
            msg.metadata["token_usage"]["total_tokens"],
        )

    def test_chat_usage_chunk_mid_stream_does_not_end_it(self):
        """A chunk with usage and no piece ends the reply only if nothing follows it."""
        events = RECORDED["openai_chat/llm-test_tools_streaming_variant_a-0"]
        stream = fed("openai_chat", [*events[:1], events[-1], *events[1:]])

        assert (["tool_use"], 74) == (
            [block["type"] for block in stream.result().messages[0].content],
            stream.result().messages[0].metadata["token_usage"]["total_tokens"],
        )

    def test_chat_groq_usage_in_x_groq(self):
        """Groq's streams bring the usage in the last chunk's ``x_groq``: it is the
        reply's usage, its extra times reported, as when Groq sends ``usage``."""
        parsed = replayed("openai_chat/pydantic-ai-test_groq_model_thinking_part_iter-0").result()

        assert (True, True) == (
            parsed.messages[0].metadata["token_usage"]["total_tokens"] > 0,
            "x_groq.usage.queue_time" in [loss.path for loss in parsed.losses],
        )

    def test_azure_first_chunk(self):
        """Azure's first chunk (empty id and choices) gives an empty partial Msg, and the
        stream then takes the reply."""
        events = RECORDED["openai_chat/shape-azure-empty-first-chunk"]
        stream = fed("openai_chat", events[:1])

        assert [] == stream.msg.content
        stream.extend(events[1:])
        assert ("Hi", "chatcmpl-az1") == (
            stream.msg.get_text_content(),
            stream.result().messages[0].invocation_id,
        )

    def test_unknown_delta_is_carried(self):
        """Anthropic's compaction_delta grows its block, which the conversion reports."""
        stream = replayed("anthropic/anthropic-sdk-compaction_response")

        assert "Earlier conversation summarized." == stream.response["content"][0]["content"]
        assert ["content[0]"] == [loss.path for loss in stream.result().losses]

    def test_unknown_event_is_reported(self):
        """An Anthropic event type agentmsg does not know is passed over and reported."""
        events = RECORDED["anthropic/anthropic-sdk-basic_response"]
        stream = fed("anthropic", [*events[:2], {"type": "thread_note", "note": "x"}, *events[2:]])

        losses = [(loss.path, loss.what) for loss in stream.result().losses]
        assert [("events[2]", "'thread_note' event")] == losses

    def test_cut_tool_input(self):
        """A reply stopped by max_tokens inside a tool input (no content_block_stop)
        gives its Msg, the call's input empty and the partial input reported."""
        parsed = replayed("anthropic/anthropic-sdk-incomplete_partial_json_response").result()
        call = parsed.messages[0].content[1]
        (loss,) = [loss for loss in parsed.losses if loss.what == "cut tool input"]

        assert ("tool_use", {}) == (call["type"], call["input"])
        assert ("content[1].input", True) == (loss.path, "taxes.txt" in loss.why)

    def test_cut_tool_input_strict(self):
        """In strict mode the cut input raises, naming where it was."""
        stream = replayed("anthropic/anthropic-sdk-incomplete_partial_json_response")
        with pytest.raises(MessageError, match=r"`content\[1\]\.input`: cut tool input"):
            stream.result(strict=True)

    def test_gemini_finish_on_every_piece(self):
        """A finish reason on every piece: the pieces after it still count."""
        parsed = replayed("gemini/shape-finish-every-piece").result()

        assert "Sunny." == parsed.messages[0].get_text_content()

    def test_gemini_finish_reason_as_a_number(self):
        """Vertex AI's REST client asks for enums as numbers (``enum-encoding=int``): a
        finish reason both APIs number alike is read as its name."""
        key = "gemini/openinference-test_instrumentor-test_gemini_token_counts_streaming-0"
        parsed = replayed(key).result()

        assert ("STOP", 1) == (
            parsed.messages[0].metadata["stop_reason"],
            RECORDED[key][0]["candidates"][0]["finishReason"],
        )

    @pytest.mark.parametrize("number", [6, 9, -1])
    def test_gemini_finish_reason_numbered_apart(self, number):
        """A finish reason number past those the two APIs share is reported, not read."""
        key = "gemini/openinference-test_instrumentor-test_gemini_token_counts_streaming-0"
        event = copy.deepcopy(RECORDED[key][0])
        event["candidates"][0]["finishReason"] = number
        parsed = fed("gemini", [event]).result()

        assert (None, [("candidates[0].finish_reason", "finish reason number")]) == (
            parsed.messages[0].metadata.get("stop_reason"),
            [(loss.path, loss.what) for loss in parsed.losses if "finish" in loss.path],
        )

    def test_responses_resumed(self):
        """A stream resumed with starting_after begins at response.queued or
        response.in_progress, not response.created."""
        key = "openai_responses/pydantic-ai-test_background_mode_streaming_starting_after_vcr-1"
        assert "response.queued" == RECORDED[key][0]["type"]
        assert "assistant" == replayed(key).result().messages[0].role

    def test_responses_without_sequence_number(self):
        """Events without sequence_number (the API reference's example) are taken."""
        parsed = replayed("openai_responses/shape-no-sequence-number").result()

        assert "Hi" == parsed.messages[0].get_text_content()

    def test_responses_error_message(self):
        """The nested message of an error event reaches the MessageError."""
        events = RECORDED["openai_responses/shape-no-sequence-number"]
        stream = fed("openai_responses", events[:2])
        error = {"type": "error", "error": {"type": "server_error", "message": "It broke."}}
        with pytest.raises(MessageError, match=r"`events\[2\]\.message` .* 'It broke\.'"):
            stream.add(error)


class TestNothingVanishes:
    """What a reply holds and agentmsg cannot carry is reported, from a stream as from
    the unstreamed response."""

    @pytest.mark.parametrize(
        ("key", "path"),
        [
            ("anthropic/pydantic-ai-test_anthropic_code_execution_tool_stream-0", "container"),
            ("anthropic/anthropic-sdk-refusal_response", "stop_details"),
            ("openai_chat/openllmetry-test_azure-test_chat_streaming-0", "prompt_filter_results"),
            ("openai_chat/pydantic-ai-test_openai_moderation_stream-0", "moderation"),
            (
                "openai_chat/openllmetry-test_azure-test_chat_streaming-0",
                "choices[0].content_filter_results",
            ),
            ("gemini/shape-finish-every-piece", "candidates[0].finish_message"),
            ("gemini/generative-ai-js-streaming-success-basic-reply-short", "prompt_feedback"),
            (
                "gemini/generative-ai-js-streaming-success-basic-reply-short",
                "candidates[0].safety_ratings",
            ),
            (
                "openai_chat/pydantic-ai-test_deepseek_model_thinking_stream-0",
                "usage.completion_tokens_details",
            ),
            (
                "openai_responses/pydantic-ai-test_deepseek_responses_function_tool_stream_-0",
                "usage.output_tokens_details",
            ),
            (
                "gemini/pydantic-ai-test_code_execution_stream-0",
                "usage_metadata.tool_use_prompt_token_count",
            ),
        ],
    )
    def test_reported(self, key, path):
        """The field is reported dropped, by the stream and by the response's conversion."""
        stream = replayed(key)
        format = key.split("/")[0]

        from_stream = [loss.path for loss in stream.result().losses]
        from_response = [loss.path for loss in CONVERT[format](stream.response).losses]
        assert (True, True) == (path in from_stream, path in from_response)

    def test_chat_reply_stopped_by_the_content_filter(self):
        """Azure OpenAI's reply stopped by its content filter (a choice with no message)
        gives an empty Msg with its stop reason and usage, the filter results reported."""
        filtered = {"hate": {"filtered": True, "severity": "high"}}
        response = {
            "id": "chatcmpl-9", "object": "chat.completion", "created": 1, "model": "gpt-4o",
            "choices": [{"index": 0, "finish_reason": "content_filter", "logprobs": None,
                         "content_filter_results": filtered}],
            "usage": {"prompt_tokens": 15, "completion_tokens": 19, "total_tokens": 34},
        }  # fmt: skip
        parsed = agentmsg.from_openai_chat(response)
        (msg,) = parsed.messages

        assert ([], "content_filter", 34, "chatcmpl-9") == (
            msg.content,
            msg.metadata["stop_reason"],
            msg.metadata["token_usage"]["total_tokens"],
            msg.invocation_id,
        )
        assert [("choices[0].content_filter_results", "content filter results")] == [
            (loss.path, loss.what) for loss in parsed.losses
        ]

    def test_chat_perplexity_sources(self):
        """Perplexity's sources (citations, search results beside the choices) are
        reported by the conversion of its response."""
        response = {
            "id": "c", "object": "chat.completion", "created": 1, "model": "sonar",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "About 800,000."}}],
            "citations": ["https://example.com/a"],
            "search_results": [{"title": "A", "url": "https://example.com/a"}],
        }  # fmt: skip

        assert [("citations", "citations"), ("search_results", "search results")] == [
            (loss.path, loss.what) for loss in agentmsg.from_openai_chat(response).losses
        ]

    def test_responses_failed_response_error(self):
        """A failed response's error (the API reference's ``error`` object) is reported
        beside its stop reason, not lost."""
        response = {
            "id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-5",
            "status": "failed", "output": [],
            "error": {"code": "server_error", "message": "The server had an error."},
        }  # fmt: skip
        parsed = agentmsg.from_openai_responses(response)

        assert ("failed", [("error", "error of a failed response")]) == (
            parsed.messages[0].metadata["stop_reason"],
            [(loss.path, loss.what) for loss in parsed.losses],
        )

    def test_every_item_dropped(self):
        """A reply whose only item is dropped still gives its Msg: id, usage and stop
        reason, with the loss."""
        key = "openai_responses/pydantic-ai-test_openai_client_tool_search_streaming-0"
        parsed = replayed(key).result()
        (msg,) = parsed.messages

        assert ([], "completed", 270) == (
            msg.content,
            msg.metadata["stop_reason"],
            msg.metadata["token_usage"]["total_tokens"],
        )
        assert msg.invocation_id.startswith("resp_")
        assert ["output[0]"] == [loss.path for loss in parsed.losses]


class TestErrorBodies:
    """An API's error body (a failed call's answer) is refused naming its message."""

    @pytest.mark.parametrize(
        ("format", "body"),
        [
            # The shapes of error bodies recorded in Mirascope's and openllmetry's cassettes.
            ("anthropic", {"type": "error", "request_id": "req_1",
                           "error": {"type": "authentication_error",
                                     "message": "invalid x-api-key"}}),
            ("openai_chat", {"error": {"message": "invalid x-api-key", "type": None,
                                       "param": None, "code": "invalid_api_key"}}),
            ("openai_responses", {"error": {"message": "invalid x-api-key",
                                            "type": "invalid_request_error",
                                            "param": None, "code": None}}),
            ("gemini", {"error": {"code": 400, "message": "invalid x-api-key",
                                  "status": "INVALID_ARGUMENT"}}),
        ],
    )  # fmt: skip
    def test_refused_with_its_message(self, format, body):
        """The MessageError quotes the error's message and says the API answered so."""
        with pytest.raises(MessageError, match=r"`error\.message` is 'invalid x-api-key': the "):
            CONVERT[format](body)


class TestLogProbabilities:
    """Log probabilities of every chunk are merged into one list, the chunks untouched."""

    def test_merged(self):
        """A long stream's log probabilities hold one entry per token, in order; the
        events' own lists are not changed."""
        events = RECORDED["openai_chat/openai-python-83b060bae42e"]
        long = [events[0], *[copy.deepcopy(events[1 + n % 2]) for n in range(50)], *events[3:]]
        before = copy.deepcopy(long)
        stream = fed("openai_chat", long)

        tokens = [entry["token"] for entry in stream.response["choices"][0]["logprobs"]["content"]]
        assert (["Foo", "!"] * 25, before) == (tokens, long)


class TestPartialMsg:
    """The partial Msg, read after the last event, is the result's reply."""

    @pytest.mark.parametrize("key", corpus_params(REPLAYED))
    def test_last_partial_is_the_result(self, key):
        """Read after every event and once more at the end, the partial Msg says what the
        result's Msg says (content, metadata, invocation id)."""
        format = key.split("/")[0]
        stream = STREAMS[format]()
        for event in RECORDED[key]:
            stream.add(event)
            stream.msg  # noqa: B018  # read as a display would, event by event
        (expected, *_) = stream.result().messages

        assert without_raw_input(expected) == without_raw_input(stream.msg)

    @pytest.mark.parametrize("key", corpus_params(REPLAYED))
    def test_every_partial_is_the_conversion(self, key):
        """After each event the partial Msg (built a part at a time) says what converting
        the response rebuilt so far says."""
        format = key.split("/")[0]
        stream = STREAMS[format]()
        for event in RECORDED[key]:
            stream.add(event)
            partial = stream.msg
            try:
                messages = CONVERT[format](stream.response).messages
            except MessageError:
                continue  # a response half come that its conversion refuses
            assert without_raw_input(messages[-1]) == without_raw_input(partial)


def _block(number: int) -> dict[str, Any]:
    return {"type": "content_block_start", "index": number, "content_block": {"type": "text"}}


def _item(number: int, sequence: int, kind: str = "added") -> dict[str, Any]:
    item = {"type": "message", "id": f"i{number}", "role": "assistant", "content": []}
    return {
        "type": f"response.output_item.{kind}",
        "sequence_number": sequence,
        "output_index": number,
        "item": item,
    }


class TestPartsOutOfOrder:
    """A part that starts twice, or before the parts ahead of it, is refused in words."""

    def test_anthropic_block_started_twice(self):
        """A second start of content block 0 is a duplicated event."""
        events = [ANTHROPIC_START, _block(0), {"type": "content_block_stop", "index": 0}]
        expected = (
            "`events[3].index` of the Anthropic stream is 0: content block 0 had started "
            "already: a duplicated event."
        )
        assert expected == rejected(AnthropicStream(), [*events, _block(0)])

    def test_anthropic_block_out_of_order(self):
        """Content block 3 cannot start before block 0."""
        expected = (
            "`events[1].index` of the Anthropic stream is 3: the next content block is number 0."
        )
        assert expected == rejected(AnthropicStream(), [ANTHROPIC_START, _block(3)])

    def test_responses_item_added_twice(self):
        """A second output_item.added for item 0 is a duplicated event."""
        events = [RESPONSES_START, _item(0, 1), _item(0, 2, "done"), _item(0, 3)]
        expected = (
            "`events[3].output_index` of the Responses stream is 0: output item 0 was added "
            "already: a duplicated event."
        )
        assert expected == rejected(OpenAIResponsesStream(), events)

    def test_responses_item_out_of_order(self):
        """Output item 5 cannot be added before item 0."""
        expected = (
            "`events[1].output_index` of the Responses stream is 5: the next output item is "
            "number 0."
        )
        assert expected == rejected(OpenAIResponsesStream(), [RESPONSES_START, _item(5, 1)])


# -- the partial Msg built a part at a time against the long way -------------------------


def from_scratch(stream: Any) -> agentmsg.Msg | None:
    """The partial message made the long way, as ``Stream.msg`` makes it without its
    quick ways: the response rebuilt so far, converted whole (None before it starts)."""
    snapshot = stream.response
    if snapshot is None:
        return None
    try:
        messages = stream._convert(snapshot, False).messages
    except MessageError:
        messages = []  # a reply half come that the conversion refuses: nothing yet
    if not messages:
        return agentmsg.Msg("assistant", [], "assistant")
    return stream._shown(messages[0])


def says(msg: agentmsg.Msg | None) -> tuple[Any, ...] | None:
    """What a partial message says, without the id and time each Msg makes up."""
    if msg is None:
        return None
    return msg.name, msg.role, msg.content, msg.metadata, msg.invocation_id


def read_along(format: str, events: list[dict[str, Any]], reads: list[bool]) -> list[Any]:
    """Feed *events*, reading the partial message after those *reads* marks (repeated
    over the events); after each read, the two ways: [(quick, long), ...]."""
    stream = STREAMS[format]()
    pairs = []
    for number, event in enumerate(events):
        stream.add(event)
        if reads[number % len(reads)]:
            pairs.append((says(stream.msg), says(from_scratch(stream))))
    return pairs


class TestPartialMsgBuiltAlong:
    """The partial Msg that an accumulator builds a part at a time (its text grown in
    place, the blocks of closed parts kept) says what converting the whole response
    rebuilt so far says, after any event, however often it was read before."""

    @settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(stream=generated_streams.streams(), reads=st.lists(st.booleans(), min_size=1))
    def test_generated_streams(self, stream, reads):
        """Made-up replies of thinking, text and tool calls cut into random pieces, in
        each API's stream (with log probabilities, pings, either spelling of Gemini's
        keys): every read agrees with the conversion."""
        format, events = stream
        pairs = read_along(format, events, reads)

        assert [long for _, long in pairs] == [quick for quick, _ in pairs]

    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def test_recorded_streams(self, data):
        """The recorded streams, read after a random choice of events: every read
        agrees with the conversion."""
        key = data.draw(st.sampled_from(REPLAYED))
        reads = data.draw(st.lists(st.booleans(), min_size=1, max_size=7))
        pairs = read_along(key.split("/")[0], RECORDED[key], reads)

        assert [long for _, long in pairs] == [quick for quick, _ in pairs]

    @pytest.mark.parametrize("key", corpus_params(REPLAYED))
    def test_every_event_of_every_recording(self, key):
        """Read after every event of every recorded stream, the partial message agrees
        with the conversion each time."""
        pairs = read_along(key.split("/")[0], RECORDED[key], [True])

        assert [long for _, long in pairs] == [quick for quick, _ in pairs]

    @pytest.mark.parametrize("format", sorted(STREAMS))
    def test_kept_partials_do_not_change(self, format):
        """Partial messages the caller keeps, first looked into at the end, say what
        converting the response said when each was read: later events change none of
        them (though the next one's text grows in place when nothing holds it)."""
        events = generated_streams.EXAMPLES[format]
        stream = STREAMS[format]()
        kept, said_then = [], []
        for event in events:
            stream.add(event)
            kept.append(stream.msg)
            said_then.append(says(from_scratch(stream)))

        assert said_then == [says(msg) for msg in kept]


class TestGeminiAsRecorded:
    """The shapes of Gemini's replies that the Firebase SDKs' recordings hold."""

    def test_content_without_role_is_the_model(self):
        """A candidate whose content names no role (Vertex AI leaves it out) is the
        model's reply, streamed or not."""
        key = "gemini/firebase-test-data-vertexai-streaming-failure-unknown-finish-enum"
        (piece, *_) = RECORDED[key]
        roles = (
            agentmsg.from_gemini(piece).messages[0].role,
            replayed(key).result().messages[0].role,
        )
        assert (False, ("assistant", "assistant")) == (
            "role" in piece["candidates"][0]["content"],
            roles,
        )

    def test_candidate_stopped_without_content(self):
        """A candidate stopped for safety without content gives an empty reply with its
        stop reason, not a refusal."""
        response = {"candidates": [{"finishReason": "SAFETY", "index": 0}], "responseId": "r"}
        (msg,) = agentmsg.from_gemini(response).messages

        assert ("assistant", [], "SAFETY", "r") == (
            msg.role,
            msg.content,
            msg.metadata["stop_reason"],
            msg.invocation_id,
        )

    def test_blocked_prompt_ends_the_stream(self):
        """A blocked prompt's one piece (prompt feedback, no candidates) ends the stream;
        the result names the block reason and its message, the partial Msg is empty."""
        key = "gemini/firebase-test-data-vertexai-streaming-failure-prompt-blocked-safety-with-message"  # noqa: E501
        stream = replayed(key)

        assert (True, []) == (stream.done, stream.msg.content)
        expected = (
            "`prompt_feedback.block_reason` is 'SAFETY': Gemini blocked the prompt, and the "
            "response holds no reply ('Reasons')."
        )
        with pytest.raises(MessageError) as raised:
            stream.result()
        assert expected == str(raised.value)

    def test_blocked_prompt_unstreamed(self):
        """The unstreamed response of a blocked prompt is refused in the same words."""
        response = {"promptFeedback": {"blockReason": "OTHER"}, "candidates": []}
        with pytest.raises(MessageError, match=r"^`prompt_feedback\.block_reason` is 'OTHER'"):
            agentmsg.from_gemini(response)


class TestGeminiRunningUsage:
    """Gemini sends the usage so far on every piece; a piece whose usage differs from the
    last one's only in its counts takes the quick way, anything else is checked whole."""

    def pieces(self, second_usage: Any) -> list[dict[str, Any]]:
        def piece(text: str, usage: Any) -> dict[str, Any]:
            content = {"parts": [{"text": text}], "role": "model"}
            return {
                "candidates": [{"content": content, "index": 0}],
                "usageMetadata": usage,
                "modelVersion": "gemini-2.5-flash",
                "responseId": "r1",
            }

        details = [{"modality": "TEXT", "tokenCount": 3}]
        first = {"promptTokenCount": 3, "candidatesTokenCount": 1, "promptTokensDetails": details}
        return [piece("Hel", first), piece("lo", second_usage)]

    def test_grown_counts_are_kept(self):
        """The counts of the last piece are the reply's usage."""
        details = [{"modality": "TEXT", "tokenCount": 3}]
        usage = {"promptTokenCount": 3, "candidatesTokenCount": 2, "promptTokensDetails": details}
        stream = agentmsg.GeminiStream()
        stream.extend(self.pieces(usage))

        assert ("Hello", usage) == (
            stream.msg.get_text_content(),
            stream.response["usage_metadata"],
        )

    @pytest.mark.parametrize(
        ("usage", "field"),
        [
            (
                {
                    "promptTokenCount": 3,
                    "candidatesTokenCount": 10**5000,
                    "promptTokensDetails": [],
                },
                "events[1].usage_metadata.candidatesTokenCount",
            ),
            (
                {
                    "promptTokenCount": 3,
                    "candidatesTokenCount": 2,
                    "promptTokensDetails": ["\ud800"],
                },
                "events[1].usage_metadata.promptTokensDetails[0]",
            ),
            (
                {"promptTokenCount": 3, "candidatesTokenCount": float("nan"), "extra": 1},
                "events[1].usage_metadata.candidatesTokenCount",
            ),
        ],
    )
    def test_what_no_message_can_hold_is_refused_at_its_piece(self, usage, field):
        """A count too long to write, a lone surrogate in the details or a NaN count is
        refused at the piece that brings it, naming the field."""
        stream = agentmsg.GeminiStream()
        stream.add(self.pieces(usage)[0])
        with pytest.raises(MessageError) as raised:
            stream.add(self.pieces(usage)[1])

        assert field == raised.value.path
