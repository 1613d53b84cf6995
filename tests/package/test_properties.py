"""Property tests: valid messages round-trip; broken input only ever raises MessageError."""

from __future__ import annotations

import json
import math
from datetime import datetime
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from agentmsg import BLOCK_TYPES, MessageError, Msg, json_schema
from agentmsg._validate import (
    _text,
    check_block,
    check_content,
    check_id,
    check_json,
    check_name,
    check_optional_str,
    check_str,
)
from message_strategies import (
    MEDIA_KINDS,
    Opaque,
    blocks,
    hostile_contents,
    hostile_texts,
    hostile_urls,
    hostile_values,
    json_objects,
    json_scalars,
    json_values,
    keys,
    mapping_kinds,
    names,
    texts,
)

PROPERTY_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
SCHEMA_VALIDATOR = jsonschema.Draft202012Validator(json_schema())

# -- valid values ---------------------------------------------------------------------

timestamps = st.datetimes(
    min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59, 59)
).map(lambda moment: moment.isoformat(" ", "milliseconds"))


contents = texts | st.lists(blocks, max_size=4)


@st.composite
def messages(draw: st.DrawFn) -> Msg:
    """A random valid message, built through the constructor."""
    return Msg(
        draw(names),
        draw(contents),
        draw(st.sampled_from(["user", "assistant", "system"])),
        draw(st.none() | json_objects),
        draw(st.none() | timestamps),
        draw(st.none() | texts),
        id=draw(st.none() | names),
    )


# -- broken values -------------------------------------------------------------------


junk = (
    json_values
    | st.just(math.nan)
    | st.just(math.inf)
    | st.tuples(json_scalars)
    | st.binary(max_size=4)
    | st.sets(st.integers(), max_size=2)
    | st.builds(Opaque)
    | st.sampled_from([*BLOCK_TYPES, "user", "url", "base64", "https://x", "data:,", ""])
    | st.dictionaries(
        st.sampled_from(["type", "text", "source", "url", "id", "input"]), json_scalars
    )
    | st.dictionaries(st.integers(), json_scalars, min_size=1, max_size=2)
)


def _containers(value: Any, found: list[tuple[Any, Any]]) -> None:
    """Collect every (container, key) pair inside a JSON-shaped *value*."""
    if type(value) is dict:
        for key, item in value.items():
            found.append((value, key))
            _containers(item, found)
    elif type(value) is list:
        for index, item in enumerate(value):
            found.append((value, index))
            _containers(item, found)


@st.composite
def broken_dicts(draw: st.DrawFn) -> Any:
    """A valid message dict with a few random replacements, deletions and additions."""
    data = draw(messages()).to_dict()
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        damage(draw, data, st.text(max_size=6) | st.sampled_from(["type", "extra"]))
    return data


def damage(draw: st.DrawFn, value: Any, new_keys: st.SearchStrategy[Any]) -> None:
    """One random replacement, deletion or addition (a key of *new_keys* in a dict) in
    *value* or a container inside it."""
    places: list[tuple[Any, Any]] = []
    _containers(value, places)
    container, key = draw(st.sampled_from(places))
    action = draw(st.sampled_from(["replace", "delete", "add"]))
    if action == "replace":
        container[key] = draw(junk)
    elif action == "delete":
        del container[key]
    elif type(container) is dict:
        container[draw(new_keys)] = draw(junk)
    else:
        container.append(draw(junk))


def assert_only_message_errors(data: Any) -> None:
    """from_dict either accepts *data* (and the result round-trips) or raises MessageError."""
    try:
        msg = Msg.from_dict(data)
    except MessageError as error:
        assert str(error).endswith(".")
        return
    assert msg == Msg.from_dict(msg.to_dict())


# -- the properties ------------------------------------------------------------------


