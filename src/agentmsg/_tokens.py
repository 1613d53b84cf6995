"""Quick, dependency-free estimates of how many tokens a text costs.

:func:`estimate_tokens` is agentmsg's own rule; :func:`ernie_tokens` is the rule of ERNIE
Bot (``erniebot.utils.token_helper.approx_num_tokens``), which the role messages use so
that code written for ERNIE Bot Agent counts, and prunes a memory, as it did there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._errors import MessageError
from ._validate import show

if TYPE_CHECKING:
    import re

# Characters that tokenizers for Chinese, Japanese and Korean treat roughly one by one:
# CJK punctuation, kana, CJK ideographs (with extension A and the compatibility block),
# Hangul syllables and the full-width forms.
_CJK = (
    "\u3000-\u303f"  # CJK symbols and punctuation
    "\u3040-\u30ff"  # hiragana and katakana
    "\u3400-\u4dbf"  # CJK unified ideographs extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff00-\uffef"  # half-width and full-width forms
    "\U00020000-\U0003134f"  # CJK unified ideographs extensions B to G
)
_PATTERN = (
    rf"(?P<cjk>[{_CJK}])"
    rf"|(?P<digits>\d+)"
    rf"|(?P<word>[^\W\d{_CJK}]+)"
    r"|(?P<other>\S)"
)
_pieces: re.Pattern[str] | None = None  # made on first use: compiling costs milliseconds
_WORD_CHARS = 6  # a word costs one token per started run of six characters
_DIGIT_CHARS = 3  # a number costs one token per started group of three digits


def estimate_tokens(text: str) -> int:
    """Estimate how many tokens *text* costs a typical LLM tokenizer.

    This is an estimate, not a count: real tokenizers differ from model to model. The
    rule is simple and stable, so it is good for budgeting a conversation, not for
    billing:

    - each CJK character (Chinese, Japanese kana, Korean Hangul, full-width punctuation)
      counts as one token;
    - a word counts one token per started run of six letters, so ``"Hello"`` is one and
      ``"temperature"`` is two;
    - a number counts one token per started group of three digits;
    - any other visible character (punctuation, symbols, emoji) counts as one;
    - white space is free.

    Args:
        text: The text to estimate.

    Returns:
        The estimated number of tokens; 0 for an empty or blank text.

    Raises:
        MessageError: *text* is not a string.

    Example:
        >>> from agentmsg import estimate_tokens
        >>> estimate_tokens("Hello, world!")
        4
        >>> estimate_tokens("你好，世界！")
        6
        >>> estimate_tokens("")
        0
    """
    if not isinstance(text, str):
        msg = f"`text` must be a string, not {type(text).__name__}: {show(text)}."
        raise MessageError(msg, "text")
    global _pieces
    if _pieces is None:
        import re

        _pieces = re.compile(_PATTERN)
    total = 0
    for match in _pieces.finditer(text):
        kind = match.lastgroup
        size = match.end() - match.start()
        if kind == "word":
            total += -(-size // _WORD_CHARS)
        elif kind == "digits":
            total += -(-size // _DIGIT_CHARS)
        else:
            total += 1
    return total


# What ERNIE Bot's rule reads as a space: a basic CJK ideograph, or neither word nor space.
_ernie_pieces: re.Pattern[str] | None = None


def ernie_tokens(text: str) -> int:
    """ERNIE Bot's estimate: each ideograph of U+4E00..U+9FFF is a token; the rest, with
    those ideographs and punctuation read as spaces, costs 1.3 tokens a word, rounded down.

    The float product is ERNIE Bot's own, so counts match its rounding exactly.
    """
    global _ernie_pieces
    if _ernie_pieces is None:
        import re

        _ernie_pieces = re.compile(r"([\u4e00-\u9fff])|[^\w\s]")
    ideographs = 0
    for char in _ernie_pieces.findall(text):
        if char:
            ideographs += 1
    words = len(_ernie_pieces.sub(" ", text).split())
    return ideographs + int(words * 1.3)  # a non-negative float truncates to its floor
