"""The conversion matrix's cells (``agentmsg_docs.matrix``, docs tooling): they say what
the converters do.

The cells are checked against conversions run here on hand-written conversations and
provider data (not the matrix's probes), so a converter that changes what it keeps or
reports breaks these tests until the page, which the docs build writes from the same
cells, says so too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from agentmsg import (
    AnthropicStream,
    Conversion,
    Loss,
    Msg,
    from_anthropic,
    from_gemini,
    from_openai_chat,
    from_openai_responses,
    to_anthropic,
    to_gemini,
    to_openai_chat,
    to_openai_responses,
)
from agentmsg.providers import FORMATS
from agentmsg_docs.matrix import cells as _cells
from agentmsg_docs.matrix import events as _events
from agentmsg_docs.matrix import probes as _probes
from agentmsg_docs.matrix import replies as _replies
from agentmsg_docs.matrix.cells import Cell
from stream_samples import anthropic_block, anthropic_end

FORMAT_KEYS = tuple(FORMATS)


@pytest.fixture(scope="module")
def cells() -> dict[str, dict[str, tuple[Cell, Cell]]]:
    return _probes.matrix()


def known_cells() -> dict[tuple[str, str, int], Cell]:
    """Cells worked out by hand: (format, row, 0 for to_* or 1 for from_*) -> cell."""
    thinking = [
        Msg("user", "Go on.", "user"),
        Msg("assistant", [{"type": "thinking", "thinking": "Hm."}], "assistant"),
    ]
    chat_thinking = to_openai_chat(thinking).losses
    anthropic_thinking = to_anthropic(thinking).losses
    redacted = from_anthropic(
        {
            "messages": [
                {"role": "user", "content": "Go on."},
                {"role": "assistant", "content": [{"type": "redacted_thinking", "data": "x"}]},
            ]
        }
    ).losses
    named = [Msg("alice", "Hi.", "user")]
    audio = {
        "type": "audio",
        "source": {"type": "base64", "media_type": "audio/wav", "data": "UklGRg=="},
    }
    anthropic_audio = to_anthropic([Msg("user", [audio], "user")]).losses  # type: ignore[list-item]
    assert len(anthropic_audio) == 1
    return {
        ("openai_chat", "thinking block", 0): Cell("lost", (chat_thinking[0],)),
        ("openai_chat", "thinking block", 1): Cell("absent"),
        ("anthropic", "thinking block", 0): Cell("lost", (anthropic_thinking[0],)),
        ("anthropic", "redacted thinking", 1): Cell("carried", (redacted[0],)),
        ("anthropic", "redacted thinking", 0): Cell("kept"),
        ("openai_chat", "redacted thinking", 0): Cell("none"),
        ("anthropic", "audio block, base64", 0): Cell(
            "lost",
            (Loss("messages[0].content[0]", "audio block", "Anthropic Messages takes no audio"),),
        ),
        ("gemini", "tool result of JSON", 0): Cell("kept"),
        ("openai_responses", "sender name", 0): Cell(
            "lost",
            tuple(
                loss._replace(what=loss.what.replace("'alice'", "'PROBE_NAME'"))
                for loss in to_openai_responses(named).losses
            ),
        ),
        ("openai_chat", "sender name", 0): Cell("kept"),
        ("openai_chat", "sender name", 1): Cell("kept"),
        ("gemini", "thinking block", 1): Cell("kept"),
        ("openai_chat", "image in a tool result", 1): Cell("carried", where="moved"),
        ("anthropic", "signature of a thinking block", 1): Cell("carried", where="provider_state"),
        ("openai_chat", "metadata", 0): Cell("record"),
    }


class TestCells:
    def test_every_format_and_probe_has_two_cells(self, cells):
        """A cell per format, row and direction, each with a known status."""
        assert tuple(cells) == FORMAT_KEYS
        statuses = {"kept", "carried", "lost", "record", "absent", "none"}
        for rows in cells.values():
            assert list(rows) == [probe.key for probe in _probes.PROBES]
            for to_cell, from_cell in rows.values():
                assert {to_cell.status, from_cell.status} <= statuses

    def test_nothing_goes_without_a_loss(self, cells):
        """No probe's thing disappears unreported, in any format or direction."""
        silent = [
            (fmt, key, direction)
            for fmt, rows in cells.items()
            for key, pair in rows.items()
            for direction, cell in enumerate(pair)
            if cell.status == "unreported"
        ]
        assert silent == []

    def test_known_cells(self, cells):
        """Cells worked out from conversions run here agree with the matrix."""
        for (fmt, key, direction), expected in known_cells().items():
            assert cells[fmt][key][direction] == expected, (fmt, key, direction)

    def test_lost_and_carried_cells_quote_their_losses(self, cells):
        """A lost or carried cell quotes at least one loss, unless it says where the thing
        went; a kept cell quotes none."""
        for rows in cells.values():
            for pair in rows.values():
                for cell in pair:
                    if cell.status == "lost":
                        assert cell.losses
                    elif cell.status == "carried":
                        assert cell.losses or cell.where
                    else:
                        assert cell.losses == ()

    def test_the_gemini_signatures_come_back_in_provider_state(self, cells):
        """A thought signature sent to Gemini is read back into the provider state."""
        payload = to_gemini(
            [
                Msg("user", "Go on.", "user"),
                Msg(
                    "assistant",
                    [{"type": "text", "text": "Hi.", "thought_signature": "QUJD"}],
                    "assistant",
                ),
            ]
        ).payload
        back = from_gemini(payload).messages[1]
        assert back.metadata == {"provider_state": {"gemini": {"0": {"thought_signature": "QUJD"}}}}
        assert cells["gemini"]["thought signature of a text block"] == (
            Cell("kept"),
            Cell("carried", where="provider_state"),
        )

    def test_responses_reasoning_comes_back_in_provider_state(self, cells):
        """A reasoning item read from Responses keeps its id in the provider state, and
        the conversion back sends it."""
        data = _probes.PROBES[4].native["openai_responses"]  # type: ignore[index]
        parsed = from_openai_responses(data)
        assert parsed.losses == ()
        assert "rs_PROBE_SEAL" in str(to_openai_responses(parsed.messages).payload)
        assert cells["openai_responses"]["thinking the API signed or encrypted"] == (
            Cell("kept"),
            Cell("carried", where="provider_state"),
        )


