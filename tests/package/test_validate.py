"""Tests for the validation rules (``src/agentmsg/_validate.py``) and the errors they raise."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from agentmsg import (
    MediaError,
    MessageAttributeError,
    MessageError,
    Msg,
    TokenCountError,
    _validate,
)

ALLOWED = "'text', 'thinking', 'image', 'audio', 'video', 'tool_use', 'tool_result'"
URL_RULE = (
    "must be an http or https URL, a data: URL holding image data, a file:// URL "
    "or a local file path"
)
JSON_RULE = "must be a JSON value (str, number, bool, None, list or dict)"


def error_of(*args, **kwargs) -> MessageError:
    """Build a Msg that must fail and return the MessageError."""
    with pytest.raises(MessageError) as info:
        Msg(*args, **kwargs)
    return info.value


def image(url: str) -> list[dict[str, object]]:
    """Content with one image block whose source is *url*."""
    return [{"type": "image", "source": {"type": "url", "url": url}}]


def tool_use(**fields: object) -> list[dict[str, object]]:
    """Content with one tool_use block, *fields* replacing the defaults."""
    return [{"type": "tool_use", "id": "c1", "name": "f", "input": {}, **fields}]


def tool_result(output: object) -> list[dict[str, object]]:
    """Content with one tool_result block holding *output*."""
    return [{"type": "tool_result", "id": "c1", "name": "f", "output": output}]


class TestMessageError:
    """The exception classes."""

    def test_is_value_error(self):
        """MessageError is a ValueError; the media and token errors are MessageErrors."""
        assert issubclass(MessageError, ValueError)
        assert issubclass(MediaError, MessageError)
        assert issubclass(TokenCountError, MessageError)

    def test_attribute_errors_are_two_kinds(self):
        """MessageAttributeError, and so TokenCountError, is a MessageError and an
        AttributeError, as attrs' FrozenInstanceError is an AttributeError."""
        assert (True, True) == (
            issubclass(MessageAttributeError, MessageError),
            issubclass(MessageAttributeError, AttributeError),
        )
        assert issubclass(TokenCountError, MessageAttributeError)

    def test_path_attribute(self):
        """The error carries the rejected field path."""
        assert "content[0].source.url" == error_of("A", image("ftp://x/a.png"), "user").path

    def test_path_defaults_to_empty(self):
        """An error about a whole value has an empty path."""
        assert "" == MessageError("whole value").path

    def test_module_is_agentmsg(self):
        """The class says it lives in agentmsg, where users import it from."""
        assert "agentmsg.MessageError" == f"{MessageError.__module__}.{MessageError.__name__}"


