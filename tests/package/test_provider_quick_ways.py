"""The readers' quick checks of a string agree with the full checks they stand in for, on
the same values: the same string back, or the same MessageError."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from agentmsg import MessageError
from agentmsg._validate import check_key, check_name, check_str
from agentmsg.providers._common import _NOT_ARGUMENTS, Reader, parse_arguments
from message_strategies import hostile_texts, hostile_values


class Text(str):
    """A str subclass: the full checks give it back as a plain str."""


values = (
    hostile_texts
    | st.text(max_size=6)
    | st.text(max_size=6).map(Text)
    | st.sampled_from(["", "a", "\ud800", None, 0, 1.5, b"a", ["a"], {"a": 1}])
    | hostile_values
)


def outcome(check: Any, *args: Any) -> tuple[str, Any]:
    """What *check* makes of *args*: ("value", the value and its type) or ("error", the
    error's text and path)."""
    try:
        value = check(*args)
    except MessageError as error:
        return "error", (str(error), error.path)
    return "value", (value, type(value))


class TestReaderQuickChecks:
    @given(values)
    @example("\ud800")
    @example(Text("a"))
    @example("")
    def test_text_and_ident_agree_with_the_full_checks(self, value: Any) -> None:
        """Reader.text and Reader.ident give what check_str and check_name give."""
        assert outcome(check_str, value, "x.y") == outcome(Reader.text, value, "x.y")
        assert outcome(check_name, value, "x.y") == outcome(Reader.ident, value, "x.y")

    @given(values, st.booleans())
    @example("\ud800", True)
    @example("", True)
    @example(None, True)
    @example(None, False)
    def test_text_at_and_ident_at_agree_with_the_full_checks(
        self, value: Any, present: bool
    ) -> None:
        """Reader.text_at and Reader.ident_at give what the full checks of the field give,
        the field there or not."""
        data = {"id": value} if present else {}

        def full_text(data: Any, key: str, path: str) -> str:
            return check_str(check_key(data, key, path), f"{path}.{key}")

        def full_ident(data: Any, key: str, path: str) -> str:
            return check_name(check_key(data, key, path), f"{path}.{key}")

        assert outcome(full_text, data, "id", "output[0]") == outcome(
            Reader.text_at, data, "id", "output[0]"
        )
        assert outcome(full_ident, data, "id", "output[0]") == outcome(
            Reader.ident_at, data, "id", "output[0]"
        )


extra_keys = st.sampled_from(["cached", "reasoning", "total"])
extra_values = st.integers(-1, 3) | st.dictionaries(extra_keys, st.integers(0, 2), max_size=2)


class TestUsageCounts:
    @given(
        st.dictionaries(st.sampled_from(["input_tokens", "output_tokens"]), st.integers(0, 9)),
        st.dictionaries(extra_keys, extra_values, max_size=3),
    )
    @example({"input_tokens": 1, "output_tokens": 2}, {})
    @example({"input_tokens": 1, "output_tokens": 2}, {"cached": 3})
    @example({"input_tokens": 1}, {})
    def test_counts_beside_the_read_ones_are_reported_as_the_full_loop_reports(
        self, read: dict[str, int], extra: dict[str, Any]
    ) -> None:
        """Reader.usage reports the counts it does not read as Report.counts does for every
        usage (it skips that loop only when the usage holds just the keys read)."""
        keys = ("input_tokens", "output_tokens")
        usage = {**read, **extra}
        default = None if len(read) == len(keys) else 0  # else a missing count is refused
        quick, full = Reader("Anthropic", False), Reader("Anthropic", False)
        full.counts(usage, "usage", keys)

        counts = quick.usage(usage, "usage", keys, default)

        assert ([usage.get(key, 0) for key in keys], full.losses) == (counts, quick.losses)


class TestParseArguments:
    @given(st.text(max_size=8) | st.sampled_from(["\ufeff{}", '{"a": [1, 2.5]}', "[1", "1e999"]))
    @example("\ufeff{}")
    @example('{"a": 1}')
    def test_it_reads_what_json_loads_reads(self, text: str) -> None:
        """parse_arguments gives json.loads' value for any text, and its marker for text
        json.loads refuses (a byte order mark too)."""
        try:
            expected = json.loads(text)
        except ValueError:
            expected = _NOT_ARGUMENTS

        assert repr(expected) == repr(parse_arguments(text))
