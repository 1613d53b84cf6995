"""The quick way of the Chat Completions and Gemini streams: a chunk that repeats the
last one but for its piece is compared whole with it, so that a field beside the piece
that differs, or holds what no message can hold, still goes through the full check."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import generated_streams
from agentmsg import GeminiStream, MessageError, OpenAIChatStream
from message_strategies import hostile_values


def chat_chunk(text: str, **fields: Any) -> dict[str, Any]:
    """A Chat Completions chunk of one text piece, its envelope overridden by *fields*."""
    choice = {"index": 0, "delta": {"content": text}, "logprobs": None, "finish_reason": None}
    chunk = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-4.1",
        "system_fingerprint": "fp_1",
        "choices": [choice],
    }
    return {**chunk, **fields}


def gemini_piece(text: str, usage: dict[str, Any], index: Any = 0) -> dict[str, Any]:
    """A Gemini piece of one text part with its running usage."""
    content = {"parts": [{"text": text}], "role": "model"}
    return {
        "candidates": [{"content": content, "index": index}],
        "usageMetadata": usage,
        "modelVersion": "gemini-2.5-flash",
        "responseId": "r1",
    }


class FullWayChat(OpenAIChatStream):
    """The Chat Completions stream without its quick way: every chunk is checked whole."""

    __slots__ = ()

    def _take(self, event: dict[str, Any], index: int) -> None:
        self._quick = None
        super()._take(event, index)


def taken(stream: OpenAIChatStream, events: list[Any]) -> list[Any]:
    """What *stream* makes of *events*, fed one at a time: each event's error (or None),
    then the events taken, the rebuilt response and the result (or what each raised)."""
    seen: list[Any] = []
    for event in events:
        seen.append(raised(stream.add, event))
    seen += [stream.count, raised(lambda: stream.response)]
    seen.append(raised(lambda: says(stream.result())))
    return seen


def raised(action: Any, *args: Any) -> Any:
    """What *action* gives, or the type, path and text of what it raises."""
    try:
        return action(*args)
    except Exception as error:  # the two ways must fail alike, whatever the error
        return type(error).__name__, getattr(error, "path", None), str(error)


def says(parsed: Any) -> Any:
    """A result without the id and time each Msg makes up."""
    msg = parsed.messages[0]
    return msg.content, msg.metadata, msg.invocation_id, parsed.losses


class _Int(int):
    """An integer that is not an int: no JSON value."""


class _Str(str):
    """A text that is not a str: no JSON key."""


#: Values put in place of a value in a chunk's log probabilities, beside hostile_values.
ODD_TOKEN_VALUES = st.sampled_from(
    [None, True, 1, 1.5, -1e308, math.inf, math.nan, "\ud800", "x", [], {}, (70,), _Int(70)]
)
ODD_BYTES = st.sampled_from([[256], [-1], [70, True], [_Int(70)], [1.5], ["a"], [10**700]])
TOP = {"token": "b", "logprob": -1.0, "bytes": [98]}


@st.composite
def chat_with_odd_log_probabilities(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A made-up Chat Completions stream with log probabilities, one chunk's token (or
    one of its top log probabilities) changed: a value replaced, a key taken out, added
    or made a subclass of str, or top log probabilities added."""
    events = copy.deepcopy(generated_streams.openai_chat(draw(generated_streams.replies()), True))
    carrying = [event for event in events if event["choices"] and "logprobs" in event["choices"][0]]
    if not carrying:
        return events
    token = draw(st.sampled_from(carrying))["choices"][0]["logprobs"]["content"][0]
    if draw(st.booleans()):
        token["top_logprobs"] = [dict(TOP) for _ in range(draw(st.integers(1, 2)))]
        if draw(st.booleans()):
            token = token["top_logprobs"][-1]
    key = draw(st.sampled_from([*token, "extra"]))
    change = draw(st.sampled_from(["value", "drop", "subclass"]))
    if change == "drop" and key in token:
        del token[key]
    elif change == "subclass" and key in token:
        token[_Str(key)] = token.pop(key)
    else:
        token[key] = draw(ODD_TOKEN_VALUES | ODD_BYTES | hostile_values)
    return events