class TestErrorTexts:
    """Each rule's text: a sentence naming the field in backticks and ending with the value."""

    @pytest.mark.parametrize(
        ("args", "kwargs", "path", "text"),
        [
            (
                ("A", "Hi", "robot"),
                {},
                "role",
                "`role` must be one of 'user', 'assistant', 'system', not 'robot'.",
            ),
            (
                ("A", "Hi", None),
                {},
                "role",
                "`role` must be one of 'user', 'assistant', 'system', not None.",
            ),
            ((3, "Hi", "user"), {}, "name", "`name` must be a non-empty string, not 3."),
            (("", "Hi", "user"), {}, "name", "`name` must be a non-empty string, not ''."),
            (
                ("A", 5, "user"),
                {},
                "content",
                "`content` must be a string or a list of content blocks, not 5.",
            ),
            (
                ("A", {"type": "text", "text": "x"}, "user"),
                {},
                "content",
                "`content` must be a string or a list of content blocks, "
                "not {'type': 'text', 'text': 'x'}.",
            ),
            (
                ("A", ["x"], "user"),
                {},
                "content[0]",
                "`content[0]` must be a content block (a dict with a `type` field), not str: 'x'.",
            ),
            (
                (
                    "A",
                    [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}, {"type": "gif"}],
                    "user",
                ),
                {},
                "content[2].type",
                f"`content[2].type` must be one of {ALLOWED}, not 'gif'.",
            ),
            (
                ("A", [{"text": "x"}], "user"),
                {},
                "content[0].type",
                f"`content[0]` has no `type` field (one of {ALLOWED}): {{'text': 'x'}}.",
            ),
            (
                ("A", [{"type": ["text"]}], "user"),
                {},
                "content[0].type",
                f"`content[0].type` must be one of {ALLOWED}, not ['text'].",
            ),
            (
                ("A", [{"type": "text"}], "user"),
                {},
                "content[0].text",
                "`content[0]` is a text block without its `text` field: {'type': 'text'}.",
            ),
            (
                ("A", [{"type": "text", "text": 5}], "user"),
                {},
                "content[0].text",
                "`content[0].text` must be a string, not 5.",
            ),
            (
                ("A", [{"type": "thinking", "thinking": None}], "user"),
                {},
                "content[0].thinking",
                "`content[0].thinking` must be a string, not None.",
            ),
            (
                ("A", [{"type": "image", "source": "https://x/a.png"}], "user"),
                {},
                "content[0].source",
                "`content[0].source` must be a dict with `type` 'base64' or 'url', "
                "not str: 'https://x/a.png'.",
            ),
            (
                ("A", [{"type": "image", "source": {"type": "file", "path": "a.png"}}], "user"),
                {},
                "content[0].source.type",
                "`content[0].source.type` must be 'base64' or 'url', not 'file'.",
            ),
            (
                ("A", [{"type": "image", "source": {"type": "url"}}], "user"),
                {},
                "content[0].source.url",
                "`content[0].source` is a url source without its `url` field: {'type': 'url'}.",
            ),
            (
                (
                    "A",
                    [
                        {
                            "type": "audio",
                            "source": {"type": "base64", "media_type": "image/png", "data": ""},
                        }
                    ],
                    "user",
                ),
                {},
                "content[0].source.media_type",
                "`content[0].source.media_type` must be a media type of the form 'audio/...', "
                "not 'image/png'.",
            ),
            (
                ("A", tool_use(input="city=Lima"), "user"),
                {},
                "content[0].input",
                "`content[0].input` must be a dict of the tool's arguments, not str: 'city=Lima'.",
            ),
            (
                ("A", tool_use(id=1), "user"),
                {},
                "content[0].id",
                "`content[0].id` must be a non-empty string, not 1.",
            ),
            (
                ("A", tool_use(name=""), "user"),
                {},
                "content[0].name",
                "`content[0].name` must be a non-empty string, not ''.",
            ),
            (
                ("A", tool_use(input={"x": [1, float("inf")]}), "user"),
                {},
                "content[0].input.x[1]",
                "`content[0].input.x[1]` must be a finite number (JSON has no NaN or infinity), "
                "not inf.",
            ),
            (
                ("A", tool_result([{"type": "thinking", "thinking": "x"}]), "user"),
                {},
                "content[0].output[0].type",
                "`content[0].output[0].type` must be 'text', 'image', 'audio' or 'video' in a "
                "tool output, not 'thinking'.",
            ),
            (
                ("A", tool_result({1, 2}), "user"),
                {},
                "content[0].output",
                f"`content[0].output` {JSON_RULE}, not a set: {{1, 2}}.",
            ),
            (
                ("A", "Hi", "user", [1]),
                {},
                "metadata",
                "`metadata` must be a dict of JSON values or None, not list: [1].",
            ),
            (
                ("A", "Hi", "user", {"a": {"b": float("nan")}}),
                {},
                "metadata.a.b",
                "`metadata.a.b` must be a finite number (JSON has no NaN or infinity), not nan.",
            ),
            (
                ("A", "Hi", "user", {"a": (1, 2)}),
                {},
                "metadata.a",
                f"`metadata.a` {JSON_RULE}, not a tuple: (1, 2).",
            ),
            (
                ("A", "Hi", "user", {"a": [object]}),
                {},
                "metadata.a[0]",
                f"`metadata.a[0]` {JSON_RULE}, not a type: <class 'object'>.",
            ),
            (
                ("A", "Hi", "user", {"a": 1j}),
                {},
                "metadata.a",
                f"`metadata.a` {JSON_RULE}, not a complex: 1j.",
            ),
            (
                ("A", "Hi", "user", {"a": {"x", "y"} - {"x", "y"}}),
                {},
                "metadata.a",
                f"`metadata.a` {JSON_RULE}, not a set: set().",
            ),
            (
                ("A", "Hi", "user", {1: 2}),
                {},
                "metadata",
                "`metadata` keys must be strings, not 1.",
            ),
            (
                ("A", "Hi", "user"),
                {"timestamp": "2025-01-01T00:00:00"},
                "timestamp",
                "`timestamp` must be a timestamp of the form 'YYYY-MM-DD HH:MM:SS.mmm', "
                "not '2025-01-01T00:00:00'.",
            ),
            (
                ("A", "Hi", "user"),
                {"invocation_id": 5},
                "invocation_id",
                "`invocation_id` must be a string or None, not 5.",
            ),
            (("A", "Hi", "user"), {"id": 7}, "id", "`id` must be a non-empty string, not 7."),
        ],
    )
    def test_text(self, args, kwargs, path, text):
        """The text and path of each kind of rejection."""
        error = error_of(*args, **kwargs)

        assert (path, text) == (error.path, str(error))

    def test_unknown_block_field(self):
        """A field a block does not have is rejected, naming the fields it has."""
        error = error_of("A", [{"type": "text", "text": "x", "lang": "en"}], "user")

        assert (
            "`content[0].lang` is not a field of a text block (its fields are `type`, `text`, "
            "and optionally `thought_signature`); the value was 'en'."
        ) == str(error)

    @pytest.mark.parametrize(
        ("block", "path"),
        [
            ({"type": "thinking", "thinking": "x", "sig": "s"}, "content[0].sig"),
            (
                {"type": "image", "source": {"type": "url", "url": "https://x/a"}, "alt": ""},
                "content[0].alt",
            ),
            (
                {"type": "image", "source": {"type": "url", "url": "https://x/a", "w": 1}},
                "content[0].source.w",
            ),
            (
                {
                    "type": "video",
                    "source": {"type": "base64", "media_type": "video/mp4", "data": "", "size": 0},
                },
                "content[0].source.size",
            ),
            (
                {"type": "tool_use", "id": "1", "name": "f", "input": {}, "extra": 1},
                "content[0].extra",
            ),
            (
                {"type": "tool_result", "id": "1", "name": "f", "output": "", "is_error": False},
                "content[0].is_error",
            ),
        ],
    )
    def test_unknown_fields_anywhere(self, block, path):
        """Unknown fields are rejected in every block and source kind."""
        assert path == error_of("A", [block], "user").path

    def test_long_values_are_shortened(self):
        """A long offending value is shortened in the middle, with its length."""
        error = error_of("A", "Hi", "robot" * 100)

        assert str(error).startswith("`role` must be one of 'user', 'assistant', 'system', not")
        assert str(error).endswith("obotrobot' (502 characters).")
        assert len(str(error)) < 200


