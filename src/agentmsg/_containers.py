"""The containers a message hands out, which check every change made in place, and the
one deep copy agentmsg makes of JSON-shaped values.

A :class:`~agentmsg.Msg` stores its content and metadata as plain lists and dicts. The
first time ``msg.content`` or ``msg.metadata`` is read, they are turned into the
classes below, subclasses of ``list`` and ``dict`` that behave like them in every way
but one: a change made in place (``msg.content.append(block)``,
``msg.content[0]["text"] = "..."``, ``msg.metadata["tags"].append("x")``) is checked
at once, by the same rules as a new message, and refused with
:class:`~agentmsg.MessageError` (the container left as it was) when it would make the
message invalid. A message therefore always holds what :meth:`~agentmsg.Msg.from_dict`
accepts, whatever is done to it.

- :class:`ContentList` is ``msg.content``: each block added or put in place is checked
  as a block and stored as a copy, so the caller's dict never aliases the message's.
- :class:`CheckedDict` and :class:`CheckedList` are every dict and list inside it (the
  blocks, their sources, tool inputs and outputs) and ``msg.metadata`` with what it
  holds. Each knows the container it sits in (``_parent``). Inside a JSON value that
  only the JSON rules govern (the metadata, a tool's input, a tool's dict output), a
  change checks just the values it puts in, against the levels left above them
  (:data:`~agentmsg._validate.MAX_DEPTH`), before anything is stored: appending to a
  long list costs the same at any length. Anywhere else (a block, a source, a tool's
  list output, a role message's field) the change is made, the whole block or field is
  checked, and the change undone if the check fails. Values put in are stored as
  checked copies; ``__init__``, which ``dict`` and ``list`` use to fill themselves in
  place, is checked like any other change.

Reading costs nothing extra, and neither does building, copying or loading a message
whose content is never read through ``msg.content``: the conversion happens on first
access, once per message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, SupportsIndex

from ._blocks import ARGUMENTS, BLOCK_SPEC, OUTPUT, SOURCE, Field
from ._errors import MessageError

_dict_copy = dict.copy
_dict_clear = dict.clear
_dict_update = dict.update
_dict_setitem = dict.__setitem__
_list_copy = list.copy
_list_setitem = list.__setitem__
_list_append = list.append
_list_extend = list.extend
_list_insert = list.insert


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON-shaped *value*: every dict and list new and plain, the leaves
    shared.

    Leaves (strings, numbers, booleans, None) are immutable, so sharing them is safe.
    Each container is copied whole at C speed, and only its items that are not strings
    or integers are looked at again. Checked containers come out as plain ``dict`` and
    ``list``. The value is trusted: :func:`~agentmsg._validate.check_json` is the copy
    that checks.
    """
    kind = type(value)
    if kind is dict or kind is CheckedDict:
        new_dict = _dict_copy(value)
        for key, item in new_dict.items():
            inner = type(item)
            if inner is not str and inner is not int:
                new_dict[key] = copy_json(item)
        return new_dict
    if kind is list or kind is ContentList or kind is CheckedList:
        new_list = _list_copy(value)
        for index, item in enumerate(new_list):
            inner = type(item)
            if inner is not str and inner is not int:
                new_list[index] = copy_json(item)
        return new_list
    return value


def copy_blocks(blocks: Any) -> list[Any]:
    """A deep copy of a message's validated content blocks: :func:`copy_json`, faster.

    The blocks' shapes are known from :data:`~agentmsg._blocks.BLOCK_SPEC`: one C-level
    dict copy copies a block's strings, and only its fields that nest (a media source, a
    tool's input and output) are copied again. A block of a type the spec does not know
    raises :class:`~agentmsg.MessageError`.
    """
    copied: list[Any] = []
    append = copied.append
    for block in blocks:
        try:
            nested = _NESTED_FIELD[block["type"]]
        except (KeyError, TypeError):
            raise _unknown_type(block, len(copied)) from None
        if nested is None:
            append(_dict_copy(block))
            continue
        name, copy = nested
        new_block = _dict_copy(block)
        value = new_block[name]
        if type(value) is not str:
            new_block[name] = copy(value)
        append(new_block)
    return copied


_new_dict = dict.__new__
_new_list = list.__new__