def with_losses(
    monkeypatch: pytest.MonkeyPatch, change: Callable[[tuple[Loss, ...]], tuple[Loss, ...]]
) -> None:
    """Make every ``to_*`` of the matrix report *change(losses)* instead of its losses."""

    def changed(to: Callable[..., Conversion]) -> Callable[..., Conversion]:
        def convert(*args: Any, **kwargs: Any) -> Conversion:
            result = to(*args, **kwargs)
            return result._replace(losses=change(result.losses))

        return convert

    formats = tuple(fmt._replace(to=changed(fmt.to)) for fmt in _cells.FORMATS)
    monkeypatch.setattr(_probes, "FORMATS", formats)


class TestAChangedConverterFails:
    def test_a_loss_taken_away_shows(self, monkeypatch):
        """Anthropic's audio loss taken away: the matrix then disagrees with the known
        cells and finds the audio gone without a loss."""
        with_losses(monkeypatch, lambda losses: tuple(x for x in losses if x.what != "audio block"))
        changed = _probes.matrix()
        assert changed["anthropic"]["audio block, base64"][0] == Cell("unreported")
        with pytest.raises(AssertionError):
            TestCells().test_nothing_goes_without_a_loss(changed)

    def test_a_changed_loss_text_shows(self, monkeypatch):
        """A loss that reads differently changes its cell, so the known cells fail."""
        with_losses(
            monkeypatch,
            lambda losses: tuple(
                x._replace(why=x.why.replace("no field", "no place")) for x in losses
            ),
        )
        changed = _probes.matrix()
        monkeypatch.undo()
        with pytest.raises(AssertionError):
            TestCells().test_known_cells(changed)


@pytest.fixture(scope="module")
def replies() -> dict[str, dict[str, tuple[Cell, Cell]]]:
    return _replies.reply_matrix()