class TestUrls:
    """Which URLs a media source accepts."""

    @pytest.mark.parametrize(
        "url",
        [
            "http://example.com/a.png",
            "https://example.com/a.png?size=2#top",
            "data:image/png;base64,iVBORw0KGgo=",
            "data:,plain",
            "data:;base64,AAAA",
            "data:image/svg+xml,%3Csvg%3E",
            "file:///home/ada/photos/cat.png",
            "file://localhost/srv/cat%20sleeping.png",
            "file:///C:/Users/ada/cat.png",
            "/home/ada/photos/cat.png",
            "/tmp/x",
            "C:\\Users\\ada\\cat.png",
            "d:/photos/cat.png",
            "example.com/a.png",
            "photos/cat.png",
            "./cat.png",
            "../cat.png",
            "photos\\cat.png",
        ],
    )
    def test_accepted(self, url):
        """http, https and data: URLs (of the block's kind), file:// URLs and local paths,
        absolute or relative, POSIX or Windows, are accepted and kept as written, as
        AgentScope's formatters write them."""
        assert url == Msg("A", image(url), "user").content[0]["source"]["url"]  # type: ignore[typeddict-item]

    @pytest.mark.parametrize(
        "url",
        [
            "javascript:alert(1)",
            "ftp://example.com/a.png",
            "//example.com/a.png",
            "\\\\server\\share",
            "/",
            "file:/etc/passwd",
            "file://",
            "file:///",
            "file://host",
            "C:cat.png",
            "1:/cat.png",
            "HTTP://EXAMPLE.COM/A.PNG",
            "http://",
            "https://",
            "data:image/png;base64",
            "data:text/html,<script>alert(1)</script>",
            "data:audio/mpeg;base64,SUQz",
            "data:image,abc",
            "",
        ],
    )
    def test_rejected(self, url):
        """Other schemes, bare schemes, data: URLs without a comma or of another kind,
        paths to another host and file URLs without a path fail."""
        error = error_of("A", image(url), "user")

        assert ("content[0].source.url", f"`content[0].source.url` {URL_RULE}, not {url!r}.") == (
            error.path,
            str(error),
        )

    def test_data_url_kind_follows_block(self):
        """A data: URL of audio is fine in an audio block."""
        content = [{"type": "audio", "source": {"type": "url", "url": "data:audio/mpeg,x"}}]

        assert content == Msg("A", content, "user").content


