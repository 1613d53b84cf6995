"""Tests for :class:`agentmsg.Msg` (``src/agentmsg/_message.py``)."""

from __future__ import annotations

import copy
import json
import pickle
import re
import string

import pytest

import agentmsg
from agentmsg import (
    ImageBlock,
    MediaError,
    MessageAttributeError,
    MessageError,
    Msg,
    TextBlock,
    deterministic,
)
from samples import PNG_B64, one_of_each

TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}")


class TestMsgInit:
    """Building a message."""

    def test_keyword_fields_are_kept(self):
        """The name, role and content given are the message's fields."""
        msg = Msg(name="Jarvis", role="assistant", content="Hi! How can I help you?")

        assert ("Jarvis", "assistant", "Hi! How can I help you?") == (
            msg.name,
            msg.role,
            msg.content,
        )

    def test_positional_order_is_name_content_role(self):
        """Positional order: name, content, role, metadata, timestamp, invocation_id."""
        msg = Msg("Ada", "Hello", "user", {"k": 1}, "2025-03-04 05:06:07.089", "inv-1")

        assert {
            "name": "Ada",
            "content": "Hello",
            "role": "user",
            "metadata": {"k": 1},
            "timestamp": "2025-03-04 05:06:07.089",
            "invocation_id": "inv-1",
        } == {
            key: getattr(msg, key)
            for key in ("name", "content", "role", "metadata", "timestamp", "invocation_id")
        }

    def test_id_is_keyword_only(self):
        """``id`` cannot be passed positionally."""
        with pytest.raises(TypeError):
            Msg("Ada", "Hello", "user", None, None, None, "the-id")  # type: ignore[misc]

    @pytest.mark.parametrize("role", ["user", "assistant", "system"])
    def test_each_role_is_accepted(self, role):
        """The three roles are accepted."""
        assert role == Msg("Ada", "Hello", role).role

    def test_defaults(self):
        """metadata and invocation_id default to None; id and timestamp are generated."""
        msg = Msg("Ada", "Hello", "user")

        assert (None, None) == (msg.metadata, msg.invocation_id)
        assert 22 == len(msg.id)
        assert set(msg.id) <= set(string.ascii_letters + string.digits + "-_")
        assert TIMESTAMP.fullmatch(msg.timestamp)

    def test_fresh_ids_differ(self):
        """Each message gets its own id."""
        ids = {Msg("Ada", "Hello", "user").id for _ in range(200)}

        assert 200 == len(ids)

    def test_given_id_and_timestamp_are_kept(self):
        """An explicit id and timestamp are used as they are."""
        msg = Msg("Ada", "Hi", "user", timestamp="1999-12-31 23:59:59.999", id="my-id")

        assert ("my-id", "1999-12-31 23:59:59.999") == (msg.id, msg.timestamp)

    def test_every_block_type_is_accepted(self):
        """A content list may hold each of the seven block types."""
        blocks = one_of_each()

        assert blocks == Msg("Jarvis", blocks, "assistant").content

    def test_empty_content_list_is_accepted(self):
        """An empty list is valid content (a message with no blocks)."""
        assert [] == Msg("Ada", [], "user").content

    def test_content_list_is_copied(self):
        """Changing the list (or a block in it) after building leaves the message alone."""
        blocks = [TextBlock(type="text", text="before")]
        msg = Msg("Ada", blocks, "user")

        blocks[0]["text"] = "after"
        blocks.append(TextBlock(type="text", text="more"))

        assert [{"type": "text", "text": "before"}] == msg.content

    def test_metadata_is_copied(self):
        """Changing the metadata dict after building leaves the message alone."""
        metadata = {"scores": [1, 2], "nested": {"a": 1}}
        msg = Msg("Ada", "Hi", "user", metadata)

        metadata["scores"].append(3)
        metadata["nested"]["a"] = 2
        metadata["new"] = True

        assert {"scores": [1, 2], "nested": {"a": 1}} == msg.metadata

    def test_str_subclass_is_stored_as_str(self):
        """A ``str`` subclass given as name or content is stored as a plain ``str``."""

        class Name(str):
            pass

        msg = Msg(Name("Ada"), Name("Hello"), "user")

        assert (str, str) == (type(msg.name), type(msg.content))


