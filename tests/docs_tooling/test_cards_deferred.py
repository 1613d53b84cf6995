"""The cards' deferred labels of the docs build (``docs/agentmsg_docs/gallery/cards.py``): written
once as markers, then in any language, they give what direct rendering gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentmsg import Msg, display_language
from agentmsg.cards._labels import LANGUAGES
from agentmsg_docs.gallery.cards import MARKER, deferred, localize


def card() -> Msg:
    """A message whose card shows most labels: thinking, media, a tool call, metadata."""
    content = [
        {"type": "thinking", "thinking": "x" * 45},
        {
            "type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": "A" * 10800},
        },
        {"type": "tool_use", "id": "c1", "name": "get_weather", "input": {"city": "Lima"}},
    ]
    return Msg("tutor", content, "assistant", metadata={"k": 1})


class TestDeferred:
    """Labels rendered deferred become, in any language, what direct rendering gives."""

    @pytest.mark.parametrize("language", LANGUAGES)
    def test_same_as_direct(self, language: str) -> None:
        """``localize(deferred card, lang)`` equals the card rendered in *lang*."""
        message = card()
        with deferred():
            marked = message._repr_html_()
        with display_language(language):
            direct = message._repr_html_()
        assert MARKER in marked
        assert direct == localize(marked, language)

    @settings(max_examples=50, deadline=None)
    @given(
        name=st.text(min_size=1, max_size=20),
        text=st.text(max_size=40),
        size=st.integers(min_value=0, max_value=200_000),
    )
    def test_any_message(self, name: str, text: str, size: int) -> None:
        """For any sender, text and payload size, the two ways agree in every language,
        and localizing leaves no marker behind."""
        message = Msg(
            name,
            [
                {"type": "text", "text": text},
                {
                    "type": "audio",
                    "source": {"type": "base64", "media_type": "audio/wav", "data": "A" * size},
                },
            ],
            "user",
        )
        with deferred():
            marked = message._repr_html_()
        for language in LANGUAGES:
            with display_language(language):
                assert message._repr_html_() == localize(marked, language)
            assert MARKER not in localize(marked, language)

    def test_outside_the_block_labels_are_text(self) -> None:
        """Leaving the block writes labels in the display language again."""
        with deferred():
            pass
        assert MARKER not in card()._repr_html_()


class TestLookalikes:
    """Text that only looks like a deferred label is left alone."""

    @pytest.mark.parametrize("text", ["\ue000abc\ue001", "\ue000\ue001", "\ue000WzEsMl0=\ue001"])
    def test_left_as_it_is(self, text: str) -> None:
        """Not base64, empty, or base64 of JSON that is no label: unchanged."""
        assert text == localize(text, "es")