class TestTimestamps:
    """Which timestamps are accepted."""

    @pytest.mark.parametrize(
        "value",
        ["2025-01-01 00:00:00.000", "2024-02-29 23:59:59.999", "0001-01-01 00:00:00.000"],
    )
    def test_accepted(self, value):
        """Real dates of the form YYYY-MM-DD HH:MM:SS.mmm are accepted."""
        assert value == Msg("A", "Hi", "user", timestamp=value).timestamp

    @pytest.mark.parametrize(
        "value",
        [
            "2025-02-30 00:00:00.000",
            "2023-02-29 00:00:00.000",
            "2025-13-01 00:00:00.000",
            "2025-01-01 24:00:00.000",
            "2025-01-01 00:60:00.000",
            "2025-01-01 00:00:60.000",
            "0000-01-01 00:00:00.000",
        ],
    )
    def test_not_real_dates(self, value):
        """Text of the right form that is no real date and time is rejected as such."""
        error = error_of("A", "Hi", "user", timestamp=value)

        assert f"`timestamp` must be a real date and time, not {value!r}." == str(error)

    @pytest.mark.parametrize(
        "value",
        [
            "2025-01-01 00:00:00",
            "2025-01-01 00:00:00.0000",
            "2025-01-01T00:00:00.000",
            "2025/01/01 00:00:00.000",
            "２０２５-01-01 00:00:00.000",
            " 2025-01-01 00:00:00.00",
            1735689600,
        ],
    )
    def test_wrong_form(self, value):
        """Anything not of the exact form is rejected with the form in the text."""
        error = error_of("A", "Hi", "user", timestamp=value)

        form = "'YYYY-MM-DD HH:MM:SS.mmm'"
        assert f"`timestamp` must be a timestamp of the form {form}, not {value!r}." == str(error)