class TestMsgToDict:
    """``Msg.to_dict``."""

    def test_key_order_without_invocation_id(self):
        """Keys come as id, name, role, content, metadata, timestamp."""
        data = Msg("Ada", "Hi", "user").to_dict()

        assert ["id", "name", "role", "content", "metadata", "timestamp"] == list(data)

    def test_key_order_with_invocation_id(self):
        """invocation_id comes last, and only when it is set."""
        data = Msg("Ada", "Hi", "user", invocation_id="inv-9").to_dict()

        assert [
            "id",
            "name",
            "role",
            "content",
            "metadata",
            "timestamp",
            "invocation_id",
        ] == list(data)
        assert "inv-9" == data["invocation_id"]

    def test_values(self):
        """The dict holds the message's values."""
        msg = Msg("Ada", one_of_each(), "user", {"k": [1]}, id="x1")

        assert {
            "id": "x1",
            "name": "Ada",
            "role": "user",
            "content": one_of_each(),
            "metadata": {"k": [1]},
            "timestamp": msg.timestamp,
        } == msg.to_dict()

    def test_mutating_the_result_leaves_the_message_alone(self):
        """The dict is a deep copy: changing its content and metadata changes nothing."""
        msg = Msg("Ada", one_of_each(), "user", {"tags": ["a"]})
        before = msg.to_dict()

        data = msg.to_dict()
        data["content"][0]["text"] = "changed"
        data["content"][5]["input"]["city"] = "Quito"
        data["content"][2]["source"]["url"] = "https://example.com/other.png"
        data["content"].pop()
        data["metadata"]["tags"].append("b")
        data["name"] = "Eve"

        assert before == msg.to_dict()

    def test_json_serializable(self):
        """The dict is accepted by :func:`json.dumps` as it is."""
        msg = Msg("Ada", one_of_each(), "user", {"k": None})

        assert msg.to_dict() == json.loads(json.dumps(msg.to_dict()))


class TestMsgFromDict:
    """``Msg.from_dict``."""

    def test_round_trip(self):
        """A message rebuilt from its dict equals it."""
        msg = Msg("Ada", one_of_each(), "user", {"k": 1}, invocation_id="inv")

        assert msg == Msg.from_dict(msg.to_dict())

    def test_missing_optional_fields_are_made(self):
        """Only name, role and content are required; id and timestamp are generated."""
        msg = Msg.from_dict({"name": "Ada", "role": "user", "content": "Hi"})

        assert (None, None, 22) == (msg.metadata, msg.invocation_id, len(msg.id))
        assert TIMESTAMP.fullmatch(msg.timestamp)

    def test_input_dict_is_not_shared(self):
        """Changing the input dict after loading leaves the message alone."""
        data = Msg("Ada", [TextBlock(type="text", text="a")], "user").to_dict()
        msg = Msg.from_dict(data)

        data["content"][0]["text"] = "b"

        assert "a" == msg.get_text_content()

    @pytest.mark.parametrize("field", ["name", "role", "content"])
    def test_missing_required_field(self, field):
        """A missing required key raises MessageError naming it."""
        data = {"name": "Ada", "role": "user", "content": "Hi"}
        del data[field]

        with pytest.raises(MessageError) as info:
            Msg.from_dict(data)

        assert field == info.value.path
        assert str(info.value).startswith(f"The message dict has no `{field}` field: ")

    def test_unknown_key(self):
        """A key that is not a message field is rejected, with its value."""
        data = {"name": "Ada", "role": "user", "content": "Hi", "url": "x"}

        with pytest.raises(MessageError) as info:
            Msg.from_dict(data)

        assert (
            "`url` is not a message field (the fields are id, name, role, content, "
            "metadata, timestamp, invocation_id); its value was 'x'."
        ) == str(info.value)

    @pytest.mark.parametrize("data", [None, [], "text", 3, ("name", "Ada")])
    def test_not_a_dict(self, data):
        """Anything but a dict raises MessageError, not AttributeError or TypeError."""
        with pytest.raises(MessageError, match=r"^A message dict must be a dict, not "):
            Msg.from_dict(data)

    def test_invalid_value_names_its_path(self):
        """A bad nested value raises MessageError naming its field path."""
        data = Msg("Ada", one_of_each(), "user").to_dict()
        data["content"][2]["source"]["url"] = "ftp://example.com/a.png"

        with pytest.raises(MessageError) as info:
            Msg.from_dict(data)

        assert "content[2].source.url" == info.value.path


