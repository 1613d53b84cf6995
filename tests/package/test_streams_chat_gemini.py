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


class FullWayGeminiStream(GeminiStream):
    """A Gemini stream that takes every piece the full way (its quick way never ready)."""

    __slots__ = ()

    def _ready(self, event: dict[str, Any]) -> None:
        self._open = None


def _variant(kind: str, number: int) -> dict[str, Any]:
    """Piece *number* of a thought-then-text reply, changed as *kind* says."""
    counts = {"promptTokenCount": 3, "candidatesTokenCount": number, "totalTokenCount": number + 3}
    usage: Any = {**counts, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 3}]}
    part: dict[str, Any] = {"text": f"t{number} "}
    if number < 3:
        part["thought"] = True
    piece = gemini_piece("", usage)
    candidate = piece["candidates"][0]
    candidate["content"]["parts"] = [part]
    changes: dict[str, Any] = {
        "surrogate": lambda: part.update(text="a\ud800"),
        "not text": lambda: part.update(text=5),
        "thought 1": lambda: part.update(thought=1),
        "other kind": lambda: part.update(thought=number >= 3),
        "two parts": lambda: candidate["content"]["parts"].append({"text": "b"}),
        "float count": lambda: usage.update(candidatesTokenCount=1.5),
        "huge counts": lambda: usage.update(promptTokenCount=10**5000, totalTokenCount=-(10**5000)),
        "float beside huge": lambda: usage.update(promptTokenCount=10**5000, totalTokenCount=0.5),
        "negative count": lambda: usage.update(candidatesTokenCount=-1),
        "bool count": lambda: usage.update(candidatesTokenCount=True),
        "text count": lambda: usage.update(candidatesTokenCount="7"),
        "new detail": lambda: usage.update(promptTokensDetails=[{"modality": "IMAGE"}]),
        "bad detail": lambda: usage.update(promptTokensDetails=["\ud800"]),
        "extra count": lambda: usage.update(cachedContentTokenCount=2),
        "one count": lambda: piece.update(usageMetadata={"totalTokenCount": number}),
        "no usage": lambda: piece.pop("usageMetadata"),
        "null usage": lambda: piece.update(usageMetadata=None),
        "index False": lambda: candidate.update(index=False),
        "index 0.0": lambda: candidate.update(index=0.0),
        "no index": lambda: candidate.pop("index"),
        "role": lambda: candidate["content"].update(role="user"),
        "model": lambda: piece.update(modelVersion="gemini-other"),
        "finish": lambda: candidate.update(finishReason="STOP"),
        "snake": lambda: piece.update(usage_metadata=piece.pop("usageMetadata")),
        "not a dict": lambda: None,
    }
    if kind in changes:
        changes[kind]()
    return piece if kind != "not a dict" else [piece]  # type: ignore[return-value]


def _fed(stream: GeminiStream, pieces: list[Any], one_by_one: bool) -> tuple[Any, ...]:
    """What a stream holds after taking *pieces* (stopping at the first refused)."""
    error = None
    try:
        if one_by_one:
            for piece in pieces:
                stream.add(piece)
        else:
            stream.extend(pieces)
    except MessageError as refused:
        error = (refused.path, str(refused))
    msg = stream.msg
    said = None if msg is None else (msg.content, msg.metadata, msg.invocation_id)
    result = None
    if stream.done:
        try:
            parsed = stream.result()
            result = ([m.content for m in parsed.messages], [loss.path for loss in parsed.losses])
        except MessageError as refused:
            result = str(refused)
    return stream.count, error, stream.response, said, result


_KINDS = ["plain"] * 8 + [
    "surrogate",
    "not text",
    "thought 1",
    "other kind",
    "two parts",
    "float count",
    "huge counts",
    "float beside huge",
    "negative count",
    "bool count",
    "text count",
    "new detail",
    "bad detail",
    "extra count",
    "one count",
    "no usage",
    "null usage",
    "index False",
    "index 0.0",
    "no index",
    "role",
    "model",
    "finish",
    "snake",
    "not a dict",
]


class TestGeminiQuickAndFullWays:
    @settings(max_examples=300, deadline=None)
    @given(kinds=st.lists(st.sampled_from(_KINDS), min_size=1, max_size=14))
    def test_the_quick_ways_agree_with_the_full_way(self, kinds):
        """Pieces that repeat the last one but for text and usage, mixed with pieces that
        differ in a value, a type or a key: taken in runs (extend), one by one (add) or
        all the full way, the stream holds the same, says the same, and refuses the same
        piece with the same error."""
        pieces = [_variant(kind, number) for number, kind in enumerate(["plain", *kinds])]

        full = _fed(FullWayGeminiStream(), copy.deepcopy(pieces), True)
        assert full == _fed(GeminiStream(), copy.deepcopy(pieces), False)
        assert full == _fed(GeminiStream(), copy.deepcopy(pieces), True)

    @settings(max_examples=200, deadline=None)
    @given(kinds=st.lists(st.sampled_from(_KINDS), min_size=1, max_size=14))
    def test_the_partial_message_after_every_piece_is_the_full_ways(self, kinds):
        """Read after every piece, the partial message (its usage worked out again only
        when the usage changed) says what the full way's says, piece by piece."""
        pieces = [_variant(kind, number) for number, kind in enumerate(["plain", *kinds])]

        def reads(stream: GeminiStream) -> list[Any]:
            said = []
            for piece in copy.deepcopy(pieces):
                try:
                    stream.add(piece)
                except MessageError as refused:
                    said.append(refused.path)
                msg = stream.msg
                said.append(None if msg is None else (msg.content, msg.metadata))
            return said

        assert reads(FullWayGeminiStream()) == reads(GeminiStream())

    def test_a_run_refused_midway_keeps_the_pieces_before(self):
        """A run whose fourth piece holds a lone surrogate: the three before it are taken,
        the error names the fourth, and the stream goes on from there."""
        pieces = [_variant(kind, n) for n, kind in enumerate(["plain"] * 4 + ["surrogate"])]
        stream = GeminiStream()
        with pytest.raises(MessageError) as caught:
            stream.extend(pieces)
        stream.add(_variant("plain", 5))

        assert ("events[4].candidates[0].content.parts[0].text", 5, "t3 t5 ") == (
            caught.value.path,
            stream.count,
            stream.msg.content[-1]["text"],
        )