class TestMetadata:
    """Which metadata values are accepted."""

    def test_json_values(self):
        """Every JSON value kind is accepted and kept."""
        metadata = {
            "s": "x",
            "i": -3,
            "f": 1.5,
            "b": False,
            "n": None,
            "l": [1, [2, {"k": "v"}]],
            "d": {"nested": {"deeper": []}},
            "ünï": "café",
        }

        assert metadata == Msg("A", "Hi", "user", metadata).metadata

    @pytest.mark.parametrize(
        "value", [float("nan"), float("inf"), -float("inf"), (1,), b"x", {1}, frozenset()]
    )
    def test_rejected_values(self, value):
        """NaN, infinities, tuples, bytes and sets are refused rather than converted."""
        assert "metadata.v" == error_of("A", "Hi", "user", {"v": value}).path

    def test_int_and_str_subclasses_are_rejected(self):
        """Subclasses of int and str (an IntEnum member) would not come back from a JSON
        round trip as what they were: refused."""
        from enum import IntEnum

        class Level(IntEnum):
            HIGH = 1

        assert "metadata.v" == error_of("A", "Hi", "user", {"v": Level.HIGH}).path

    def test_mappings_are_stored_as_plain_dicts(self):
        """A dict subclass or another Mapping, at the top or inside, is accepted and
        stored as a plain dict, in its own order."""
        from collections import OrderedDict
        from types import MappingProxyType

        class PluginInfo(dict):  # as ERNIE Bot Agent declares `class PluginInfo(Dict)`
            pass

        ordered = OrderedDict([("b", 1), ("a", 2)])
        ordered.move_to_end("b")
        metadata = PluginInfo(names=["x"], o=ordered, m=MappingProxyType({"k": [1]}))

        stored = Msg("A", "Hi", "user", metadata).to_dict()["metadata"]

        assert {"names": ["x"], "o": {"a": 2, "b": 1}, "m": {"k": [1]}} == stored
        assert [dict, dict, dict] == [type(stored), type(stored["o"]), type(stored["m"])]
        assert ["a", "b"] == list(stored["o"])

    def test_a_mapping_that_cannot_be_read(self):
        """A Mapping whose reading raises gives a MessageError naming its type."""
        from collections.abc import Mapping

        class Broken(Mapping):  # type: ignore[type-arg]
            def __getitem__(self, key):
                raise RuntimeError("no")

            def __iter__(self):
                return iter(["k"])

            def __len__(self):
                return 1

        error = error_of("A", "Hi", "user", {"v": Broken()})

        assert "metadata.v" == error.path
        assert "`metadata.v` is a Broken that cannot be read as a dict" in str(error)

    def test_a_value_that_is_not_a_mapping_names_its_type(self):
        """Metadata that is not a Mapping: the error names the type it is."""
        error = error_of("A", "Hi", "user", [("a", 1)])

        assert "`metadata` must be a dict of JSON values or None, not list: [('a', 1)]." == str(
            error
        )

    def test_too_deep(self):
        """Metadata nested beyond MAX_DEPTH levels raises MessageError at the level that
        is one too many; MAX_DEPTH levels are accepted."""

        def nested(levels: int) -> object:
            value: object = {}
            for _ in range(levels - 1):
                value = [value]
            return value

        accepted = Msg("A", "Hi", "user", {"v": nested(_validate.MAX_DEPTH - 1)})
        error = error_of("A", "Hi", "user", {"v": nested(_validate.MAX_DEPTH)})

        assert nested(_validate.MAX_DEPTH - 1) == accepted.metadata["v"]  # type: ignore[index]
        assert "metadata.v" + "[0]" * (_validate.MAX_DEPTH - 1) == error.path
        assert str(error).startswith(f"`{error.path}` is nested too deeply (a JSON value ")

    def test_a_cycle_is_too_deep(self):
        """A list that holds itself is refused as nested too deeply, not a RecursionError."""
        loop: list[object] = []
        loop.append(loop)

        assert "nested too deeply" in str(error_of("A", "Hi", "user", {"v": loop}))