class TestMsgJson:
    """``Msg.to_json`` and ``Msg.from_json``."""

    def test_round_trip(self):
        """A message rebuilt from its JSON equals it."""
        msg = Msg("Ada", one_of_each(), "user", {"k": [1.5, None]})

        assert msg == Msg.from_json(msg.to_json())

    def test_non_ascii_stays_readable(self):
        """Non-ASCII text is written as it is, not as ``\\u`` escapes."""
        msg = Msg("助手", "El pronóstico: 22 °C, 晴れ", "assistant")

        text = msg.to_json()

        assert '"name": "助手"' in text
        assert '"content": "El pronóstico: 22 °C, 晴れ"' in text
        assert "\\u" not in text

    def test_indent(self):
        """``indent`` is passed to the JSON writer."""
        msg = Msg("Ada", "Hi", "user")

        assert json.dumps(msg.to_dict(), indent=2, ensure_ascii=False) == msg.to_json(indent=2)

    def test_bytes_are_accepted(self):
        """UTF-8 bytes are read like text."""
        msg = Msg("Ada", "Grüße", "user")

        assert msg == Msg.from_json(msg.to_json().encode())

    @pytest.mark.parametrize("text", ["{", "", "not json", b"\xff\xfe", "[" * 100_000])
    def test_invalid_json(self, text):
        """Text that is not JSON (or too deep to read) raises MessageError."""
        with pytest.raises(MessageError, match=r"^The text is not valid JSON "):
            Msg.from_json(text)

    def test_not_text(self):
        """A value that is neither str nor bytes raises MessageError."""
        with pytest.raises(MessageError):
            Msg.from_json(42)  # type: ignore[arg-type]

    @pytest.mark.parametrize(
        "payload",
        [
            PNG_B64 * 40,  # long base64 text, copied as it is
            PNG_B64 * 20 + '"\\\n\x00\x1f\x7f é 中' + PNG_B64 * 20,  # must be escaped
            "short",
        ],
    )
    def test_long_payloads_are_written_as_the_encoder_writes_them(self, payload):
        """A message holding long media payloads (base64 data, data: URLs, inside tool
        outputs too) gives the same text as the JSON module, with or without escapes."""
        image = {"type": "image", "source": {"type": "base64", "media_type": "image/png"}}
        image["source"]["data"] = payload
        url = {"type": "url", "url": "data:image/png;base64," + payload.replace(",", "")}
        blocks = [
            {"type": "text", "text": "a chart and a photo"},
            image,
            {"type": "video", "source": {"type": "url", "url": "https://e.com/" + "v" * 300}},
            {"type": "audio", "source": url | {"url": url["url"].replace("image", "audio")}},
            {
                "type": "tool_result",
                "id": "c",
                "name": "plot",
                "output": [{"type": "text", "text": "x"}, image],
            },
            {
                "type": "tool_result",
                "id": "d",
                "name": "raw",
                "output": [1, {"type": "image"}, None, {"type": ["image"]}, {"type": {}}],
            },
            {
                "type": "tool_result",
                "id": "e",
                "name": "obj",
                "output": {"type": "image", "n": 2.5},
            },
        ]
        msg = Msg("Ada", blocks, "user", {"tags": ["a", True]}, invocation_id="run-1")
        # A source put in place through the checked containers keeps its key order.
        msg.content[1]["source"] = {"data": payload, "type": "base64", "media_type": "image/png"}

        text = msg.to_json()

        assert json.dumps(msg.to_dict(), ensure_ascii=False) == text
        assert msg == Msg.from_json(text)

    @pytest.mark.parametrize(
        "text", [' {"name": "Ada", "role": "user", "content": "Hi"}\n', "\t{}"]
    )
    def test_whitespace_around_the_json(self, text):
        """Whitespace around the value is read as the JSON module reads it."""
        if text == "\t{}":
            with pytest.raises(MessageError, match=r"has no `name` field"):
                Msg.from_json(text)
        else:
            assert "Hi" == Msg.from_json(text).content

    @pytest.mark.parametrize("text", ['{"name": "Ada"} {}', '{"name": "Ada"}x', "\ufeff{}"])
    def test_text_after_or_before_the_json(self, text):
        """Extra data after the value, or a byte-order mark before it, is refused."""
        with pytest.raises(
            MessageError, match=r"^The text is not valid JSON \((Extra data|Unexpected UTF-8 BOM)"
        ):
            Msg.from_json(text)

    def test_json_nan_is_rejected(self):
        """``NaN`` in the JSON text is refused as a metadata value."""
        text = '{"name": "Ada", "role": "user", "content": "Hi", "metadata": {"x": NaN}}'

        with pytest.raises(MessageError) as info:
            Msg.from_json(text)

        assert "metadata.x" == info.value.path