def _nested_field(fields: tuple[Field, ...]) -> tuple[str, Callable[[Any], Any]] | None:
    """The one field of a block type that holds a dict or list, with its copy (a media
    source holds only strings, SOURCE_SPEC: one dict copy copies it), or None."""
    nested = [field for field in fields if field.value in (SOURCE, ARGUMENTS, OUTPUT)]
    if len(nested) > 1:  # copy_blocks copies one; a spec that nests more must extend it
        raise NotImplementedError(f"copy_blocks copies one nested field, not {nested}")
    if not nested:
        return None
    return nested[0].name, _dict_copy if nested[0].value == SOURCE else copy_json


_NESTED_FIELD = {kind: _nested_field(fields) for kind, fields in BLOCK_SPEC.items()}


def _unknown_type(block: Any, index: int) -> MessageError:
    from ._validate import must_be  # the import cycle: _validate imports this module

    names = ", ".join(repr(name) for name in BLOCK_SPEC)
    kind = block.get("type") if type(block) in DICT_TYPES else block
    return must_be(f"content[{index}].type", f"one of {names}", kind)


def _checked(value: Any, parent: Any) -> Any:
    """A checked deep copy of a validated *value*, its containers inside *parent*.

    The validators accept a ``str`` subclass only where they store it as a ``str`` (ids
    and names), so such a string is stored as ``str`` here too.
    """
    kind = type(value)
    if kind is dict or kind is CheckedDict:
        new_dict: CheckedDict = _new_dict(CheckedDict)
        new_dict._parent = parent
        for key, item in value.items():
            inner = type(item)
            if inner is not str and inner is not int:
                item = _checked(item, new_dict)
            _dict_setitem(new_dict, key, item)
        return new_dict
    if kind is list or kind is CheckedList or kind is ContentList:
        new_list: CheckedList = _new_list(CheckedList)
        new_list._parent = parent
        _list_extend(new_list, [_checked(item, new_list) for item in value])
        return new_list
    if kind is not str and isinstance(value, str):
        return str(value)
    return value


def checked_content(blocks: list[Any]) -> ContentList:
    """The :class:`ContentList` of a message's validated *blocks*."""
    content: ContentList = _new_list(ContentList)
    _list_extend(content, [_checked(block, content) for block in blocks])
    return content


def checked_metadata(metadata: dict[str, Any]) -> CheckedDict:
    """The :class:`CheckedDict` of a message's validated *metadata*."""
    checked: CheckedDict = _checked(metadata, None)
    return checked


class FieldRoot:
    """What a role message's field (``search_info``, ``files``...) sits in: *check* takes
    the whole field after a change and raises MessageError when it is no longer valid."""

    __slots__ = ("check",)

    def __init__(self, check: Callable[[Any], Any]) -> None:
        self.check = check


def checked_field(value: Any, check: Callable[[Any], Any]) -> Any:
    """The checked container of a role message's validated field *value*."""
    return _checked(value, FieldRoot(check))


# -- where a container sits, and how its changes are checked (see the module docstring) ---

_JSON = object()
"""The place of a container in a JSON value: see :func:`_place`."""


def _place(container: CheckedDict | CheckedList) -> tuple[Any, Any]:
    """``(_JSON, level)`` for a container in a JSON value, *level* being 1 for the value's
    top dict; else ``(root, node)``: the content list or field root that checks *node*,
    the block or field that holds *container*."""
    chain: list[Any] = [container]
    node: Any = container
    while True:
        parent = node._parent
        if parent is None:  # the metadata itself
            return _JSON, len(chain)
        kind = type(parent)
        if kind is FieldRoot:
            return parent, node
        if kind is ContentList:  # node is a block
            if len(chain) > 1:
                child = chain[-2]
                block_type = dict.get(node, "type")
                if block_type == "tool_use" and dict.get(node, "input") is child:
                    return _JSON, len(chain) - 1
                if (
                    block_type == "tool_result"
                    and type(child) is CheckedDict
                    and dict.get(node, "output") is child
                ):
                    return _JSON, len(chain) - 1
            return parent, node
        if kind is not CheckedDict and kind is not CheckedList:
            return None, None  # not in a message any more: nothing to check
        node = parent
        chain.append(node)