class TestRoundTrip:
    """Valid messages survive serialization unchanged."""

    @PROPERTY_SETTINGS
    @given(messages())
    def test_dict_round_trip(self, msg):
        """``Msg.from_dict(msg.to_dict())`` equals the message, and gives the same dict."""
        again = Msg.from_dict(msg.to_dict())

        assert msg == again
        assert msg.to_dict() == again.to_dict()

    @PROPERTY_SETTINGS
    @given(messages())
    def test_json_round_trip(self, msg):
        """``Msg.from_json(msg.to_json())`` equals the message."""
        assert msg == Msg.from_json(msg.to_json())

    @PROPERTY_SETTINGS
    @given(messages())
    def test_dict_is_plain_json(self, msg):
        """The dict survives a trip through the standard JSON module unchanged."""
        data = msg.to_dict()

        assert data == json.loads(json.dumps(data))

    @PROPERTY_SETTINGS
    @given(messages())
    def test_dict_matches_schema(self, msg):
        """Every to_dict() output validates against json_schema()."""
        SCHEMA_VALIDATOR.validate(msg.to_dict())

    @PROPERTY_SETTINGS
    @given(messages(), contents, json_objects)
    def test_inputs_are_not_shared(self, msg, content, metadata):
        """Assigned content and metadata are copied: changing the originals changes nothing."""
        msg.content = content
        msg.metadata = metadata
        before = msg.to_dict()

        if isinstance(content, list):
            content.append({"type": "text", "text": "added"})
            for block in content:
                block.clear()
        metadata.clear()

        assert before == msg.to_dict()


class TestBrokenInput:
    """Bad input raises MessageError and nothing else."""

    @PROPERTY_SETTINGS
    @given(broken_dicts())
    def test_broken_dicts(self, data):
        """A valid dict with random damage loads or raises MessageError."""
        assert_only_message_errors(data)

    @PROPERTY_SETTINGS
    @given(
        st.dictionaries(
            st.sampled_from(
                ["id", "name", "role", "content", "metadata", "timestamp", "invocation_id", "x"]
            ),
            junk | st.lists(junk, max_size=3),
        )
    )
    def test_random_dicts(self, data):
        """A dict of random values loads or raises MessageError."""
        assert_only_message_errors(data)

    @PROPERTY_SETTINGS
    @given(junk)
    def test_random_values(self, data):
        """Any value at all given to from_dict loads or raises MessageError."""
        assert_only_message_errors(data)

    @PROPERTY_SETTINGS
    @given(st.text(max_size=40) | st.binary(max_size=40))
    @example("{}")  # a JSON object without the message's fields
    def test_random_json_text(self, text):
        """Random text given to from_json loads or raises MessageError."""
        try:
            msg = Msg.from_json(text)
        except MessageError as error:
            assert str(error).startswith(
                ("The text is not valid JSON", "A message dict", "The message dict has no", "`")
            )
        else:
            assert msg == Msg.from_json(msg.to_json())

    @PROPERTY_SETTINGS
    @given(broken_dicts())
    def test_broken_dicts_through_json(self, data):
        """Damaged dicts written as JSON load or raise MessageError."""
        try:
            text = json.dumps(data)
        except (TypeError, ValueError):
            assume(False)
        try:
            msg = Msg.from_json(text)
        except MessageError:
            return
        assert msg == Msg.from_json(msg.to_json())


# -- in-place edits ----------------------------------------------------------------------


def _reachable(value: Any, found: list[Any]) -> None:
    """Collect *value* and every dict and list inside it."""
    if isinstance(value, dict):
        found.append(value)
        for item in value.values():
            _reachable(item, found)
    elif isinstance(value, list):
        found.append(value)
        for item in value:
            _reachable(item, found)


edit_values = junk | blocks | json_values | st.lists(blocks | junk, max_size=2)


def _edit(draw: st.DrawFn, container: Any) -> None:
    """Apply one random in-place change to *container*, a dict or a list of a message.

    Only changes whose preconditions hold (an existing index or key to pop or delete) are
    drawn, so that the only expected failure is a MessageError.
    """
    value = draw(edit_values)
    if isinstance(container, dict):
        keys = list(container)
        key = draw(st.sampled_from(keys) | keys_or_new) if keys else draw(keys_or_new)
        action = draw(
            st.sampled_from(["set", "update", "setdefault", "ior", "clear"])
            | (st.sampled_from(["del", "pop", "popitem"]) if keys else st.nothing())
        )
        if action == "set":
            container[key] = value
        elif action == "update":
            container.update({key: value})
        elif action == "setdefault":
            container.setdefault(key, value)
        elif action == "ior":
            container |= {key: value}
        elif action == "clear":
            container.clear()
        elif action == "del":
            del container[draw(st.sampled_from(keys))]
        elif action == "pop":
            container.pop(draw(st.sampled_from(keys)))
        else:
            container.popitem()
        return
    size = len(container)
    index = draw(st.integers(-size, size - 1)) if size else 0
    action = draw(
        st.sampled_from(["append", "insert", "extend", "iadd", "slice", "clear", "reverse"])
        | (st.sampled_from(["set", "del", "pop", "remove", "imul"]) if size else st.nothing())
    )
    if action == "append":
        container.append(value)
    elif action == "insert":
        container.insert(draw(st.integers(-size - 2, size + 2)), value)
    elif action == "extend":
        container.extend([value, draw(edit_values)])
    elif action == "iadd":
        container += [value]
    elif action == "slice":
        start = draw(st.integers(0, size))
        container[start : draw(st.integers(start, size))] = [value]
    elif action == "clear":
        container.clear()
    elif action == "reverse":
        container.reverse()
    elif action == "set":
        container[index] = value
    elif action == "del":
        del container[index]
    elif action == "pop":
        container.pop(index)
    elif action == "remove":
        container.remove(container[index])
    else:
        container *= 2


