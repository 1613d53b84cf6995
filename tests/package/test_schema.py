"""Tests for :func:`agentmsg.json_schema` (``src/agentmsg/_schema.py``), checked with jsonschema."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest
from samples import one_of_each

from agentmsg import MessageError, Msg, json_schema

VALIDATOR = jsonschema.Draft202012Validator(json_schema())


def sample_messages() -> list[Msg]:
    """Messages covering every block type, source kind and optional field."""
    chart = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
    }
    return [
        Msg("Jarvis", "Hi! How can I help you?", "assistant"),
        Msg(
            "Jarvis",
            [
                {"type": "text", "text": "Several kinds of media:"},
                chart,
                {
                    "type": "audio",
                    "source": {"type": "base64", "media_type": "audio/mpeg", "data": "SUQz"},
                },
                {"type": "video", "source": {"type": "url", "url": "https://x.org/v.mp4"}},
                {"type": "image", "source": {"type": "url", "url": "data:image/gif;base64,R0lG"}},
            ],
            "assistant",
            {"confidence": 0.9, "tags": ["demo"], "extra": None},
        ),
        Msg("Jarvis", one_of_each()[:2] + one_of_each()[5:6], "assistant", invocation_id="inv-7"),
        Msg(
            "system",
            [
                {"type": "tool_result", "id": "c1", "name": "get_weather", "output": "Sunny"},
                {"type": "tool_result", "id": "c2", "name": "stats", "output": {"n": [1, 2]}},
                {"type": "tool_result", "id": "c3", "name": "plot", "output": [chart]},
            ],
            "system",
        ),
        Msg("Ana", [], "user", {}, "2024-02-29 00:00:00.000", id="fixed"),
    ]


def valid_dict() -> dict[str, Any]:
    return sample_messages()[1].to_dict()


class TestJsonSchema:
    """``agentmsg.json_schema``."""

    def test_is_a_valid_schema(self):
        """The schema itself is valid JSON Schema draft 2020-12."""
        schema = json_schema()

        jsonschema.Draft202012Validator.check_schema(schema)
        assert "https://json-schema.org/draft/2020-12/schema" == schema["$schema"]

    def test_returns_a_fresh_dict(self):
        """Changing the returned schema does not change the next one."""
        first = json_schema()
        pristine = copy.deepcopy(first)
        first["properties"].clear()

        assert pristine == json_schema()

    @pytest.mark.parametrize("msg", sample_messages(), ids=lambda msg: msg.name)
    def test_real_output_validates(self, msg):
        """Real to_dict() output of every kind of message validates."""
        assert [] == list(VALIDATOR.iter_errors(msg.to_dict()))

    def test_every_block_type_has_a_definition(self):
        """There is one definition per block type."""
        assert {"text", "thinking", "image", "audio", "video", "tool_use", "tool_result"} == set(
            json_schema()["$defs"]
        )

    @pytest.mark.parametrize(
        "damage",
        [
            lambda d: d.update(role="robot"),
            lambda d: d.update(id=""),
            lambda d: d.update(id=5),
            lambda d: d.update(name=""),
            lambda d: d.update(name=3),
            lambda d: d.pop("content"),
            lambda d: d.update(extra=1),
            lambda d: d.update(timestamp="2025-01-01T00:00:00.000"),
            lambda d: d.update(timestamp="２０２５-01-01 00:00:00.000"),
            lambda d: d.update(metadata=[1]),
            lambda d: d.update(content=5),
            lambda d: d["content"].append({"type": "gif"}),
            lambda d: d["content"].append("text"),
            lambda d: d["content"][0].update(lang="en"),
            lambda d: d["content"][0].pop("text"),
            lambda d: d["content"][1]["source"].update(media_type="audio/png"),
            lambda d: d["content"][3]["source"].update(url="file:v.mp4"),
            lambda d: d["content"][3]["source"].update(url="//host/v.mp4"),
            lambda d: d["content"][3]["source"].update(url="C:v.mp4"),
            lambda d: d["content"][3]["source"].update(url="javascript:alert(1)"),
            lambda d: d["content"][3]["source"].update(url="https://"),
            lambda d: d["content"][3]["source"].update(url="data:image/png;base64,AAAA"),
            lambda d: d["content"][3]["source"].update(type="file"),
            lambda d: d["content"].append(
                {"type": "tool_use", "id": "1", "name": "f", "input": [1]}
            ),
        ],
    )
    def test_schema_and_from_dict_agree_on_rejections(self, damage):
        """Dicts that from_dict rejects are also invalid against the schema."""
        data = valid_dict()
        damage(data)

        with pytest.raises(MessageError):
            Msg.from_dict(data)
        assert not VALIDATOR.is_valid(data)

    @pytest.mark.parametrize(
        "data",
        [
            {"name": "Ada", "role": "user", "content": "Hi"},
            {"name": "Ada", "role": "user", "content": "Hi", "metadata": None, "id": None},
            {"name": "Ada", "role": "user", "content": [], "timestamp": None},
            {"name": "Ada", "role": "user", "content": "Hi", "invocation_id": None},
        ],
    )
    def test_minimal_dicts(self, data):
        """The minimal dicts from_dict accepts validate too."""
        Msg.from_dict(data)

        assert [] == list(VALIDATOR.iter_errors(data))