def _path_of(container: Any) -> str:
    """The field path of *container*, for an error (``metadata.tags``, ``content[0].input``)."""
    parts: list[str] = []
    node = container
    while True:
        parent = node._parent
        if parent is None:
            parts.append("metadata")
            break
        kind = type(parent)
        if kind is ContentList:
            index = next((i for i, block in enumerate(parent) if block is node), None)
            parts.append("content[?]" if index is None else f"content[{index}]")
            break
        if kind is CheckedDict:
            key = next((k for k, item in dict.items(parent) if item is node), "?")
            parts.append(f".{key}")
        elif kind is CheckedList:
            where = next((i for i, item in enumerate(parent) if item is node), "?")
            parts.append(f"[{where}]")
        else:  # a role message's field: its check words the path
            parts.append("value")
            break
        node = parent
    return "".join(reversed(parts))


def _json_item(container: Any, level: int, value: Any, where: Callable[[], str]) -> Any:
    """*value* checked for a place in *container*, at *level* of a JSON value, and stored
    as a checked copy."""
    from ._validate import MAX_DEPTH, check_json

    copied = check_json(value, where, MAX_DEPTH - level)
    kind = type(copied)
    if kind is dict or kind is list:
        return _checked(copied, container)
    return copied


def _json_key(container: Any, key: Any) -> None:
    """Raise unless *key* may name a value of a JSON dict."""
    if type(key) is not str or not (key.isascii() or _clean(key)):
        from ._validate import bad_key

        raise bad_key(_path_of(container), key)


def _key_path(container: Any, key: object) -> str:
    return f"{_path_of(container)}.{key}"


def _item_path(container: Any, at: object) -> str:
    return f"{_path_of(container)}[{at}]"


def _clean(text: str) -> bool:
    from ._validate import clean_text

    return clean_text(text)


def _check_whole(root: Any, node: Any) -> None:
    """Check the block or field *node* that *root* (the content list or a field root)
    holds (raises MessageError). A block no longer in the content is not checked."""
    if type(root) is FieldRoot:
        root.check(node)
        return
    from ._validate import check_block  # the one cycle: _validate uses our types

    for index, block in enumerate(root):
        if block is node:
            check_block(node, f"content[{index}]")
            return


def _adopt(container: CheckedDict | CheckedList) -> None:
    """Store the values a change put into *container* as checked copies of themselves.

    A container already inside *container* is kept (the first time it appears); any
    other dict or list, the caller's or another message's, is copied. The copies are all
    made before any is stored.
    """
    seen: set[int] = set()
    items: Iterable[tuple[Any, Any]]
    if type(container) is CheckedDict:
        items = list(dict.items(container))
        put: Callable[[Any, Any], None] = _dict_setitem.__get__(container)
    else:
        items = list(enumerate(container))
        put = _list_setitem.__get__(container)
    changes = []
    for key, item in items:
        kind = type(item)
        if kind is str or kind is int or kind is float or kind is bool or item is None:
            continue
        if (
            (kind is CheckedDict or kind is CheckedList)
            and item._parent is container
            and id(item) not in seen
        ):
            seen.add(id(item))
            continue
        changes.append((key, _checked(item, container)))
    for key, item in changes:
        put(key, item)


def _edit(container: Any, root: Any, node: Any, change: Callable[[], Any]) -> Any:
    """Make *change* to *container*, check the block or field *node* that *root* holds
    (none in a message any more: no check), store what it put in as checked copies; undo
    it all if anything raises."""
    is_dict = type(container) is CheckedDict
    before = _dict_copy(container) if is_dict else _list_copy(container)
    try:
        result = change()
        if root is not None:
            _check_whole(root, node)
        _adopt(container)
    except BaseException:
        if is_dict:
            _dict_clear(container)
            _dict_update(container, before)
        else:
            _list_setitem(container, slice(None), before)
        raise
    return result


def _unchecked(container: Any, change: Callable[[], Any]) -> Any:
    """Make a change that takes values away or reorders them: in a JSON value it needs no
    check; elsewhere the block or field is checked as for any change."""
    root, node = _place(container)
    if root is _JSON:
        return change()
    return _edit(container, root, node, change)