keys_or_new = st.sampled_from(["type", "text", "source", "url", "input", "output", "extra"]) | keys


def assert_loadable(msg: Msg) -> None:
    """The message dumps a dict that loads back to it and matches the schema, and its
    read helpers answer without raising."""
    data = msg.to_dict()
    assert msg == Msg.from_dict(data)
    assert data == json.loads(json.dumps(data))
    SCHEMA_VALIDATOR.validate(data)
    msg.get_text_content()
    msg.get_content_blocks()
    msg.has_content_blocks("tool_use")
    repr(msg)
    msg._repr_html_()


class TestInPlaceEdits:
    """Changes made in place through ``msg.content`` and ``msg.metadata`` are checked."""

    @PROPERTY_SETTINGS
    @given(messages(), st.data())
    def test_random_edits_keep_the_message_loadable(self, msg, data):
        """Any sequence of in-place changes to the content, a block, a value inside one or
        the metadata either applies or raises MessageError and changes nothing; the
        message always dumps a dict that from_dict loads back to it."""
        for _ in range(data.draw(st.integers(1, 6))):
            targets: list[Any] = []
            _reachable(msg.content, targets)
            _reachable(msg.metadata, targets)
            if not targets:
                msg.metadata = {}
                continue
            container = data.draw(st.sampled_from(targets))
            before = msg.to_dict()
            try:
                _edit(data.draw, container)
            except MessageError as error:
                assert str(error).endswith(".")
                assert before == msg.to_dict()
            assert_loadable(msg)

    @PROPERTY_SETTINGS
    @given(messages(), st.data())
    def test_values_put_in_are_copied(self, msg, data):
        """A dict or list put into a message is copied: changing it afterwards changes
        nothing in the message."""
        if not isinstance(msg.content, list):
            msg.content = []
        block = data.draw(blocks)
        msg.content.append(block)
        before = msg.to_dict()

        for container in [*reversed(_collect(block))]:
            container.clear()

        assert before == msg.to_dict()


def _collect(value: Any) -> list[Any]:
    found: list[Any] = []
    _reachable(value, found)
    return found


# -- the inline checks --------------------------------------------------------------------


@st.composite
def damaged_blocks(draw: st.DrawFn) -> Any:
    """A valid block, maybe with one random replacement, deletion or addition inside."""
    block = draw(blocks)
    if draw(st.booleans()):
        damage(draw, block, keys_or_new)
    return block


def _exact(value: Any) -> Any:
    """*value* with every container's type and key order spelled out, so that ``==``
    tells apart ``{"a": 1, "b": 2}`` and ``{"b": 2, "a": 1}``, or ``"x"`` and a str
    subclass equal to it."""
    if isinstance(value, dict):
        return (type(value), [(_exact(key), _exact(item)) for key, item in value.items()])
    if isinstance(value, list):
        return (type(value), [_exact(item) for item in value])
    return (type(value), value)


def _outcome(check: Any) -> Any:
    try:
        return _exact(check())
    except MessageError as error:
        return ("MessageError", error.path, str(error))


class Text(str):
    """A str subclass, as some frameworks' string enums are."""


class SubDict(dict):  # type: ignore[type-arg]
    """A dict subclass, as ERNIE Bot Agent's ``PluginInfo`` is."""


@st.composite
def reshaped(draw: st.DrawFn, value: Any, depth: int = 0) -> Any:
    """*value* with its dicts' keys maybe shuffled, and maybe a dict, a key or a str made
    a subclass of its type (one in a few)."""
    if type(value) is dict:
        items = [
            (Text(key) if draw(st.integers(0, 15)) == 0 else key, draw(reshaped(item, depth + 1)))
            for key, item in value.items()
        ]
        items = draw(st.permutations(items)) if draw(st.booleans()) else items
        return (SubDict if draw(st.integers(0, 7)) == 0 else dict)(items)
    if type(value) is list:
        return [draw(reshaped(item, depth + 1)) for item in value]
    if type(value) is str and draw(st.integers(0, 7)) == 0:
        return Text(value)
    return value