class TestChatQuickWay:
    def test_a_field_that_changes_beside_the_text_keeps_its_last_value(self):
        """A chunk whose ``created`` moved on is taken whole: the rebuilt response has the
        last value, as the full check keeps it, and the text goes on."""
        stream = OpenAIChatStream()
        stream.extend([chat_chunk("Sun"), chat_chunk("ny"), chat_chunk(".", created=2)])

        response = stream.response
        assert (2, "Sunny.") == (response["created"], response["choices"][0]["message"]["content"])

    def test_a_lone_surrogate_beside_the_text_is_refused_at_its_chunk(self):
        """A repeated field that now holds a lone surrogate is refused at that chunk, not
        passed over because the chunk looks like the one before."""
        stream = OpenAIChatStream()
        stream.extend([chat_chunk("Sun"), chat_chunk("ny")])

        with pytest.raises(MessageError) as caught:
            stream.add(chat_chunk(".", system_fingerprint="\ud800"))
        assert "events[2].system_fingerprint" == caught.value.path

    @pytest.mark.parametrize("index", [False, 0.0])
    def test_an_index_equal_to_zero_but_not_an_integer_is_refused(self, index):
        """``False`` and ``0.0`` compare equal to the choice's index 0, yet are refused at
        their chunk as the full check refuses them."""
        stream = OpenAIChatStream()
        stream.extend([chat_chunk("Sun"), chat_chunk("ny")])
        chunk = chat_chunk(".")
        chunk["choices"][0]["index"] = index

        with pytest.raises(MessageError) as caught:
            stream.add(chunk)
        assert ("events[2].choices[0].index", 2) == (caught.value.path, stream.count)

    def test_a_lone_surrogate_in_a_log_probability_is_refused_at_its_chunk(self):
        """A token whose log probability holds a lone surrogate is refused at its chunk,
        after chunks that took the quick way, as the full check refuses it."""
        chunks = [chat_chunk("Sun"), chat_chunk("ny"), chat_chunk(".")]
        for chunk, text in zip(chunks, ["Sun", "ny", "\ud800"], strict=True):
            token = {"token": text, "logprob": -0.5, "bytes": [], "top_logprobs": []}
            chunk["choices"][0]["logprobs"] = {"content": [token], "refusal": None}
        stream = OpenAIChatStream()
        stream.extend(chunks[:2])

        with pytest.raises(MessageError) as caught:
            stream.add(chunks[2])
        assert ("events[2].choices[0].logprobs.content[0].token", 2) == (
            caught.value.path,
            stream.count,
        )

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(events=chat_with_odd_log_probabilities())
    def test_log_probabilities_taken_as_the_full_way_takes_them(self, events):
        """Chunks whose log probabilities are of the usual shape or not, valid or not,
        give the same errors (at the same chunks), response and result with the quick
        way as with every chunk checked whole."""
        assert taken(FullWayChat(), events) == taken(OpenAIChatStream(), events)

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(stream=generated_streams.streams())
    def test_made_up_streams_taken_as_the_full_way_takes_them(self, stream):
        """Made-up replies of reasoning, text and tool calls (with log probabilities or
        not) give the same response and result both ways."""
        format, events = stream
        if format == "openai_chat":
            assert taken(FullWayChat(), events) == taken(OpenAIChatStream(), events)


class TestGeminiQuickWay:
    def usage(self, candidates: Any, total: Any) -> dict[str, Any]:
        details = [{"modality": "TEXT", "tokenCount": 3}]
        return {
            "promptTokenCount": 3,
            "candidatesTokenCount": candidates,
            "totalTokenCount": total,
            "promptTokensDetails": details,
        }

    def test_counts_too_long_to_write_are_refused_even_when_they_cancel_out(self):
        """Two counts beyond what a message can hold, one the other's negative, are refused
        at their piece (their sum alone would look small)."""
        stream = GeminiStream()
        stream.extend([gemini_piece("Hel", self.usage(1, 4)), gemini_piece("lo", self.usage(2, 5))])

        with pytest.raises(MessageError) as caught:
            stream.add(gemini_piece("!", self.usage(10**5000, -(10**5000))))
        assert caught.value.path.startswith("events[2].usage_metadata.")

    @pytest.mark.parametrize("index", [False, 0.0])
    def test_an_index_equal_to_zero_but_not_an_integer_is_refused(self, index):
        """``False`` and ``0.0`` compare equal to the candidate's index 0, yet are refused
        at their piece as the full check refuses them."""
        stream = GeminiStream()
        stream.extend([gemini_piece("Hel", self.usage(1, 4)), gemini_piece("lo", self.usage(2, 5))])

        with pytest.raises(MessageError) as caught:
            stream.add(gemini_piece("!", self.usage(3, 6), index))
        assert "events[2].candidates[0].index" == caught.value.path

    def test_a_changed_detail_of_the_usage_is_kept(self):
        """A usage whose details changed, not only its counts, is checked whole and kept."""
        usage = {**self.usage(3, 6), "promptTokensDetails": [{"modality": "IMAGE"}]}
        stream = GeminiStream()
        stream.extend(
            [
                gemini_piece("Hel", self.usage(1, 4)),
                gemini_piece("lo", self.usage(2, 5)),
                gemini_piece("!", usage),
            ]
        )

        assert ("Hello!", usage) == (
            stream.msg.get_text_content(),
            stream.response["usage_metadata"],
        )


class TestGeminiFullWay:
    @pytest.mark.parametrize(
        ("parts", "path", "why"),
        [
            (5, "events[0].candidates[0].content.parts", "it must be a list"),
            (["Hi"], "events[0].candidates[0].content.parts[0]", "it must be an object"),
        ],
    )
    def test_parts_that_are_not_a_list_of_objects_are_refused_by_path(self, parts, path, why):
        """A piece whose parts are not a list, or hold something that is not an object,
        is refused at that piece, the error naming the place and saying what it must be."""
        piece = gemini_piece("Hi", {"promptTokenCount": 1})
        piece["candidates"][0]["content"]["parts"] = parts

        with pytest.raises(MessageError) as caught:
            GeminiStream().add(piece)
        assert (path, True) == (caught.value.path, str(caught.value).endswith(f"{why}."))

    def test_argument_pieces_that_are_not_objects_are_refused_by_path(self):
        """A function call's streamed argument pieces must be objects: one that is not is
        refused naming its place."""
        call = {"name": "f", "partialArgs": [7], "willContinue": True}
        piece = gemini_piece("Hi", {"promptTokenCount": 1})
        piece["candidates"][0]["content"]["parts"] = [{"functionCall": call}]

        with pytest.raises(MessageError) as caught:
            GeminiStream().add(piece)
        assert "events[0].candidates[0].content.parts[0].function_call.partial_args[0]" == (
            caught.value.path
        )