class TestMsgGetTextContent:
    """``Msg.get_text_content``."""

    def test_str_content(self):
        """A string content is returned as it is."""
        assert "Hello" == Msg("Ada", "Hello", "user").get_text_content()

    def test_text_blocks_joined_with_newline(self):
        """The text blocks are joined with a newline; other blocks are skipped."""
        msg = Msg("Jarvis", [*one_of_each(), TextBlock(type="text", text="Bye.")], "user")

        assert "Here is the forecast.\nBye." == msg.get_text_content()

    def test_separator(self):
        """``separator`` joins the text blocks."""
        blocks = [TextBlock(type="text", text="a"), TextBlock(type="text", text="b")]

        assert "a | b" == Msg("Ada", blocks, "user").get_text_content(separator=" | ")

    def test_no_text_block(self):
        """None when no block is a text block."""
        blocks = [agentmsg.ThinkingBlock(type="thinking", thinking="hmm")]

        assert None is Msg("Ada", blocks, "assistant").get_text_content()

    def test_separator_must_be_str(self):
        """A non-string separator raises MessageError."""
        with pytest.raises(MessageError, match=r"^`separator` must be a string, not 5\.$"):
            Msg("Ada", "Hi", "user").get_text_content(5)  # type: ignore[arg-type]


class TestMsgGetContentBlocks:
    """``Msg.get_content_blocks``."""

    def test_all_blocks(self):
        """Without a type, every block is returned."""
        assert one_of_each() == Msg("A", one_of_each(), "user").get_content_blocks()

    def test_one_type(self):
        """A type name selects the blocks of that type."""
        msg = Msg("A", one_of_each(), "user")

        assert [one_of_each()[5]] == msg.get_content_blocks("tool_use")

    def test_list_of_types(self):
        """A list of type names selects blocks of any of them, in content order."""
        msg = Msg("A", one_of_each(), "user")

        expected = [one_of_each()[i] for i in (2, 3, 4)]
        assert expected == msg.get_content_blocks(["video", "image", "audio"])

    def test_str_content_is_a_text_block(self):
        """A string content counts as one text block."""
        msg = Msg("A", "Hello", "user")

        assert [{"type": "text", "text": "Hello"}] == msg.get_content_blocks()
        assert [{"type": "text", "text": "Hello"}] == msg.get_content_blocks("text")
        assert [] == msg.get_content_blocks("image")

    def test_returns_copies(self):
        """Changing the returned blocks leaves the message alone."""
        msg = Msg("A", one_of_each(), "user")

        for block in msg.get_content_blocks():
            block.clear()

        assert one_of_each() == msg.content

    @pytest.mark.parametrize("block_type", ["picture", ["text", "picture"], [["text"]]])
    def test_unknown_type(self, block_type):
        """An unknown type name raises MessageError listing the known ones."""
        with pytest.raises(MessageError, match="'tool_result'") as info:
            Msg("A", "Hi", "user").get_content_blocks(block_type)

        assert "block_type" == info.value.path

    def test_not_a_name(self):
        """A block_type that is neither a name nor a list of names raises MessageError."""
        with pytest.raises(MessageError) as info:
            Msg("A", "Hi", "user").get_content_blocks(5)  # type: ignore[arg-type]

        assert "`block_type` must be a block type name or a list of them, not 5." == str(info.value)