_UNSPOILED = ("type", "id", "name")


@st.composite
def spoiled(draw: st.DrawFn, value: Any) -> Any:
    """*value* with some strings given a non-ASCII end, which UTF-8 can hold or not (a
    lone surrogate): values at any depth but a block's type, id and name (which take
    the full check when not ASCII), and the keys of JSON values (dicts without a type)."""
    if type(value) is list:
        return [draw(spoiled(item)) for item in value]
    if type(value) is dict:
        typed = "type" in value
        return {
            key if typed else draw(spoiled(key)): item if key in _UNSPOILED else draw(spoiled(item))
            for key, item in value.items()
        }
    if type(value) is str and draw(st.integers(0, 3)) == 0:
        return value + draw(st.sampled_from(["\ud800", "é", "\udfff", "中"]))
    return value


def nested(value: Any, depth: int) -> Any:
    """*value* inside *depth* alternating dicts and lists."""
    for level in range(depth):
        value = {"x": value} if level % 2 else [value]
    return value


# Tool calls and results whose JSON nests around the inline checks' depth limit.
deep_blocks = st.builds(
    lambda field, value, depth: {
        "type": "tool_use" if field == "input" else "tool_result",
        "id": "1",
        "name": "f",
        field: {"deep": nested(value, depth)} if field == "input" else nested(value, depth),
    },
    st.sampled_from(["input", "output"]),
    json_scalars | junk,
    st.integers(0, 40),
)


# Tool calls of the inline checks' shape (no optional field), their input any JSON object.
bare_tool_uses = st.builds(
    lambda arguments: {"type": "tool_use", "id": "1", "name": "f", "input": arguments},
    json_objects,
)


# A tool result whose output holds blocks of any type: thinking and tool blocks make it
# invalid, which the inline checks must not take for a plain JSON list.
any_output_results = st.builds(
    lambda output: {"type": "tool_result", "id": "1", "name": "f", "output": output},
    st.lists(blocks | damaged_blocks(), min_size=1, max_size=3),
)


class TestInlineChecks:
    """check_content's inline checks of the common shapes agree with check_block."""

    @PROPERTY_SETTINGS
    @given(st.lists(damaged_blocks() | any_output_results | junk, max_size=4))
    def test_same_verdict_as_check_block(self, content):
        """check_content accepts what check_block accepts block by block, copies it the
        same way, and rejects the first bad block with the same error."""

        def one_by_one() -> list[Any]:
            return [check_block(block, f"content[{index}]") for index, block in enumerate(content)]

        assert _outcome(one_by_one) == _outcome(lambda: check_content(content))

    @PROPERTY_SETTINGS
    @given(st.lists(damaged_blocks() | any_output_results | deep_blocks, max_size=3), st.data())
    def test_same_copy_whatever_the_key_order_subclasses_or_depth(self, content, data):
        """With the keys of any dict in any order, some dicts, keys and strings of
        subclasses and JSON nested up to 40 deep, check_content still gives the verdict of
        check_block, and the same copy, key order and types included."""
        content = data.draw(reshaped(content))

        def one_by_one() -> list[Any]:
            return [check_block(block, f"content[{index}]") for index, block in enumerate(content)]

        assert _outcome(one_by_one) == _outcome(lambda: check_content(content))

    @PROPERTY_SETTINGS
    @given(st.lists(blocks | deep_blocks | bare_tool_uses, min_size=1, max_size=3).flatmap(spoiled))
    @example([{"type": "tool_use", "id": "1", "name": "f", "input": {"k": ["x\ud800"]}}])
    def test_same_verdict_on_text_that_is_not_ascii(self, content):
        """With strings anywhere in the blocks ending in a character that is not ASCII,
        a lone surrogate or not, check_content gives check_block's verdict and copy."""

        def one_by_one() -> list[Any]:
            return [check_block(block, f"content[{index}]") for index, block in enumerate(content)]

        assert _outcome(one_by_one) == _outcome(lambda: check_content(content))


