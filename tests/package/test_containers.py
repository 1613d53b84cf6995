"""Tests for the containers a message hands out (``src/agentmsg/_containers.py``): every
change made in place through ``msg.content`` or ``msg.metadata`` is checked."""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from samples import one_of_each

from agentmsg import MessageError, Msg
from agentmsg._containers import CheckedDict, copy_blocks, copy_json

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
                "image data, a file:// URL or a local file path, not 'ftp://x/a.png'.",
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


def nested(levels: int) -> object:
    """A JSON value of *levels* levels: lists around an empty dict."""
    value: object = {}
    for _ in range(levels - 1):
        value = [value]
    return value


def innermost(value: object) -> dict[str, object]:
    """The dict at the bottom of :func:`nested`'s lists."""
    while isinstance(value, list):
        value = value[0]
    assert isinstance(value, dict)
    return value


class TestEveryMutationIsChecked:
    """The in-place methods that ``dict`` and ``list`` share with ``__init__`` are
    checked like any other change."""

    def test_dict_init_is_an_update(self):
        """``metadata.__init__({...})`` adds to the metadata, checked; a bad value is
        refused and nothing is added."""
        msg = message()

        msg.metadata.__init__({"tags": ["a"]}, mood="calm")  # type: ignore[misc]
        error = refused(lambda: msg.metadata.__init__({"bad": {1, 2}}))  # type: ignore[misc]

        assert "metadata.bad" == error.path
        assert {**message().metadata, "tags": ["a"], "mood": "calm"} == msg.to_dict()["metadata"]  # type: ignore[dict-item]

    def test_list_init_replaces_checked(self):
        """``list.__init__`` on a checked list replaces its items, checked."""
        msg = message()
        scores = msg.metadata["scores"]  # type: ignore[index]

        scores.__init__([7, 8])
        error = refused(lambda: scores.__init__([b"raw"]))

        assert ("metadata.scores[0]", [7, 8]) == (error.path, msg.to_dict()["metadata"]["scores"])

    def test_content_init_checks_blocks(self):
        """``msg.content.__init__([...])`` replaces the blocks, each checked."""
        msg = message()

        error = refused(lambda: msg.content.__init__([{"type": "text"}]))  # type: ignore[misc]
        msg.content.__init__([{"type": "text", "text": "Only this."}])  # type: ignore[misc]

        assert "content[0].text" == error.path
        assert [{"type": "text", "text": "Only this."}] == msg.to_dict()["content"]

    def test_a_tool_input_init_is_checked(self):
        """A tool input's ``__init__`` goes through the same check as its other changes."""
        msg = message()

        error = refused(lambda: msg.content[2]["input"].__init__(when={1}))  # type: ignore[index]

        assert ("content[2].input.when", LIMA) == (error.path, msg.to_dict()["content"][2])

    def test_a_refused_value_is_never_stored(self):
        """A value refused for its depth is not left in the message, checked or not."""
        msg = message()
        too_deep = nested(200)

        refused(lambda: msg.metadata.__setitem__("deep", too_deep))
        refused(lambda: msg.content[2]["input"].update(deep=too_deep))  # type: ignore[index]
        refused(lambda: msg.content[2].__setitem__("input", {"deep": too_deep}))

        assert (message().metadata, LIMA) == (msg.metadata, msg.content[2])
        assert (CheckedDict, CheckedDict) == (type(msg.metadata), type(msg.content[2]["input"]))  # type: ignore[index]

    def test_values_put_in_are_copies(self):
        """A list put into the metadata is copied: changing the caller's list afterwards
        changes nothing, and the stored list checks its own changes."""
        msg = message()
        tags = ["a"]

        msg.metadata["tags"] = tags  # type: ignore[index]
        tags.append(b"raw")  # the caller's list, not the message's
        error = refused(lambda: msg.metadata["tags"].append(b"raw"))  # type: ignore[index]

        assert (["a"], "metadata.tags[1]") == (msg.to_dict()["metadata"]["tags"], error.path)

    def test_repeating_a_list_copies_its_containers(self):
        """``*=`` on a metadata list repeats its values as separate copies."""
        msg = Msg("A", "Hi", "user", {"rows": [{"n": 1}]})
        rows = msg.metadata["rows"]  # type: ignore[index]

        rows *= 2
        rows[1]["n"] = 2

        assert [{"n": 1}, {"n": 2}] == msg.to_dict()["metadata"]["rows"]

    def test_mappings_put_in_are_stored_as_dicts(self):
        """A dict subclass or OrderedDict put in place is stored as a plain dict."""
        from collections import OrderedDict

        class Info(dict):
            pass

        msg = message()
        msg.metadata["info"] = Info(a=OrderedDict(b=1))  # type: ignore[index]
        msg.content[2]["input"].update(Info(unit="C"))  # type: ignore[index]

        stored = msg.to_dict()
        assert ({"a": {"b": 1}}, dict, dict) == (
            stored["metadata"]["info"],
            type(stored["metadata"]["info"]),
            type(stored["metadata"]["info"]["a"]),
        )
        assert {"city": "Lima", "unit": "C"} == stored["content"][2]["input"]

    @pytest.mark.parametrize(
        ("change", "path"),
        [
            (lambda metadata: metadata.__setitem__(5, 1), "metadata"),
            (lambda metadata: metadata.__setitem__("\ud800", 1), "metadata"),
            (lambda metadata: metadata.__setitem__("n", 10**5000), "metadata.n"),
            (lambda metadata: metadata["scores"].insert(0, "\udfff"), "metadata.scores[0]"),
            (lambda metadata: metadata.update(5), "metadata"),
            (lambda metadata: metadata["source"].setdefault([1], 2), "metadata.source"),
        ],
    )
    def test_hostile_values_are_refused(self, change, path):
        """Keys that are not strings, lone surrogates, integers too long to write and
        arguments that are no dict are refused with MessageError, nothing changed."""
        msg = message()
        before = msg.to_dict()

        error = refused(lambda: change(msg.metadata))

        assert (path, before) == (error.path, msg.to_dict())