class TestMsgHasContentBlocks:
    """``Msg.has_content_blocks``."""

    def test_present_and_absent(self):
        """True when a block of the type is there, False otherwise."""
        msg = Msg("A", [TextBlock(type="text", text="x")], "user")

        assert (True, False, True) == (
            msg.has_content_blocks("text"),
            msg.has_content_blocks("image"),
            msg.has_content_blocks(["image", "text"]),
        )

    def test_any_block(self):
        """Without a type: whether there is any block at all."""
        assert (True, False) == (
            Msg("A", [TextBlock(type="text", text="x")], "user").has_content_blocks(),
            Msg("A", [], "user").has_content_blocks(),
        )

    def test_str_content_is_a_text_block(self):
        """A string content counts as a text block."""
        msg = Msg("A", "Hello", "user")

        assert (True, True, False) == (
            msg.has_content_blocks(),
            msg.has_content_blocks("text"),
            msg.has_content_blocks("tool_use"),
        )

    def test_unknown_type(self):
        """An unknown type name raises MessageError."""
        with pytest.raises(MessageError):
            Msg("A", "Hi", "user").has_content_blocks("gif")  # type: ignore[arg-type]


class TestMsgEquality:
    """Messages compare by value."""

    def test_equal_values(self):
        """Two messages with the same field values are equal."""
        first = Msg("A", one_of_each(), "user", {"k": 1}, id="i")
        second = Msg("A", one_of_each(), "user", {"k": 1}, id="i")
        second.timestamp = first.timestamp

        assert first == second

    @pytest.mark.parametrize(
        ("field", "value"),
        [
            ("id", "other"),
            ("name", "B"),
            ("role", "system"),
            ("content", "other"),
            ("metadata", {"k": 2}),
            ("timestamp", "2000-01-01 00:00:00.000"),
            ("invocation_id", "inv"),
        ],
    )
    def test_one_field_differs(self, field, value):
        """Messages that differ in any one field are not equal."""
        first = Msg("A", "Hi", "user", {"k": 1}, id="i")
        second = Msg.from_dict(first.to_dict())
        setattr(second, field, value)

        assert first != second

    def test_other_types(self):
        """A message is never equal to its dict or to another type."""
        msg = Msg("A", "Hi", "user")

        assert msg != msg.to_dict()
        assert msg != "Hi"

    def test_unhashable(self):
        """Messages are mutable and compared by value, so they are not hashable."""
        with pytest.raises(TypeError):
            hash(Msg("A", "Hi", "user"))


