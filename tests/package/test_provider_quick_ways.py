"""The providers' quick ways agree with the full ways they stand in for, on the same
values: the readers' string checks, usage's left-over counts, the arguments' JSON and the
ids a call is sent with."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from agentmsg import MessageError
from agentmsg._validate import check_key, check_name, check_str
from agentmsg.providers import anthropic
from agentmsg.providers._common import _NOT_ARGUMENTS, CallIds, Reader, Report, parse_arguments
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


call_ids = st.lists(
    st.sampled_from(["a", "a_2", "b-1", "b.1", "x" * 41, "x" * 40, "é"]), max_size=8
)


class TestCallIdsOwn:
    @given(call_ids, st.sampled_from(["anthropic", "limit", "plain"]), st.booleans())
    @example(["a", "a", "a_2"], "plain", False)
    @example(["b.1", "b_1"], "anthropic", True)
    @example(["x" * 41, "x" * 40], "limit", False)
    def test_own_then_sent_gives_what_sent_gives(
        self, ids: list[str], rule: str, reserve: bool
    ) -> None:
        """Each id asked for with CallIds.own first (sent only when it says no) comes out
        as CallIds.sent alone gives it, with the same reports, whatever came before."""

        def made() -> CallIds:
            if rule == "anthropic":
                made_ids = CallIds("unique", anthropic._legal_id, "legal only")
            else:
                made_ids = CallIds("unique", None, "too long", 40 if rule == "limit" else None)
            if reserve:
                made_ids.reserve_later(["a_2", "b_1"])
            return made_ids

        quick, full = made(), made()
        quick_report, full_report = Report("X", False), Report("X", False)
        quick_sent, full_sent = [], []
        for at, call_id in enumerate(ids):
            path = f"messages[{at}].content[0].id"
            quick_sent.append(
                call_id if quick.own(call_id) else quick.sent(quick_report, call_id, path)
            )
            full_sent.append(full.sent(full_report, call_id, path))

        assert (full_sent, full_report.losses, full.taken) == (
            quick_sent,
            quick_report.losses,
            quick.taken,
        )
