"""Tests for the content block ``TypedDict``s (``src/agentmsg/_blocks.py``)."""

from __future__ import annotations

import re
import typing

import pytest

from agentmsg import (
    BLOCK_TYPES,
    AudioBlock,
    Base64Source,
    BlockType,
    ImageBlock,
    MessageError,
    Msg,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    URLSource,
    VideoBlock,
    json_schema,
)

BLOCK_CLASSES = {
    "text": TextBlock,
    "thinking": ThinkingBlock,
    "image": ImageBlock,
    "audio": AudioBlock,
    "video": VideoBlock,
    "tool_use": ToolUseBlock,
    "tool_result": ToolResultBlock,
}


class TestBlockTypedDicts:
    """The block classes describe plain dicts."""

    def test_calls_return_plain_dicts(self):
        """Calling a block class returns an ordinary dict with the given keys."""
        block = TextBlock(type="text", text="Hello")

        assert (dict, {"type": "text", "text": "Hello"}) == (type(block), block)

    def test_nested_sources(self):
        """Sources nest inside media blocks as dicts."""
        block = ImageBlock(type="image", source=URLSource(type="url", url="https://x/a.png"))

        assert {"type": "image", "source": {"type": "url", "url": "https://x/a.png"}} == block

    @pytest.mark.parametrize("kind", BLOCK_TYPES)
    def test_fields_match_the_validator(self, kind):
        """Each class's keys are exactly the fields a message accepts for that block."""
        fields = set(typing.get_type_hints(BLOCK_CLASSES[kind]))
        block = {field: "x" for field in fields} | {"type": kind}

        with pytest.raises(MessageError) as info:
            Msg("A", [{**block, "unexpected": 1}], "user")

        listed = re.search(r"\(its fields are (.*?)\)", str(info.value))
        assert listed is not None
        assert "content[0].unexpected" == info.value.path
        assert fields == set(re.findall(r"`(\w+)`", listed.group(1)))

    @pytest.mark.parametrize("kind", BLOCK_TYPES)
    def test_fields_match_the_schema(self, kind):
        """Each class's keys are the properties of the block's schema definition."""
        fields = set(typing.get_type_hints(BLOCK_CLASSES[kind]))

        assert set(json_schema()["$defs"][kind]["properties"]) == fields

    def test_source_fields_match_the_schema(self):
        """The source classes' keys are the properties of the source schemas."""
        base64_schema, url_schema = json_schema()["$defs"]["image"]["properties"]["source"]["oneOf"]

        assert (set(base64_schema["properties"]), set(url_schema["properties"])) == (
            set(typing.get_type_hints(Base64Source)),
            set(typing.get_type_hints(URLSource)),
        )


class TestBlockTypes:
    """``BLOCK_TYPES`` and ``BlockType``."""

    def test_names_and_order(self):
        """The seven type names, in documentation order."""
        assert (
            "text",
            "thinking",
            "image",
            "audio",
            "video",
            "tool_use",
            "tool_result",
        ) == BLOCK_TYPES

    def test_literal_matches_tuple(self):
        """The ``BlockType`` literal lists the same names."""
        assert BLOCK_TYPES == typing.get_args(BlockType)

    def test_each_class_declares_its_type(self):
        """Each block class's ``type`` key is the literal of its name."""
        assert {kind: (kind,) for kind in BLOCK_TYPES} == {
            kind: typing.get_args(typing.get_type_hints(cls)["type"])
            for kind, cls in BLOCK_CLASSES.items()
        }