class TestMsgRepr:
    """``repr(msg)``."""

    def test_shows_fields(self):
        """The repr shows every set field in to_dict order."""
        msg = Msg("A", "Hi", "user", id="i", timestamp="2025-01-01 00:00:00.000")

        assert (
            "Msg(id='i', name='A', role='user', content='Hi', metadata=None, "
            "timestamp='2025-01-01 00:00:00.000')"
        ) == repr(msg)

    def test_invocation_id_shown_when_set(self):
        """invocation_id appears only when it is set."""
        msg = Msg("A", "Hi", "user", invocation_id="inv-1")

        assert repr(msg).endswith(", invocation_id='inv-1')")

    def test_large_base64_is_abbreviated(self):
        """A long base64 payload is shortened, with its length."""
        data = "A" * 100_000
        source = agentmsg.Base64Source(type="base64", media_type="image/png", data=data)
        msg = Msg("A", [ImageBlock(type="image", source=source)], "user")

        text = repr(msg)

        assert len(text) < 400
        assert "... (100,000 characters)" in text
        assert data == msg.content[0]["source"]["data"]  # type: ignore[typeddict-item]

    def test_long_data_url_is_abbreviated(self):
        """A long data: URL is shortened too."""
        url = "data:image/png;base64," + "A" * 5000
        msg = Msg(
            "A", [ImageBlock(type="image", source=agentmsg.URLSource(type="url", url=url))], "user"
        )

        assert "... (5,022 characters)" in repr(msg)

    def test_base64_inside_tool_output_is_abbreviated(self):
        """Media blocks inside a tool result's output are shortened as well."""
        image = ImageBlock(
            type="image",
            source=agentmsg.Base64Source(type="base64", media_type="image/png", data="B" * 3000),
        )
        block = agentmsg.ToolResultBlock(type="tool_result", id="1", name="draw", output=[image])

        assert "... (3,000 characters)" in repr(Msg("A", [block], "user"))

    def test_other_values_are_not_abbreviated(self):
        """Text, tool input and short payloads are shown in full."""
        long_text = "word " * 100
        blocks = [
            TextBlock(type="text", text=long_text),
            agentmsg.ToolUseBlock(type="tool_use", id="1", name="f", input={"data": long_text}),
            ImageBlock(
                type="image",
                source=agentmsg.Base64Source(type="base64", media_type="image/png", data=PNG_B64),
            ),
        ]

        text = repr(Msg("A", blocks, "user"))

        assert 2 == text.count(repr(long_text))
        assert repr(PNG_B64) in text
        assert "characters)" not in text


class TestMsgAssignment:
    """Assigning and deleting fields."""

    def test_valid_assignment(self):
        """A valid value can be assigned to each field."""
        msg = Msg("A", "Hi", "user")

        msg.name = "B"
        msg.role = "system"
        msg.content = [TextBlock(type="text", text="x")]
        msg.metadata = {"k": 1}
        msg.timestamp = "2024-02-29 12:00:00.000"
        msg.invocation_id = "inv"
        msg.id = "new-id"

        assert {
            "id": "new-id",
            "name": "B",
            "role": "system",
            "content": [{"type": "text", "text": "x"}],
            "metadata": {"k": 1},
            "timestamp": "2024-02-29 12:00:00.000",
            "invocation_id": "inv",
        } == msg.to_dict()

    @pytest.mark.parametrize(
        ("field", "value", "path"),
        [
            ("role", "robot", "role"),
            ("name", 3, "name"),
            ("content", [{"type": "text"}], "content[0].text"),
            ("metadata", {"x": float("nan")}, "metadata.x"),
            ("timestamp", "2025-02-30 00:00:00.000", "timestamp"),
            ("invocation_id", 5, "invocation_id"),
            ("id", "", "id"),
        ],
    )
    def test_invalid_assignment(self, field, value, path):
        """Assigning an invalid value raises MessageError and keeps the old value."""
        msg = Msg("A", "Hi", "user")
        before = msg.to_dict()

        with pytest.raises(MessageError) as info:
            setattr(msg, field, value)

        assert path == info.value.path
        assert before == msg.to_dict()

    def test_assigned_list_is_copied(self):
        """An assigned content list is copied like a constructor argument."""
        msg = Msg("A", "Hi", "user")
        blocks = [TextBlock(type="text", text="x")]
        msg.content = blocks

        blocks[0]["text"] = "y"

        assert "x" == msg.get_text_content()

    def test_unknown_attribute(self):
        """Setting an attribute that is not a field raises MessageError."""
        msg = Msg("A", "Hi", "user")

        with pytest.raises(MessageError) as info:
            msg.colour = "red"  # type: ignore[attr-defined]

        assert (
            "`colour` is not a field of Msg; the fields are id, name, role, content, "
            "metadata, timestamp, invocation_id."
        ) == str(info.value)

    def test_delete(self):
        """Fields cannot be deleted; the message stays whole."""
        msg = Msg("A", "Hi", "user")

        with pytest.raises(MessageAttributeError) as info:
            del msg.name

        assert "A" == msg.name
        assert ("`name` cannot be deleted from a message; assign a new value instead.") == str(
            info.value
        )

    def test_unknown_attribute_errors_are_attribute_errors(self):
        """Setting, reading or deleting a name that is no field raises an error that is
        both a MessageError and an AttributeError, naming the fields."""
        msg = Msg("A", "Hi", "user")
        expected = (
            "`colour` is not a field of Msg; the fields are id, name, role, content, "
            "metadata, timestamp, invocation_id."
        )

        for action in (
            lambda: setattr(msg, "colour", "red"),
            lambda: msg.colour,  # type: ignore[attr-defined]
            lambda: delattr(msg, "colour"),
        ):
            with pytest.raises(MessageAttributeError) as info:
                action()
            assert (expected, "colour") == (str(info.value), info.value.path)
            assert isinstance(info.value, AttributeError)

    def test_getattr_default_and_hasattr(self):
        """``getattr`` with a default and ``hasattr`` work as on any Python object."""
        msg = Msg("A", "Hi", "user")

        assert ("red", False, True) == (
            getattr(msg, "colour", "red"),
            hasattr(msg, "colour"),
            hasattr(msg, "content"),
        )