def anthropic_signed_events() -> list[dict[str, object]]:
    """A signed thinking block and a text block, streamed (written by hand, not by the
    matrix's event writer)."""
    message = {
        "id": "msg_9",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "usage": {"input_tokens": 9, "output_tokens": 1},
    }
    return [
        {"type": "message_start", "message": message},
        *anthropic_block(
            0,
            {"type": "thinking", "thinking": "", "signature": ""},
            {"type": "thinking_delta", "thinking": "Hm."},
            {"type": "signature_delta", "signature": "SIG9"},
        ),
        *anthropic_block(1, {"type": "text", "text": ""}, {"type": "text_delta", "text": "Hi."}),
        *anthropic_end("end_turn", 7),
    ]


class TestReplyCells:
    def test_every_format_and_probe_has_two_cells(self, replies):
        assert tuple(replies) == FORMAT_KEYS
        for rows in replies.values():
            assert list(rows) == [probe.key for probe in _replies.REPLY_PROBES]
            for unstreamed, streamed in rows.values():
                assert {unstreamed.status, streamed.status} <= {"kept", "carried", "lost", "none"}

    def test_a_stream_keeps_what_the_response_keeps(self, replies):
        """Each stream class gives, for the events of a reply, what from_* gives for the
        unstreamed response, thing by thing."""
        for rows in replies.values():
            for unstreamed, streamed in rows.values():
                assert unstreamed == streamed._replace(events=())
                # a stream's cell names the events that hold what it keeps
                assert bool(streamed.events) == (streamed.status != "none")

    def test_known_cells(self, replies):
        """Cells worked out from replies read here agree with the matrix."""
        logprobs = {"content": [{"token": "a", "logprob": -0.5, "bytes": None, "top_logprobs": []}]}
        chat = from_openai_chat(
            {
                "id": "c1",
                "model": "gpt-4.1",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": "a"},
                        "finish_reason": "stop",
                        "logprobs": logprobs,
                    }
                ],
            }
        )
        gemini_logprobs = from_gemini(
            {
                "candidates": [
                    {"content": {"role": "model", "parts": [{"text": "a"}]}, "avg_logprobs": -0.2}
                ]
            }
        )
        stream = AnthropicStream()
        stream.extend(anthropic_signed_events())
        [signed] = stream.result().messages
        assert signed.metadata is not None
        assert signed.metadata["provider_state"] == {"anthropic": {"0": {"signature": "SIG9"}}}
        assert signed.metadata["token_usage"]["completion_tokens"] == 7
        assert signed.invocation_id == "msg_9"
        expected = {
            ("openai_chat", "log probabilities"): Cell("lost", chat.losses),
            ("gemini", "log probabilities"): Cell(
                "lost",
                (
                    Loss(
                        "candidates[0].logprobs_result",
                        "log probabilities",
                        "agentmsg's messages have no place for them",
                    ),
                ),
            ),
            ("anthropic", "thinking the API signed or encrypted"): Cell(
                "carried", where="provider_state"
            ),
            ("anthropic", "token usage"): Cell("carried", where="metadata"),
            ("anthropic", "response id"): Cell("carried", where="invocation_id"),
            ("openai_responses", "another choice or candidate"): Cell("none"),
        }
        assert "avg_logprobs" in gemini_logprobs.losses[0].path
        for (fmt, key), cell in expected.items():
            unstreamed, streamed = replies[fmt][key]
            assert (unstreamed, streamed._replace(events=())) == (cell, cell), (fmt, key)
        assert replies["anthropic"]["thinking the API signed or encrypted"][1].events == (
            "content_block_delta (signature_delta)",
        )
        assert replies["openai_chat"]["token usage"][1].events == ("usage",)

    def test_a_stream_that_loses_a_thing_shows(self, monkeypatch):
        """Events that lose the signature (no signature_delta) turn the stream's cell into
        a thing gone without a loss, which the matrix tests refuse."""
        write = _events.EVENTS["anthropic"]

        def unsigned(response):  # type: ignore[no-untyped-def]
            return [
                event
                for event in write(response)
                if event.get("delta", {}).get("type") != "signature_delta"
            ]

        monkeypatch.setitem(_events.EVENTS, "anthropic", unsigned)
        probe = next(p for p in _replies.REPLY_PROBES if p.key.startswith("thinking the API"))
        fmt = _cells.FORMATS[2]
        unstreamed, streamed = _replies.reply_cells(fmt, probe)
        assert unstreamed == Cell("carried", where="provider_state")
        assert streamed == Cell("unreported")  # and no event holds it