class TestHostileValues:
    """Values no JSON file can hold are refused where they come in, with an error whose
    text can itself be built and written."""

    def test_huge_int(self):
        """An integer beyond Python's digit limit is refused; the error says its size."""
        error = error_of("A", "Hi", "user", {"n": 10**5000})

        assert "metadata.n" == error.path
        assert (
            "`metadata.n` must be an integer Python can write as text (at most 4,300 digits), "
            "not <int of 16,610 bits, too long to show>."
        ) == str(error)

    def test_large_int_within_the_limit(self):
        """An integer of 4,000 digits is kept."""
        assert 10**3999 == Msg("A", "Hi", "user", {"n": 10**3999}).metadata["n"]  # type: ignore[index]

    @pytest.mark.parametrize(
        ("kwargs", "path"),
        [
            ({"name": "A\ud800"}, "name"),
            ({"content": "x\udfff"}, None),
            ({"content": [{"type": "text", "text": "\ud800"}]}, "content[0].text"),
            ({"content": [{"type": "thinking", "thinking": "é\ud800"}]}, "content[0].thinking"),
            ({"metadata": {"k": "\ud800"}}, "metadata.k"),
            ({"metadata": {"\ud800": 1}}, "metadata"),
            ({"id": "\ud800"}, "id"),
            ({"invocation_id": "\ud800"}, "invocation_id"),
            ({"content": tool_use(id="\ud800")}, "content[0].id"),
            ({"content": tool_use(input={"q": ["\ud800"]})}, "content[0].input.q[0]"),
            ({"content": tool_result("\ud800")}, "content[0].output"),
            ({"content": image("https://x/\ud800.png")}, "content[0].source.url"),
        ],
    )
    def test_lone_surrogates(self, kwargs, path):
        """A lone surrogate anywhere is refused (the message could not be written as
        UTF-8), with the field's path; the error text is itself writable as UTF-8."""
        fields = {"name": "A", "content": "Hi", "role": "user", **kwargs}
        if path is None:  # a str content: checked where the message is built
            path = "content"
        with pytest.raises(MessageError) as info:
            Msg(**fields)

        assert path == info.value.path
        str(info.value).encode("utf-8")  # does not raise

    def test_error_text_of_an_unprintable_value(self):
        """A value whose repr raises still gets its error."""

        class Odd:
            def __repr__(self):
                raise RuntimeError("no repr")

        error = error_of("A", "Hi", "user", {"v": Odd()})

        assert "not an Odd: <Odd whose repr raised RuntimeError>." in str(error)


class TestToolBlocks:
    """tool_use and tool_result blocks."""

    def test_tool_input_must_be_dict(self):
        """A list, a string or None as tool input is rejected."""
        paths = {error_of("A", tool_use(input=value), "user").path for value in ([], "x", None)}

        assert {"content[0].input"} == paths

    @pytest.mark.parametrize(
        "output",
        [
            "sunny",
            {"temp": 25, "unit": "C"},
            42,
            None,
            [1, 2, 3],
            [],
            [{"type": "text", "text": "a"}, {"kind": "not a block"}],
        ],
    )
    def test_output_json_values(self, output):
        """Strings and any JSON value are valid tool output, kept as they are."""
        assert output == Msg("A", tool_result(output), "user").content[0]["output"]  # type: ignore[typeddict-item]

    def test_output_blocks(self):
        """A list of text and media blocks is validated as blocks."""
        output = [
            {"type": "text", "text": "a chart"},
            {"type": "image", "source": {"type": "url", "url": "https://x/c.png"}},
        ]

        assert output == Msg("A", tool_result(output), "user").content[0]["output"]  # type: ignore[typeddict-item]

    def test_output_blocks_are_validated(self):
        """A bad block inside a tool output names its nested path."""
        output = [
            {"type": "text", "text": "a chart"},
            {"type": "image", "source": {"type": "url", "url": "ftp://charts/c.png"}},
        ]

        assert "content[0].output[1].source.url" == error_of("A", tool_result(output), "user").path

    def test_local_images_in_a_tool_output(self):
        """An image found at a local path, as AgentScope's tools return it, may be part of
        a tool output."""
        output = [
            {"type": "text", "text": "the chart"},
            {"type": "image", "source": {"type": "url", "url": "/tmp/chart.png"}},
        ]

        assert output == Msg("A", tool_result(output), "user").content[0]["output"]  # type: ignore[typeddict-item]

    @pytest.mark.parametrize(
        ("block", "optional"),
        [
            ({"type": "text", "text": "Hi"}, {"thought_signature": "c2ln"}),
            ({"type": "thinking", "thinking": "Hmm"}, {"signature": "EqQB"}),
            (
                {"type": "tool_use", "id": "1", "name": "f", "input": {"a": 1}},
                {"raw_input": '{"a": 1}'},
            ),
            (
                {"type": "tool_use", "id": "1", "name": "f", "input": {"a": 1}},
                {"raw_input": '{"a": 1', "thought_signature": "c2ln"},
            ),
        ],
    )
    def test_optional_fields_are_kept(self, block, optional):
        """The optional fields AgentScope 1.x writes are kept through to_dict, from_dict
        and JSON, even a raw_input that does not parse."""
        msg = Msg("A", [{**block, **optional}], "assistant")

        assert [{**block, **optional}] == Msg.from_json(msg.to_json()).to_dict()["content"]

    @pytest.mark.parametrize(
        ("block", "path"),
        [
            (
                {"type": "text", "text": "Hi", "thought_signature": 1},
                "content[0].thought_signature",
            ),
            ({"type": "thinking", "thinking": "Hmm", "signature": None}, "content[0].signature"),
            (
                {"type": "tool_use", "id": "1", "name": "f", "input": {}, "raw_input": {}},
                "content[0].raw_input",
            ),
        ],
    )
    def test_optional_fields_are_strings(self, block, path):
        """An optional field holds a string, or the block is refused."""
        error = error_of("A", [block], "assistant")

        assert (path, f"`{path}` must be a string, not {block[path.split('.')[1]]!r}.") == (
            error.path,
            str(error),
        )