class TestMsgCopying:
    """copy, deepcopy and pickle."""

    @pytest.mark.parametrize("clone", [copy.copy, copy.deepcopy])
    def test_copy(self, clone):
        """A copied message equals the original."""
        msg = Msg("A", one_of_each(), "user", {"k": [1]}, invocation_id="i")

        assert msg == clone(msg)

    def test_deepcopy_is_independent(self):
        """Changing a deep copy's content leaves the original alone."""
        msg = Msg("A", [TextBlock(type="text", text="x")], "user")
        other = copy.deepcopy(msg)

        other.content[0]["text"] = "y"  # type: ignore[index,typeddict-unknown-key]

        assert "x" == msg.get_text_content()

    def test_pickle(self):
        """A message survives pickling."""
        msg = Msg("A", one_of_each(), "user", {"k": 1})

        assert msg == pickle.loads(pickle.dumps(msg))


class TestMsgCheckMedia:
    """``Msg.check_media`` (the media checks themselves are in test_media.py)."""

    def test_base64_is_not_decoded_when_building(self):
        """Building a message accepts base64 text that is not real data."""
        source = agentmsg.Base64Source(
            type="base64", media_type="image/jpeg", data="/9j/4AAQSkZ..."
        )

        msg = Msg("A", [ImageBlock(type="image", source=source)], "user")

        assert "/9j/4AAQSkZ..." == msg.content[0]["source"]["data"]  # type: ignore[typeddict-item]

    def test_check_media_decodes(self):
        """check_media rejects the same payload."""
        source = agentmsg.Base64Source(
            type="base64", media_type="image/jpeg", data="/9j/4AAQSkZ..."
        )
        msg = Msg("A", [ImageBlock(type="image", source=source)], "user")

        with pytest.raises(MediaError) as info:
            msg.check_media()

        assert "content[0].source.data" == info.value.path

    def test_valid_media_passes(self):
        """A payload whose bytes match its media type passes, as does a str content."""
        source = agentmsg.Base64Source(type="base64", media_type="image/png", data=PNG_B64)
        msg = Msg("A", [ImageBlock(type="image", source=source)], "user")

        assert None is msg.check_media()
        assert None is Msg("A", "Hi", "user").check_media()


