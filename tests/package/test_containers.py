"""Tests for the containers a message hands out (``src/agentmsg/_containers.py``): every
change made in place through ``msg.content`` or ``msg.metadata`` is checked."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from agentmsg import MessageError, Msg
from agentmsg._containers import copy_blocks, copy_json

LIMA = {"type": "tool_use", "id": "call_1", "name": "get_weather", "input": {"city": "Lima"}}


def message() -> Msg:
    """An assistant message with a text, an image URL and a tool call, and metadata."""
    return Msg(
        "Jarvis",
        [
            {"type": "text", "text": "Checking."},
            {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
            copy.deepcopy(LIMA),
        ],
        "assistant",
        {"scores": [1, 2], "source": {"model": "m1"}},
    )


def refused(change) -> MessageError:
    """Run *change*, which must raise MessageError, and return the error."""
    with pytest.raises(MessageError) as info:
        change()
    return info.value


class TestContentList:
    """``msg.content``: adding or replacing blocks."""

    def test_is_a_list_of_dicts(self):
        """The content is a list, each block a dict, equal to the plain values."""
        msg = message()

        assert (True, True) == (
            isinstance(msg.content, list),
            all(isinstance(block, dict) for block in msg.content),
        )
        assert message().to_dict()["content"] == msg.content
        assert msg.content is msg.content

    def test_append_a_valid_block(self):
        """An appended block is checked and kept; to_dict shows it."""
        msg = message()

        msg.content.append({"type": "text", "text": "Done."})

        assert {"type": "text", "text": "Done."} == msg.to_dict()["content"][3]

    def test_append_a_bogus_block(self):
        """A block of no known type is refused at once, naming where it would go; the
        content is left as it was."""
        msg = message()
        before = msg.to_dict()

        error = refused(lambda: msg.content.append({"type": "bogus"}))

        assert ("content[3].type", before) == (error.path, msg.to_dict())
        assert str(error).startswith("`content[3].type` must be one of 'text', ")

    @pytest.mark.parametrize(
        ("change", "path"),
        [
            (lambda content: content.insert(0, {"type": "text", "text": 1}), "content[0].text"),
            (lambda content: content.insert(-1, {"type": "text"}), "content[2].text"),
            (lambda content: content.insert(99, "text"), "content[3]"),
            (lambda content: content.__setitem__(1, {"type": "image"}), "content[1].source"),
            (lambda content: content.__setitem__(-1, None), "content[2]"),
            (
                lambda content: content.__setitem__(slice(1, 2), [LIMA, {"type": "gif"}]),
                "content[2].type",
            ),
            (lambda content: content.extend([LIMA, LIMA, 5]), "content[5]"),
            (lambda content: content.__iadd__([{"type": "thinking"}]), "content[3].thinking"),
        ],
    )
    def test_every_way_of_adding_is_checked(self, change, path):
        """insert, item and slice assignment, extend and ``+=`` check each block; a bad
        one leaves the content unchanged, even when the good ones came first."""
        msg = message()
        before = msg.to_dict()

        error = refused(lambda: change(msg.content))

        assert (path, before) == (error.path, msg.to_dict())

    def test_a_replaced_block_is_copied(self):
        """The dict given is copied: changing it afterwards leaves the message alone."""
        msg = message()
        block = {"type": "text", "text": "Mine."}

        msg.content[0] = block
        block["text"] = 5

        assert "Mine." == msg.get_text_content()

    def test_removing_and_reordering(self):
        """pop, remove, del, clear, sort and reverse need no check and work as on a list."""
        msg = message()
        content = msg.content

        popped = content.pop()
        content.reverse()
        del content[0]
        content.insert(0, popped)

        assert ["tool_use", "text"] == [block["type"] for block in msg.to_dict()["content"]]
        content.clear()
        assert [] == msg.to_dict()["content"]

    def test_multiplying_copies_the_blocks(self):
        """``content *= 2`` repeats copies of the blocks, not the same dicts."""
        msg = Msg("A", [{"type": "text", "text": "a"}], "user")

        msg.content *= 2
        msg.content[0]["text"] = "b"

        assert "b\na" == msg.get_text_content()

    def test_assigning_replaces_the_list(self):
        """After ``msg.content = ...``, the old list no longer changes the message."""
        msg = message()
        old = msg.content

        msg.content = "Plain text now."
        old.append({"type": "text", "text": "ignored"})

        assert "Plain text now." == msg.content


class TestBlocksInPlace:
    """Changing a block, or a value inside one, in place."""

    def test_valid_changes(self):
        """A valid change to a field, an optional field or a nested value is kept."""
        msg = message()
        text, image, call = msg.content

        text["text"] += " Done."
        image["source"]["url"] = "/tmp/a.png"
        call["input"]["days"] = 3
        call["raw_input"] = '{"city": "Lima", "days": 3}'
        call.pop("raw_input")
        call["input"].update(unit="C")

        assert [
            {"type": "text", "text": "Checking. Done."},
            {"type": "image", "source": {"type": "url", "url": "/tmp/a.png"}},
            {**LIMA, "input": {"city": "Lima", "days": 3, "unit": "C"}},
        ] == msg.to_dict()["content"]

    @pytest.mark.parametrize(
        ("change", "path", "text"),
        [
            (
                lambda content: content[0].__setitem__("text", 5),
                "content[0].text",
                "`content[0].text` must be a string, not 5.",
            ),
            (
                lambda content: content[0].__setitem__("type", "thinking"),
                "content[0].thinking",
                "`content[0]` is a thinking block without its `thinking` field: "
                "{'type': 'thinking', 'text': 'Checking.'}.",
            ),
            (
                lambda content: content[0].__delitem__("text"),
                "content[0].text",
                "`content[0]` is a text block without its `text` field: {'type': 'text'}.",
            ),
            (
                lambda content: content[1]["source"].__setitem__("url", "ftp://x/a.png"),
                "content[1].source.url",
                "`content[1].source.url` must be an http or https URL, a data: URL holding "
                "image data, a file:// URL or an absolute file path, not 'ftp://x/a.png'.",
            ),
            (
                lambda content: content[2]["input"].__setitem__("when", {1, 2}),
                "content[2].input.when",
                "`content[2].input.when` must be a JSON value (str, number, bool, None, "
                "list or dict), not a set: {1, 2}.",
            ),
            (
                lambda content: content[2].update(extra=1),
                "content[2].extra",
                "`content[2].extra` is not a field of a tool_use block (its fields are "
                "`type`, `id`, `name`, `input`, and optionally `raw_input`, "
                "`thought_signature`); the value was 1.",
            ),
            (
                lambda content: content[2].clear(),
                "content[2].type",
                "`content[2]` has no `type` field (one of 'text', 'thinking', 'image', "
                "'audio', 'video', 'tool_use', 'tool_result'): {}.",
            ),
        ],
    )
    def test_invalid_changes_are_refused(self, change, path, text):
        """A change that would make the block invalid raises MessageError naming the
        field, and is undone."""
        msg = message()
        before = msg.to_dict()

        error = refused(lambda: change(msg.content))

        assert (path, text, before) == (error.path, str(error), msg.to_dict())

    def test_a_nested_list_is_checked(self):
        """A list inside a tool output checks what is added to it."""
        msg = Msg("A", [{"type": "tool_result", "id": "1", "name": "f", "output": [1, 2]}], "user")
        output = msg.content[0]["output"]

        output.append(3)
        error = refused(lambda: output.append(float("nan")))

        assert ("content[0].output[3]", [1, 2, 3]) == (
            error.path,
            msg.to_dict()["content"][0]["output"],
        )

    def test_a_value_put_in_is_copied(self):
        """A dict put into a block is copied, so later changes to it are not seen."""
        msg = message()
        source = {"type": "url", "url": "https://example.com/b.png"}

        msg.content[1]["source"] = source
        source["url"] = "javascript:alert(1)"

        assert "https://example.com/b.png" == msg.to_dict()["content"][1]["source"]["url"]

    def test_a_block_from_another_message_is_copied(self):
        """A block taken from one message and put into another belongs to the second."""
        first, second = message(), message()

        second.content[2]["input"] = first.content[2]["input"]
        second.content[2]["input"]["city"] = "Quito"

        assert ("Lima", "Quito") == (
            first.to_dict()["content"][2]["input"]["city"],
            second.to_dict()["content"][2]["input"]["city"],
        )

    def test_a_removed_block_is_free(self):
        """A block popped from the content is no longer checked: it changes no message."""
        msg = message()
        block = msg.content.pop(0)

        block["text"] = 42

        assert (42, None) == (block["text"], msg.get_text_content())


class TestMetadataInPlace:
    """Changing ``msg.metadata`` in place."""

    def test_valid_changes(self):
        """Keys and nested values can be added, changed and removed."""
        msg = message()

        msg.metadata["scores"].append(3)
        msg.metadata["source"]["model"] = "m2"
        msg.metadata["tags"] = ["a"]
        del msg.metadata["tags"]

        assert {"scores": [1, 2, 3], "source": {"model": "m2"}} == msg.to_dict()["metadata"]

    @pytest.mark.parametrize(
        ("change", "path"),
        [
            (lambda metadata: metadata.__setitem__("x", float("inf")), "metadata.x"),
            (lambda metadata: metadata["scores"].append(b"raw"), "metadata.scores[2]"),
            (lambda metadata: metadata.update({3: "three"}), "metadata"),
            (lambda metadata: metadata["source"].setdefault("at", (1, 2)), "metadata.source.at"),
        ],
    )
    def test_invalid_changes_are_refused(self, change, path):
        """A value JSON cannot carry is refused with the metadata path, and undone."""
        msg = message()
        before = msg.to_dict()

        error = refused(lambda: change(msg.metadata))

        assert (path, before) == (error.path, msg.to_dict())

    def test_none_stays_none(self):
        """A message without metadata has None; assign a dict to start one."""
        msg = Msg("A", "Hi", "user")

        msg.metadata = {}
        msg.metadata["topic"] = "weather"

        assert {"topic": "weather"} == msg.to_dict()["metadata"]


class TestCopies:
    """Copies of the containers are plain lists and dicts."""

    @pytest.mark.parametrize(
        "make",
        [
            copy.deepcopy,
            lambda value: pickle.loads(pickle.dumps(value)),
            copy_json,
            lambda value: json.loads(json.dumps(value)),
        ],
    )
    def test_deep_copies_are_plain(self, make):
        """A deep copy, a pickle round trip or copy_json gives plain, equal values."""
        msg = message()

        content, metadata = make(msg.content), make(msg.metadata)

        assert (list, dict, dict, dict) == (
            type(content),
            type(content[2]),
            type(content[2]["input"]),
            type(metadata),
        )
        assert (message().to_dict()["content"], message().metadata) == (content, metadata)

    def test_shallow_copies_share_the_blocks(self):
        """``copy.copy`` and ``.copy()`` give a plain list or dict holding the message's
        own blocks, as shallow copies do; changing those still changes the message."""
        msg = message()

        shallow = copy.copy(msg.content)
        shallow[0]["text"] = "Shared."
        also = msg.content[2].copy()

        assert (list, dict, "Shared.") == (type(shallow), type(also), msg.get_text_content())

    def test_copy_json_leaves_the_message_alone(self):
        """Changing the plain copy changes nothing in the message."""
        msg = message()
        plain = copy_json(msg.content)

        plain[2]["input"]["city"] = "Oslo"
        plain.append("anything")

        assert message().to_dict()["content"] == msg.to_dict()["content"]


def _containers_in(value: object) -> list[object]:
    """Every dict and list inside *value*, itself included."""
    if isinstance(value, dict):
        return [value, *(inner for item in value.values() for inner in _containers_in(item))]
    if isinstance(value, list):
        return [value, *(inner for item in value for inner in _containers_in(item))]
    return []


ONE_OF_EACH = [
    {"type": "text", "text": "Hi", "thought_signature": "c2ln"},
    {"type": "thinking", "thinking": "Hmm.", "signature": "c2ln"},
    {"type": "image", "source": {"type": "url", "url": "https://x/a.png"}},
    {"type": "audio", "source": {"type": "base64", "media_type": "audio/wav", "data": ""}},
    {"type": "video", "source": {"type": "url", "url": "/tmp/a.mp4"}},
    {"type": "tool_use", "id": "1", "name": "f", "input": {"a": [1, {"b": None}]}},
    {"type": "tool_result", "id": "1", "name": "f", "output": [{"type": "text", "text": "ok"}]},
    {"type": "tool_result", "id": "2", "name": "f", "output": {"rows": [[1, 2]]}},
]


class TestCopyBlocks:
    """copy_blocks, the deep copy of a message's blocks that ``to_dict`` makes."""

    def test_every_block_type_is_copied_deeply(self):
        """Each block type comes out equal, with no dict or list shared with the original."""
        blocks = Msg("A", ONE_OF_EACH, "user").to_dict()["content"]

        copied = copy_blocks(blocks)

        shared = {id(item) for item in _containers_in(blocks)} & {
            id(item) for item in _containers_in(copied)
        }
        assert (blocks, set()) == (copied, shared)

    def test_unknown_type_is_refused(self):
        """A block of a type the spec does not know raises MessageError naming its place,
        rather than being copied as a media block."""
        blocks = [
            {"type": "text", "text": "Hi"},
            {"type": "no_such_type", "source": {"type": "url", "url": "https://x/a.png"}},
        ]

        with pytest.raises(MessageError) as info:
            copy_blocks(blocks)

        assert ("content[1].type", True) == (
            info.value.path,
            str(info.value).endswith("not 'no_such_type'."),
        )