# Each string check takes a plain ASCII str without a call: the quick way must give what
# the full check (_text) gives on every str, a subclass or a lone surrogate included.
any_texts = texts | hostile_texts | (texts | hostile_texts).map(Text)


class TestStringQuickWays:
    """check_name, check_id, check_str and check_optional_str agree with _text."""

    @PROPERTY_SETTINGS
    @given(any_texts)
    @example("")
    @example(Text("a"))
    @example("a\ud800")
    def test_same_as_the_full_check(self, value):
        """Every string check accepts, converts or refuses a str as _text does (but an
        empty one where a non-empty string is wanted, and a subclass where None or a
        plain str is)."""
        for check in (check_name, check_id, check_str, check_optional_str):
            if not value and check in (check_name, check_id):
                continue  # refused before the surrogate check: not a quick way's case
            if type(value) is not str and check is check_optional_str:
                continue  # it refuses a subclass, likewise
            expected = _outcome(lambda: _text(value, "field"))

            assert expected == _outcome(lambda: check(value, "field"))  # noqa: B023


# Integers on each side of the JSON copy's quick comparison (30 bits), of the comparison
# with 10**640, and of Python's digit limit.
BOUNDARY_INTS = {
    f"{'-' if sign < 0 else ''}{name}{offset:+d}": sign * (base + offset)
    for sign in (1, -1)
    for name, base in (
        ("2**30", 2**30),
        ("10**640", 10**640),
        ("10**4299", 10**4299),
        ("10**4300", 10**4300),
    )
    for offset in (-1, 0, 1)
}


class TestIntegerQuickWays:
    """The JSON copy's integer checks keep exactly the integers str() can write."""

    @pytest.mark.parametrize("value", BOUNDARY_INTS.values(), ids=BOUNDARY_INTS.keys())
    def test_kept_exactly_when_writable(self, value):
        """An integer in a tool input, a nested list and the metadata is kept when str()
        can write it and refused otherwise, the same at every place."""
        try:
            str(value)
            writable = True
        except ValueError:
            writable = False
        places = [
            lambda: check_content(
                [{"type": "tool_use", "id": "1", "name": "f", "input": {"n": value}}]
            ),
            lambda: check_json({"a": [[value]]}, "metadata"),
            lambda: check_json(value, "metadata"),
        ]
        for place in places:
            try:
                place()
                kept = True
            except MessageError:
                kept = False

            assert writable == kept


# -- hostile input ---------------------------------------------------------------------------
# What an attacker would hand every public surface: nesting at and past the depth limit,
# cycles, integers past Python's digit limit, lone surrogates, bidirectional controls, NUL,
# Mappings of every kind, keys that are not strings, and local paths of special files.

import contextlib  # noqa: E402
from functools import partial  # noqa: E402

from agentmsg import AIMessage, MediaError  # noqa: E402


def assert_round_trips(msg: Msg) -> None:
    """An accepted message reads back equal on every path, and can be written as UTF-8."""
    import copy
    import pickle

    text = msg.to_json()
    text.encode("utf-8")
    assert msg == Msg.from_json(text)
    assert msg == Msg.from_dict(msg.to_dict())
    msg.metadata, msg.content  # noqa: B018  # make the checked containers
    assert msg == Msg.from_json(msg.to_json(indent=1))
    assert msg == copy.deepcopy(msg)
    assert msg == copy.copy(msg)
    assert msg == pickle.loads(pickle.dumps(msg))
    msg._repr_html_().encode("utf-8")
    repr(msg).encode("utf-8", "backslashreplace")


def build(make: Any) -> Msg | None:
    """*make()*, or None when it raises MessageError (whose text can be written)."""
    try:
        return make()  # type: ignore[no-any-return]
    except MessageError as error:
        str(error).encode("utf-8")
        assert str(error).endswith(".")
        return None


HOSTILE_SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _change(container: Any, how: str, key: Any, value: Any) -> None:
    """One in-place change of *container* (a dict or list of a message)."""
    if how == "set":
        container[key] = value
    elif how == "update":
        container.update({key: value})
    elif how == "init":
        container.__init__({key: value} if isinstance(container, dict) else [value])
    elif how == "setdefault":
        container.setdefault(key, value)
    elif how == "append":
        container.append(value)
    elif how == "extend":
        container.extend([value])
    else:
        container.insert(0, value)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: Any) -> Any:
    """A folder with a named pipe, a sub-folder, a link out of it and an image."""
    import os

    root = tmp_path_factory.mktemp("hostile-media")
    if hasattr(os, "mkfifo"):
        os.mkfifo(root / "pipe.png")
    (root / "folder").mkdir()
    (root / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(8))
    with contextlib.suppress(OSError):
        (root / "link.png").symlink_to("/etc/passwd")
    return root