class TestMsgDeterministic:
    """Messages built inside ``deterministic()`` (the mode itself is in test_ids.py)."""

    def test_same_seed_same_messages(self):
        """The same seed gives the same ids and timestamps, so equal messages."""
        with deterministic(seed=3):
            first = [Msg("A", "Hi", "user") for _ in range(3)]
        with deterministic(seed=3):
            second = [Msg("A", "Hi", "user") for _ in range(3)]

        assert first == second
        assert [
            "2025-01-01 09:00:00.000",
            "2025-01-01 09:00:01.000",
            "2025-01-01 09:00:02.000",
        ] == [msg.timestamp for msg in first]


class TestStoredFields:
    """The accessors the provider conversions read messages with."""

    def test_they_return_what_the_properties_return(self) -> None:
        """Sender, role, content and metadata are the very values the properties give."""
        from agentmsg._message import name_role_content, stored_content, stored_metadata

        msg = Msg("Ana", [{"type": "text", "text": "Hola"}], "user", metadata={"k": [1]})
        assert ("Ana", "user", [{"type": "text", "text": "Hola"}]) == name_role_content(msg)
        assert {"k": [1]} == stored_metadata(msg)
        assert msg.content is stored_content(msg)  # after the first read: the checked list
        assert msg.metadata is stored_metadata(msg)
        assert name_role_content(msg)[2] is msg.content

    def test_they_make_no_checked_container(self) -> None:
        """Before ``content`` or ``metadata`` is read, they hand out the plain list and dict
        the message stores: reading through them costs no conversion."""
        from agentmsg._message import name_role_content, stored_content, stored_metadata

        msg = Msg("Ana", [{"type": "text", "text": "Hola"}], "user", metadata={"k": 1})
        assert list is type(stored_content(msg))
        assert list is type(name_role_content(msg)[2])
        assert dict is type(stored_metadata(msg))
        assert None is stored_metadata(Msg("Ana", "Hola", "user"))
        assert "Hola" == stored_content(Msg("Ana", "Hola", "user"))


class TestMappingsAndPaths:
    """What Python code really passes: any Mapping where a dict goes, relative paths as
    local files; a message without metadata keeps None."""

    def test_blocks_and_inputs_as_mappings(self):
        """Blocks, sources and tool inputs given as dict subclasses or OrderedDicts are
        stored as plain dicts and round-trip through JSON."""
        from collections import OrderedDict

        class Block(dict):
            pass

        content = [
            Block(type="text", text="Hi"),
            Block(type="image", source=OrderedDict(type="url", url="./image.png")),
            Block(type="tool_use", id="c", name="f", input=OrderedDict(q=Block(a=1))),
        ]
        msg = Msg("A", content, "assistant")
        stored = msg.to_dict()["content"]

        assert [dict, dict, dict] == [type(block) for block in stored]
        assert (dict, dict) == (type(stored[1]["source"]), type(stored[2]["input"]["q"]))
        assert msg == Msg.from_json(msg.to_json())

    def test_from_dict_takes_a_mapping(self):
        """from_dict reads any Mapping, as a dict."""
        from types import MappingProxyType

        data = Msg("A", "Hi", "user").to_dict()

        assert Msg.from_dict(data) == Msg.from_dict(MappingProxyType(data))

    def test_a_relative_path_is_kept_as_written(self):
        """``URLSource(url="./image.png")``, as AgentScope's formatter tests build it, is
        accepted and kept as written through every round trip."""
        image = ImageBlock(type="image", source=agentmsg.URLSource(type="url", url="./image.png"))
        msg = Msg("A", [image], "user")

        assert "./image.png" == Msg.from_json(msg.to_json()).content[0]["source"]["url"]  # type: ignore[typeddict-item]

    def test_no_metadata_stays_none(self):
        """A message built without metadata has None, and writes null."""
        msg = Msg("A", "Hi", "user")

        assert (None, None) == (msg.metadata, json.loads(msg.to_json())["metadata"])