class TestOnlyTheChangeIsChecked:
    """A change inside a JSON value (the metadata, a tool's input) checks what it puts
    in, not the whole value: adding to a long list costs the same at any length."""

    @pytest.mark.parametrize("where", ["metadata", "input"])
    def test_append_checks_the_new_value_only(self, monkeypatch, where):
        """Appending to a list in the metadata or a tool input checks the appended value
        alone, never the list or the whole value again."""
        from agentmsg import _validate

        msg = Msg(
            "A",
            [{"type": "tool_use", "id": "c", "name": "f", "input": {"tags": list(range(50))}}],
            "assistant",
            {"tags": list(range(50))},
        )
        tags = msg.metadata["tags"] if where == "metadata" else msg.content[0]["input"]["tags"]  # type: ignore[index]
        checked: list[object] = []
        real = _validate.check_json

        def spy(value, path, room=_validate.MAX_DEPTH):
            checked.append(value)
            return real(value, path, room)

        monkeypatch.setattr(_validate, "check_json", spy)
        monkeypatch.setattr(_validate, "check_metadata", lambda *a: pytest.fail("whole check"))
        monkeypatch.setattr(_validate, "check_block", lambda *a: pytest.fail("whole check"))

        tags.append({"n": 1})
        tags.append(2)

        assert [{"n": 1}, 2] == checked
        assert 52 == len(tags)


class TestOneDepthLimit:
    """Whatever a message accepts at ``MAX_DEPTH`` levels reads back on every path; one
    level more is refused with MessageError on every path that takes values in."""

    @staticmethod
    def limit() -> int:
        from agentmsg._validate import MAX_DEPTH

        return MAX_DEPTH

    def test_in_place_at_the_limit_and_past_it(self):
        """A change that brings the metadata to the limit is kept; one level more is
        refused, naming where."""
        limit = self.limit()
        msg = Msg("A", "Hi", "user", {"v": nested(limit - 2)})
        bottom = innermost(msg.metadata["v"])  # type: ignore[index]

        bottom["ok"] = {}  # level `limit`
        error = refused(lambda: bottom["ok"].__setitem__("x", []))

        assert "metadata.v" + "[0]" * (limit - 3) + ".ok.x" == error.path
        assert "nested too deeply" in str(error)

    def test_in_a_tool_input(self):
        """A tool input counts from its own dict, in place as when built."""
        limit = self.limit()
        block = {"type": "tool_use", "id": "c", "name": "f", "input": {"v": nested(limit - 1)}}
        msg = Msg("A", [block], "assistant")
        bottom = innermost(msg.content[0]["input"]["v"])  # type: ignore[index]

        error = refused(lambda: bottom.__setitem__("x", []))
        past = {**block, "input": {"v": nested(limit)}}

        assert "content[0].input.v" + "[0]" * (limit - 2) + ".x" == error.path
        assert (
            "content[0].input.v" + "[0]" * (limit - 1)
            == refused(lambda: Msg("A", [past], "assistant")).path
        )

    @pytest.mark.parametrize(
        "read",
        [
            lambda msg: Msg.from_json(msg.to_json()),
            lambda msg: Msg.from_json(msg.to_json(indent=1)),
            lambda msg: Msg.from_dict(msg.to_dict()),
            copy.deepcopy,
            copy.copy,
            lambda msg: pickle.loads(pickle.dumps(msg)),
            lambda msg: Msg.from_dict(copy.deepcopy(msg.to_dict())),
        ],
        ids=["json", "json-indented", "dict", "deepcopy", "copy", "pickle", "deepcopy-dict"],
    )
    def test_every_path_reads_back_at_the_limit(self, read):
        """Metadata, a tool input and a tool output at the limit come back equal from
        every path, also after ``msg.metadata`` and ``msg.content`` were read."""
        limit = self.limit()
        content = [
            {"type": "tool_use", "id": "c", "name": "f", "input": {"v": nested(limit - 1)}},
            {"type": "tool_result", "id": "c", "name": "f", "output": nested(limit)},
        ]
        msg = Msg("A", content, "assistant", {"v": nested(limit - 1)})

        assert msg == read(msg)
        msg.metadata, msg.content  # noqa: B018  # the checked containers, made on first read
        assert msg == read(msg)
        assert "agentmsg-card" in msg._repr_html_()
        assert repr(msg).startswith("Msg(")

    def test_from_json_one_past_the_limit(self):
        """JSON text one level past the limit is refused with MessageError."""
        limit = self.limit()
        text = json.dumps(
            {"name": "A", "role": "user", "content": "Hi", "metadata": {"v": nested(limit)}}
        )

        error = refused(lambda: Msg.from_json(text))

        assert "metadata.v" + "[0]" * (limit - 1) == error.path

    def test_json_far_too_deep(self):
        """JSON text nested far beyond Python's recursion limit is refused with
        MessageError, not RecursionError."""
        text = '{"name": "A", "role": "user", "content": "Hi", "metadata": {"v": ' + "[" * 100_000

        assert "not valid JSON" in str(refused(lambda: Msg.from_json(text)))


def _containers_in(value: object) -> list[object]:
    """Every dict and list inside *value*, itself included."""
    if isinstance(value, dict):
        return [value, *(inner for item in value.values() for inner in _containers_in(item))]
    if isinstance(value, list):
        return [value, *(inner for item in value for inner in _containers_in(item))]
    return []


ONE_OF_EACH = [
    *one_of_each(),
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