class TestHostileInput:
    """Hostile values on every public surface: only MessageError escapes, and whatever
    is accepted round-trips through dicts, JSON, copies, pickles and cards."""

    @HOSTILE_SETTINGS
    @given(
        hostile_texts | names,
        hostile_contents,
        st.none() | hostile_values | mapping_kinds(json_values),
        st.none() | hostile_texts,
    )
    def test_constructor(self, name, content, metadata, invocation_id):
        """Msg(...) with hostile fields builds a message that round-trips, or raises
        MessageError."""
        msg = build(lambda: Msg(name, content, "user", metadata, invocation_id=invocation_id))
        if msg is not None:
            assert_round_trips(msg)

    @HOSTILE_SETTINGS
    @given(
        st.dictionaries(
            st.sampled_from(["id", "name", "role", "content", "metadata", "invocation_id"]),
            hostile_values | hostile_contents | hostile_texts,
        ).map(lambda data: {"name": "A", "role": "user", "content": "Hi", **data})
        | hostile_values
    )
    def test_from_dict_and_from_json(self, data):
        """from_dict and from_json (of whatever json can write) accept and round-trip,
        or raise MessageError."""
        msg = build(lambda: Msg.from_dict(data))
        if msg is not None:
            assert_round_trips(msg)
        try:
            text = json.dumps(data)
        except Exception:  # json cannot write it (the LyingDict's items() raises): no text
            return
        msg = build(lambda: Msg.from_json(text))
        if msg is not None:
            assert_round_trips(msg)

    @HOSTILE_SETTINGS
    @given(messages(), st.data())
    def test_in_place_edits(self, msg, data):
        """Hostile values put in place into the metadata or a tool input are refused with
        MessageError (and change nothing) or kept, and the message still round-trips."""
        msg.metadata = msg.metadata or {}
        msg.content = [{"type": "tool_use", "id": "c", "name": "f", "input": {"l": []}}]
        targets: list[Any] = []
        _reachable(msg.metadata, targets)
        _reachable(msg.content[0]["input"], targets)  # type: ignore[index]
        for _ in range(data.draw(st.integers(1, 3))):
            container = data.draw(st.sampled_from(targets))
            value = data.draw(hostile_values | hostile_contents)
            before = msg.to_dict()
            if isinstance(container, dict):
                key = data.draw(keys | hostile_texts | st.sampled_from([1, None]))
                how = data.draw(st.sampled_from(["set", "update", "init", "setdefault"]))
            else:
                key = 0
                how = data.draw(st.sampled_from(["append", "extend", "init", "insert"]))
            change = partial(_change, container, how, key, value)
            try:
                change()
            except MessageError as error:
                str(error).encode("utf-8")
                assert before == msg.to_dict()
            assert_round_trips(msg)

    @HOSTILE_SETTINGS
    @given(st.lists(hostile_urls, min_size=1, max_size=3), st.sampled_from(MEDIA_KINDS))
    def test_check_media(self, folder, urls, kind):
        """check_media on special files, with or without a folder, never blocks and raises
        nothing but MediaError, whose text quotes no file's bytes."""
        content = [{"type": kind, "source": {"type": "url", "url": url}} for url in urls]
        msg = build(lambda: Msg("A", content, "user"))
        if msg is None:
            return
        assert None is msg.check_media()  # nothing read without a folder
        try:
            msg.check_media(root=folder, max_bytes=1024)
        except MediaError as error:
            assert "root:" not in str(error)  # the start of /etc/passwd or /etc/shadow
            str(error).encode("utf-8")

    @HOSTILE_SETTINGS
    @given(
        hostile_values | mapping_kinds(json_scalars),
        hostile_values | mapping_kinds(json_scalars),
        hostile_values,
    )
    def test_role_messages(self, token_usage, plugin_info, search_info):
        """A role message's dict fields take any Mapping, or raise MessageError."""
        for field, value in (
            ("token_usage", token_usage),
            ("plugin_info", plugin_info),
            ("search_info", search_info),
        ):
            message = build(lambda field=field, value=value: AIMessage("Hi", **{field: value}))
            if message is not None:
                assert message == AIMessage.from_dict(message.to_dict())
                (message._repr_html_() or "").encode("utf-8")