def _pairs(container: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[Any, Any]:
    """What ``dict.update(*args, **kwargs)`` would add, as a dict (raises MessageError)."""
    try:
        return dict(*args, **kwargs)
    except Exception as error:  # a Mapping or iterable of the caller's that cannot be read
        from ._validate import show

        msg = (
            f"`{_path_of(container)}` can only be updated with a dict or pairs of key and "
            f"value ({type(error).__name__}: {show(str(error))})."
        )
        raise MessageError(msg, _path_of(container)) from None


class CheckedDict(dict[Any, Any]):
    """A dict inside a message (a block, a source, a tool input, the metadata...) whose
    changes are checked with the block or metadata it belongs to."""

    __slots__ = ("_parent",)
    _parent: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # dict.__init__ adds to a dict in place: on a message's dict, a checked update.
        if args or kwargs:
            self.update(*args, **kwargs)

    def __setitem__(self, key: Any, value: Any) -> None:
        root, node = _place(self)
        if root is _JSON:
            _json_key(self, key)
            checked = _json_item(self, node, value, partial(_key_path, self, key))
            _dict_setitem(self, key, checked)
            return
        _edit(self, root, node, lambda: _dict_setitem(self, key, value))

    def __delitem__(self, key: Any) -> None:
        _unchecked(self, lambda: dict.__delitem__(self, key))

    def pop(self, *args: Any) -> Any:
        return _unchecked(self, lambda: dict.pop(self, *args))

    def popitem(self) -> tuple[Any, Any]:
        item: tuple[Any, Any] = _unchecked(self, lambda: dict.popitem(self))
        return item

    def clear(self) -> None:
        _unchecked(self, lambda: _dict_clear(self))

    def update(self, *args: Any, **kwargs: Any) -> None:
        root, node = _place(self)
        if root is _JSON:
            added = _pairs(self, args, kwargs)
            checked = {}
            for key, value in added.items():
                _json_key(self, key)
                checked[key] = _json_item(self, node, value, partial(_key_path, self, key))
            _dict_update(self, checked)
            return
        _edit(self, root, node, lambda: _dict_update(self, *args, **kwargs))

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if _place(self)[0] is _JSON:
            _json_key(self, key)
        if not dict.__contains__(self, key):
            self[key] = default
        return dict.__getitem__(self, key)

    def __ior__(self, other: Any) -> CheckedDict:  # type: ignore[misc]
        self.update(other)
        return self

    @classmethod
    def fromkeys(cls, *args: Any) -> dict[Any, Any]:
        return dict.fromkeys(*args)

    def __copy__(self) -> dict[Any, Any]:
        return _dict_copy(self)

    def __deepcopy__(self, memo: Any) -> dict[Any, Any]:
        copied: dict[Any, Any] = copy_json(self)
        return copied

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        return (dict, (copy_json(self),))


class _PlainList(list[Any]):
    """A message's list that copies, deep-copies and pickles as a plain ``list``: a copy
    is the caller's own, and changing it checks nothing."""

    __slots__ = ()

    def __copy__(self) -> list[Any]:
        return _list_copy(self)

    def __deepcopy__(self, memo: Any) -> list[Any]:
        copied: list[Any] = copy_json(self)
        return copied

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        return (list, (copy_json(self),))


class CheckedList(_PlainList):
    """A list inside a message (a tool output, a JSON array...) whose changes are checked
    with the block or metadata it belongs to."""

    __slots__ = ("_parent",)
    _parent: Any

    def __init__(self, *args: Any) -> None:
        # list.__init__ replaces a list's items in place: on a message's list, checked.
        if args:
            (values,) = args
            self[:] = values

    def _items(self, values: Iterable[Any], first: int, level: int) -> list[Any]:
        """*values* checked for places *first*, *first* + 1... of a JSON list."""
        return [
            _json_item(self, level, value, partial(_item_path, self, at))
            for at, value in enumerate(values, first)
        ]

    def __setitem__(self, index: Any, value: Any) -> None:
        root, node = _place(self)
        if root is _JSON:
            if isinstance(index, slice):
                start = index.indices(len(self))[0]
                _list_setitem(self, index, self._items(list(value), start, node))
            else:
                at = index.__index__()
                _list_setitem(self, index, self._items([value], at, node)[0])
            return
        _edit(self, root, node, lambda: _list_setitem(self, index, value))

    def __delitem__(self, index: Any) -> None:
        _unchecked(self, lambda: list.__delitem__(self, index))

    def append(self, value: Any) -> None:
        root, node = _place(self)
        if root is _JSON:
            _list_append(self, self._items([value], len(self), node)[0])
            return
        _edit(self, root, node, lambda: _list_append(self, value))

    def extend(self, values: Iterable[Any]) -> None:
        items = list(values)
        root, node = _place(self)
        if root is _JSON:
            _list_extend(self, self._items(items, len(self), node))
            return
        _edit(self, root, node, lambda: _list_extend(self, items))

    def insert(self, index: SupportsIndex, value: Any) -> None:
        root, node = _place(self)
        if root is _JSON:
            at = _position(self, index)
            _list_insert(self, index, self._items([value], at, node)[0])
            return
        _edit(self, root, node, lambda: _list_insert(self, index, value))

    def pop(self, index: SupportsIndex = -1) -> Any:
        return _unchecked(self, lambda: list.pop(self, index))

    def remove(self, value: Any) -> None:
        _unchecked(self, lambda: list.remove(self, value))

    def clear(self) -> None:
        _unchecked(self, lambda: list.clear(self))

    def sort(self, *args: Any, **kwargs: Any) -> None:
        _unchecked(self, lambda: list.sort(self, *args, **kwargs))

    def reverse(self) -> None:
        _unchecked(self, lambda: list.reverse(self))

    def __iadd__(self, values: Iterable[Any]) -> CheckedList:  # type: ignore[misc]
        self.extend(values)
        return self

    def __imul__(self, count: SupportsIndex) -> CheckedList:
        root, node = _place(self)
        if root is _JSON:
            size = len(self)
            list.__imul__(self, count)
            for at in range(size, len(self)):  # the repeats: copies, not the same containers
                item = self[at]
                if type(item) is CheckedDict or type(item) is CheckedList:
                    _list_setitem(self, at, _checked(item, self))
            return self
        _edit(self, root, node, lambda: list.__imul__(self, count))
        return self


def _position(content: list[Any], index: SupportsIndex) -> int:
    """Where ``list.insert`` puts an item at *index*, for the field path of the error."""
    size = len(content)
    where = index.__index__()
    if where < 0:
        where += size
    return min(max(where, 0), size)


class ContentList(_PlainList):
    """A message's content list: a block added or put in place is checked and copied.

    Removing and reordering blocks cannot make the content invalid and are not checked.
    """

    __slots__ = ()

    def __init__(self, *args: Any) -> None:
        # list.__init__ replaces a list's items in place: on a message's content, checked.
        if args:
            (values,) = args
            self[:] = values

    def _blocks(self, values: Iterable[Any], first: int) -> list[CheckedDict]:
        from ._validate import check_block  # the one cycle: _validate uses our types

        checked = [
            check_block(value, f"content[{first + offset}]") for offset, value in enumerate(values)
        ]
        return [_checked(block, self) for block in checked]

    def append(self, value: Any) -> None:
        _list_append(self, self._blocks([value], len(self))[0])

    def extend(self, values: Iterable[Any]) -> None:
        _list_extend(self, self._blocks(list(values), len(self)))

    def insert(self, index: SupportsIndex, value: Any) -> None:
        _list_insert(self, index, self._blocks([value], _position(self, index))[0])

    def __setitem__(self, index: Any, value: Any) -> None:
        if isinstance(index, slice):
            start = index.indices(len(self))[0]
            _list_setitem(self, index, self._blocks(list(value), start))
            return
        where = index.__index__()
        position = where + len(self) if where < 0 else where
        _list_setitem(self, index, self._blocks([value], position)[0])

    def __iadd__(self, values: Iterable[Any]) -> ContentList:  # type: ignore[misc]
        self.extend(values)
        return self

    def __imul__(self, count: SupportsIndex) -> ContentList:
        times = count.__index__()
        if times <= 0:
            list.clear(self)
        else:
            self.extend(copy_json(list(self)) * (times - 1))
        return self


DICT_TYPES: frozenset[type] = frozenset({dict, CheckedDict})
"""The types a message stores as a JSON object: ``dict`` and the checked dict it hands
out. Any other ``Mapping`` given (a dict subclass, an ``OrderedDict``) is stored as a
plain dict (:func:`~agentmsg._validate.as_dict`)."""
LIST_TYPES: frozenset[type] = frozenset({list, CheckedList, ContentList})
"""The types a message accepts as a JSON array: ``list`` and the checked lists it hands
out."""
