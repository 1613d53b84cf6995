"""Tests for agentmsg.estimate_tokens."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentmsg import MessageError, estimate_tokens


class TestEstimateTokens:
    def test_empty_and_blank_text_cost_nothing(self):
        """An empty text and white space alone are estimated at zero tokens."""
        assert 0 == estimate_tokens("")
        assert 0 == estimate_tokens(" \n\t  ")

    def test_each_cjk_character_is_one_token(self):
        """Chinese characters, kana, Hangul and full-width punctuation count one each."""
        assert 7 == estimate_tokens("你好，你是谁？")
        assert 5 == estimate_tokens("こんにちは")
        assert 2 == estimate_tokens("안녕")

    def test_words_cost_one_token_per_six_letters(self):
        """A word costs one token per started run of six letters."""
        assert 1 == estimate_tokens("Hello")
        assert 1 == estimate_tokens("Hellos")
        assert 2 == estimate_tokens("temperature")
        assert 4 == estimate_tokens("internationalization")

    def test_numbers_cost_one_token_per_three_digits(self):
        """A number costs one token per started group of three digits."""
        assert 1 == estimate_tokens("25")
        assert 2 == estimate_tokens("2024")
        assert 3 == estimate_tokens("1234567")

    def test_punctuation_counts_one_each(self):
        """Every visible character that is not a letter or digit counts one."""
        assert 4 == estimate_tokens("Hello, world!")
        assert 3 == estimate_tokens('{"}')

    def test_mixed_text_adds_up_its_parts(self):
        """A text mixing scripts costs the sum of its Chinese, word and number parts."""
        # 深圳 (2) + 25 (1) + degrees (2) + ， (1) + sunny (1)
        assert 7 == estimate_tokens("深圳 25 degrees，sunny")

    @pytest.mark.parametrize("value", [None, 42, b"bytes", ["a"]])
    def test_non_strings_are_rejected(self, value):
        """Anything but a string raises MessageError naming `text` and the value."""
        with pytest.raises(MessageError, match=r"`text` must be a string") as info:
            estimate_tokens(value)
        assert "text" == info.value.path
        assert repr(value) in str(info.value)

    @given(st.text())
    def test_estimate_is_bounded_by_visible_characters(self, text):
        """The estimate is never negative and never above the count of visible characters."""
        visible = sum(1 for char in text if not char.isspace())
        assert 0 <= estimate_tokens(text) <= visible

    @given(st.text(), st.text())
    def test_joining_with_a_space_adds_the_estimates(self, left, right):
        """White space separates pieces, so two texts joined by a space cost their sum."""
        assert estimate_tokens(left) + estimate_tokens(right) == estimate_tokens(f"{left} {right}")
