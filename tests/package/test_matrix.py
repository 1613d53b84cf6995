"""The conversion matrix: its cells say what the converters do.

The cells are checked against conversions run here on hand-written conversations and
provider data (not the matrix's probes), so a converter that changes what it keeps or
reports breaks these tests until the page, which the docs build writes from the same
cells, says so too.
"""

from __future__ import annotations

import pytest

from agentmsg import Msg
from agentmsg.providers import (
    _common,
    _matrix,
    anthropic,
    from_anthropic,
    from_gemini,
    from_openai_responses,
    to_anthropic,
    to_gemini,
    to_openai_chat,
    to_openai_responses,
)

FORMAT_KEYS = ("openai_chat", "openai_responses", "anthropic", "gemini")


@pytest.fixture(scope="module")
def cells() -> dict[str, dict[str, tuple[_matrix.Cell, _matrix.Cell]]]:
    return _matrix.matrix()


def known_cells() -> dict[tuple[str, str, int], _matrix.Cell]:
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
        ("openai_chat", "thinking block", 0): _matrix.Cell("lost", (str(chat_thinking[0]),)),
        ("openai_chat", "thinking block", 1): _matrix.Cell("absent"),
        ("anthropic", "thinking block", 0): _matrix.Cell("lost", (str(anthropic_thinking[0]),)),
        ("anthropic", "redacted thinking", 1): _matrix.Cell("carried", (str(redacted[0]),)),
        ("anthropic", "redacted thinking", 0): _matrix.Cell("kept"),
        ("openai_chat", "redacted thinking", 0): _matrix.Cell("none"),
        ("anthropic", "audio block, base64", 0): _matrix.Cell(
            "lost",
            ("messages[0].content[0]: audio block dropped: Anthropic Messages takes no audio",),
        ),
        ("gemini", "tool result of JSON", 0): _matrix.Cell("kept"),
        ("openai_responses", "sender name", 0): _matrix.Cell(
            "lost",
            tuple(
                str(loss).replace("'alice'", "'PROBE_NAME'")
                for loss in to_openai_responses(named).losses
            ),
        ),
        ("openai_chat", "sender name", 0): _matrix.Cell("kept"),
        ("openai_chat", "sender name", 1): _matrix.Cell("kept"),
        ("gemini", "thinking block", 1): _matrix.Cell("kept"),
        ("openai_chat", "image in a tool result", 1): _matrix.Cell("carried", where="moved"),
        ("anthropic", "thinking block with a signature", 1): _matrix.Cell(
            "carried", where="provider_state"
        ),
        ("openai_chat", "metadata", 0): _matrix.Cell("record"),
    }


class TestCells:
    def test_every_format_and_probe_has_two_cells(self, cells):
        """A cell per format, row and direction, each with a known status."""
        assert tuple(cells) == FORMAT_KEYS
        statuses = {"kept", "carried", "lost", "record", "absent", "none"}
        for rows in cells.values():
            assert list(rows) == [probe.key for probe in _matrix.PROBES]
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
        assert cells["gemini"]["text block with a thought signature"] == (
            _matrix.Cell("kept"),
            _matrix.Cell("carried", where="provider_state"),
        )

    def test_responses_reasoning_comes_back_in_provider_state(self, cells):
        """A reasoning item read from Responses keeps its id in the provider state, and
        the conversion back sends it."""
        data = _matrix.PROBES[4].native["openai_responses"]  # type: ignore[index]
        parsed = from_openai_responses(data)
        assert parsed.losses == ()
        assert "rs_PROBE_SEAL" in str(to_openai_responses(parsed.messages).payload)
        assert cells["openai_responses"]["thinking the API signed or encrypted"] == (
            _matrix.Cell("kept"),
            _matrix.Cell("carried", where="provider_state"),
        )


class TestAChangedConverterFails:
    def test_a_loss_taken_away_shows(self, monkeypatch):
        """Anthropic's audio loss patched away: the matrix then disagrees with the known
        cells and finds the audio gone without a loss."""
        drop = _common.Report.drop

        def quiet(self, path, what, why, value):  # type: ignore[no-untyped-def]
            if what != "audio block":
                drop(self, path, what, why, value)

        monkeypatch.setattr(anthropic.Report, "drop", quiet)
        changed = _matrix.matrix()
        assert changed["anthropic"]["audio block, base64"][0] == _matrix.Cell("unreported")
        with pytest.raises(AssertionError):
            TestCells().test_nothing_goes_without_a_loss(changed)

    def test_a_changed_loss_text_shows(self, monkeypatch):
        """A loss that reads differently changes its cell, so the known cells fail."""
        drop = _common.Report.drop

        def reworded(self, path, what, why, value):  # type: ignore[no-untyped-def]
            drop(self, path, what, why.replace("no field", "no place"), value)

        monkeypatch.setattr(_common.Report, "drop", reworded)
        changed = _matrix.matrix()
        monkeypatch.undo()
        with pytest.raises(AssertionError):
            TestCells().test_known_cells(changed)