class TestMediaTypes:
    """The inline check remembers the media types found good: a remembered type is still
    checked against the block's kind and for its own type, and nothing unhashable or
    of a str subclass gets past it."""

    @staticmethod
    def media(kind: str, media_type: object) -> list[dict[str, object]]:
        source = {"type": "base64", "media_type": media_type, "data": "AAAA"}
        return [{"type": kind, "source": source}]

    def test_a_remembered_type_is_checked_against_the_kind(self):
        Msg("A", self.media("image", "image/webp"), "user")  # now remembered

        error = error_of("A", self.media("audio", "image/webp"), "user")

        assert error.path == "content[0].source.media_type"
        assert "'audio/...'" in str(error)

    @pytest.mark.parametrize(
        "media_type",
        [["image/png"], {"image/png": 1}, type("Text", (str,), {})("image/png")],
        ids=["list", "dict", "str subclass"],
    )
    def test_values_that_are_not_str(self, media_type):
        Msg("A", self.media("image", "image/png"), "user")  # "image/png" remembered

        for _ in range(2):  # a first and a second look
            error = error_of("A", self.media("image", media_type), "user")
            assert error.path == "content[0].source.media_type"
            assert "must be a string" in str(error)

    def test_in_a_tool_output(self):
        output = [{"type": "image", "source": {"type": "base64", "media_type": [], "data": ""}}]

        error = error_of("A", tool_result(output), "user")

        assert error.path == "content[0].output[0].source.media_type"

    def test_the_memory_is_bounded(self):
        for number in range(_validate._GOOD_MEDIA_TYPES_LIMIT + 10):
            Msg("A", self.media("image", f"image/x-{number}"), "user")

        assert len(_validate._GOOD_MEDIA_TYPES) <= _validate._GOOD_MEDIA_TYPES_LIMIT


class TestOptimizedPython:
    """The checks do not rely on ``assert``."""

    def test_python_dash_o(self):
        """Under ``python -O`` bad input still raises MessageError with the same text."""
        script = textwrap.dedent(
            """
            from agentmsg import Msg, MessageError
            cases = [
                lambda: Msg("A", "Hi", "robot"),
                lambda: Msg(1, "Hi", "user"),
                lambda: Msg("A", [{"type": "gif"}], "user"),
                lambda: Msg("A", "Hi", "user", {"x": float("nan")}),
                lambda: Msg.from_dict({"name": "A"}),
                lambda: Msg.from_dict([]),
            ]
            for case in cases:
                try:
                    case()
                except MessageError as error:
                    print(error.path)
                else:
                    print("accepted")
            print(__debug__)
            """
        )

        result = subprocess.run(
            [sys.executable, "-O", "-c", script],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )

        expected = ["role", "name", "content[0].type", "metadata.x", "role", "", "False"]
        assert expected == result.stdout.splitlines()
