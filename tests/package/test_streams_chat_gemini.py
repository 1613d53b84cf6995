"""The quick way of the Chat Completions and Gemini streams: a chunk that repeats the
last one but for its piece is compared whole with it, so that a field beside the piece
that differs, or holds what no message can hold, still goes through the full check."""

from __future__ import annotations

from typing import Any

import pytest

from agentmsg import GeminiStream, MessageError, OpenAIChatStream


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
