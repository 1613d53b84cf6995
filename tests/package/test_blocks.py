"""Tests for the content block ``TypedDict``s (``src/agentmsg/_blocks.py``)."""

from __future__ import annotations

import re
import typing

import pytest

import agentmsg
from agentmsg import BLOCK_TYPES, MessageError, Msg, json_schema
from agentmsg import _blocks as spec
from samples import one_of_each

BLOCK_CLASSES = {
    "text": agentmsg.TextBlock,
    "thinking": agentmsg.ThinkingBlock,
    "image": agentmsg.ImageBlock,
    "audio": agentmsg.AudioBlock,
    "video": agentmsg.VideoBlock,
    "tool_use": agentmsg.ToolUseBlock,
    "tool_result": agentmsg.ToolResultBlock,
}


class TestBlockTypedDicts:
    """The block classes describe plain dicts."""

    def test_calls_return_plain_dicts(self):
        """Calling a block class returns an ordinary dict with the given keys."""
        block = agentmsg.TextBlock(type="text", text="Hello")

        assert (dict, {"type": "text", "text": "Hello"}) == (type(block), block)

    def test_nested_sources(self):
        """Sources nest inside media blocks as dicts."""
        block = agentmsg.ImageBlock(
            type="image", source=agentmsg.URLSource(type="url", url="https://x/a.png")
        )

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
            set(typing.get_type_hints(agentmsg.Base64Source)),
            set(typing.get_type_hints(agentmsg.URLSource)),
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
        assert BLOCK_TYPES == typing.get_args(agentmsg.BlockType)

    def test_each_class_declares_its_type(self):
        """Each block class's ``type`` key is the literal of its name."""
        assert {kind: (kind,) for kind in BLOCK_TYPES} == {
            kind: typing.get_args(typing.get_type_hints(cls)["type"])
            for kind, cls in BLOCK_CLASSES.items()
        }


def _class_of(kind: str) -> type:
    """The ``ContentBlock`` member whose ``type`` is the literal *kind*."""
    found = [
        cls
        for cls in typing.get_args(agentmsg.ContentBlock)
        if typing.get_args(typing.get_type_hints(cls)["type"]) == (kind,)
    ]
    assert len(found) == 1, f"no TypedDict in ContentBlock for the spec's {kind!r} blocks"
    return found[0]


# The annotation each kind of value the spec names is written with in a TypedDict.
ANNOTATIONS = {
    spec.STRING: str,
    spec.NAME: str,
    spec.ARGUMENTS: dict[str, typing.Any],
    spec.SOURCE: agentmsg.MediaSource,
    spec.MEDIA_TYPE: str,
    spec.URL: str,
    spec.OUTPUT: str
    | list[typing.Union[tuple(BLOCK_CLASSES[kind] for kind in spec.OUTPUT_TYPES)]]  # noqa: UP007
    | typing.Any,
}


class TestSpec:
    """The TypedDicts, ``BLOCK_TYPES`` and the media kinds follow ``_blocks.BLOCK_SPEC``."""

    @pytest.mark.parametrize("kind", list(spec.BLOCK_SPEC))
    def test_typeddict_follows_the_spec(self, kind):
        """The block's TypedDict has the spec's fields, required and optional as the spec
        says, each annotated with the type of its kind of value."""
        cls = _class_of(kind)
        fields = spec.BLOCK_SPEC[kind]
        hints = typing.get_type_hints(cls)

        assert (
            {"type", *(field.name for field in fields if field.required)},
            {field.name for field in fields if not field.required},
            {field.name: ANNOTATIONS[field.value] for field in fields},
        ) == (
            set(cls.__required_keys__),
            set(cls.__optional_keys__),
            {name: hint for name, hint in hints.items() if name != "type"},
        )

    @pytest.mark.parametrize("source", list(spec.SOURCE_SPEC))
    def test_sources_follow_the_spec(self, source):
        """Each source TypedDict has the spec's fields, all required."""
        cls = {"base64": agentmsg.Base64Source, "url": agentmsg.URLSource}[source]
        fields = spec.SOURCE_SPEC[source]

        assert (
            {"type", *(field.name for field in fields)},
            {field.name: ANNOTATIONS[field.value] for field in fields},
        ) == (
            set(cls.__required_keys__),
            {name: hint for name, hint in typing.get_type_hints(cls).items() if name != "type"},
        )

    def test_block_types_are_the_spec_types(self):
        """``BLOCK_TYPES``, the ``BlockType`` literal and the ContentBlock members name
        the spec's types, in its order."""
        members = [
            typing.get_args(typing.get_type_hints(cls)["type"])[0]
            for cls in typing.get_args(agentmsg.ContentBlock)
        ]

        assert [list(spec.BLOCK_SPEC)] * 3 == [
            list(BLOCK_TYPES),
            list(typing.get_args(agentmsg.BlockType)),
            members,
        ]

    def test_media_kinds(self):
        """The media kinds are the blocks made of one source; tool outputs hold text and
        media blocks."""
        assert (("image", "audio", "video"), ("text", "image", "audio", "video")) == (
            spec.MEDIA_KINDS,
            spec.OUTPUT_TYPES,
        )

    @pytest.mark.parametrize("kind", list(spec.BLOCK_SPEC))
    def test_required_fields_come_first(self, kind):
        """Each spec entry lists its required fields before its optional ones: the order
        of the checks and of the JSON Schema's properties."""
        flags = [field.required for field in spec.BLOCK_SPEC[kind]]

        assert sorted(flags, reverse=True) == flags


VALID_BLOCKS = {block["type"]: block for block in one_of_each()}


class TestPydantic:
    """The blocks are pydantic fields on every supported Python (pydantic refuses a
    ``typing.TypedDict`` before 3.12)."""

    pydantic = pytest.importorskip("pydantic")

    @pytest.mark.parametrize("kind", BLOCK_TYPES)
    def test_block_field_validates_the_block(self, kind):
        """A model with a field of the block's class accepts a valid block, returning it
        as a plain dict equal to it."""
        model = self.pydantic.create_model("Model", block=(BLOCK_CLASSES[kind], ...))

        dumped = model(block=VALID_BLOCKS[kind]).model_dump()

        assert {"block": VALID_BLOCKS[kind]} == dumped

    def test_missing_required_field_is_refused(self):
        """A block without a required field fails the model's validation at that field."""
        model = self.pydantic.create_model("Model", block=(agentmsg.ToolUseBlock, ...))

        with pytest.raises(self.pydantic.ValidationError) as info:
            model(block={"type": "tool_use", "id": "1", "name": "f"})

        assert [(("block", "input"), "missing")] == [
            (error["loc"], error["type"]) for error in info.value.errors()
        ]

    def test_content_block_union_and_json_schema(self):
        """``list[ContentBlock]`` validates a mixed list, and the model's JSON Schema names
        every block class."""
        model = self.pydantic.create_model("Model", content=(list[agentmsg.ContentBlock], ...))
        content = list(VALID_BLOCKS.values())

        assert (content, {cls.__name__ for cls in BLOCK_CLASSES.values()}) == (
            model(content=content).model_dump()["content"],
            set(model.model_json_schema()["$defs"]) - {"Base64Source", "URLSource"},
        )
