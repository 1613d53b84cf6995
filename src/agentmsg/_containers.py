"""The containers a message hands out, which check every change made in place, and the
one deep copy agentmsg makes of JSON-shaped values.

A :class:`~agentmsg.Msg` stores its content and metadata as plain lists and dicts; the
first read of ``msg.content`` or ``msg.metadata`` turns them into the classes below,
``list`` and ``dict`` subclasses whose every change in place is checked at once by the
rules of a new message and refused with :class:`~agentmsg.MessageError` (the container
left as it was) when it would make the message invalid.

- :class:`ContentList` is ``msg.content``: a block put in is checked and stored as a copy.
- :class:`CheckedDict` and :class:`CheckedList` are every dict and list inside it and
  ``msg.metadata`` with what it holds; each knows the container it sits in (``_parent``).
  Inside a JSON value (the metadata, a tool's input, a tool's dict output) a change
  checks just the values it puts in, against the levels left above them
  (:data:`~agentmsg._validate.MAX_DEPTH`). Anywhere else (a block, a source, a tool's
  list output, a role message's field) the change is made, the whole block or field
  checked, and the change undone if the check fails.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial, wraps
from typing import Any, ClassVar, SupportsIndex

from ._blocks import ARGUMENTS, BLOCK_SPEC, OUTPUT, SOURCE, Field
from ._errors import MessageError

# Bound once: the copies and the checked copies call them for every container.
_dict_copy = dict.copy
_list_copy = list.copy
_dict_setitem = dict.__setitem__
_list_setitem = list.__setitem__


def copy_json(value: Any) -> Any:
    """A deep copy of a trusted JSON-shaped *value*: every dict and list new and plain
    (checked containers too), the leaves shared. ``check_json`` is the copy that checks."""
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
    """:func:`copy_json` of a message's validated blocks, faster: one dict copy per block,
    and a copy of its one field that nests (BLOCK_SPEC); an unknown type raises."""
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
    """The one field of a block type that holds a dict or list, with its copy (a source
    holds only strings: one dict copy), or None."""
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
    """A checked deep copy of a validated *value*, its containers inside *parent*; a str
    subclass (the validators store one only as a ``str``) as a ``str``."""
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
        list.extend(new_list, [_checked(item, new_list) for item in value])
        return new_list
    if kind is not str and isinstance(value, str):
        return str(value)
    return value


def checked_content(blocks: list[Any]) -> ContentList:
    """The :class:`ContentList` of a message's validated *blocks*."""
    content: ContentList = _new_list(ContentList)
    list.extend(content, [_checked(block, content) for block in blocks])
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


def _key_path(container: Any, key: object) -> str:
    return f"{_path_of(container)}.{key}"


def _item_path(container: Any, at: object) -> str:
    return f"{_path_of(container)}[{at}]"


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
    """Store the values a change put into *container* as checked copies of themselves,
    all made before any is stored; a container already inside it is kept (the first time
    it appears)."""
    seen: set[int] = set()
    items: Iterable[tuple[Any, Any]]
    if type(container) is CheckedDict:
        items = list(dict.items(container))
    else:
        items = list(enumerate(container))
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
    put: Any = _dict_setitem if type(container) is CheckedDict else _list_setitem
    for key, item in changes:
        put(container, key, item)


def _edit(container: Any, root: Any, node: Any, change: Callable[[], Any]) -> Any:
    """Make *change* to *container*, check the block or field *node* that *root* holds
    (none in a message any more: no check), store what it put in as checked copies; undo
    it all if anything raises."""
    before = container._plain(container)
    try:
        result = change()
        if root is not None:
            _check_whole(root, node)
        _adopt(container)
    except BaseException:
        if type(container) is CheckedDict:
            dict.clear(container)
            dict.update(container, before)
        else:
            _list_setitem(container, slice(None), before)
        raise
    return result


def _change(container: Any, in_json: Callable[[int], Any], change: Callable[[], Any]) -> Any:
    """Make a change to *container*: in a JSON value *in_json*, given the container's
    level, which checks what it puts in; elsewhere *change*, through :func:`_edit`."""
    root, node = _place(container)
    if root is _JSON:
        return in_json(node)
    return _edit(container, root, node, change)


def _taking_away(method: Callable[..., Any]) -> Callable[..., Any]:
    """*method* of ``dict`` or ``list``, which takes values away or reorders them: in a JSON
    value it needs no check; elsewhere the block or field is checked as for any change."""

    @wraps(method)
    def change(self: Any, *args: Any, **kwargs: Any) -> Any:
        unchecked = partial(method, self, *args, **kwargs)
        return _change(self, lambda level: unchecked(), unchecked)

    return change


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


class _Plain:
    """A message's dict or list that copies, deep-copies and pickles as a plain one: a copy
    is the caller's own, and changing it checks nothing."""

    __slots__ = ()
    _plain: ClassVar[type[Any]]  # dict or list

    def __copy__(self) -> Any:
        return self._plain(self)

    def __deepcopy__(self, memo: Any) -> Any:
        return copy_json(self)

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        return (self._plain, (copy_json(self),))


class CheckedDict(_Plain, dict[Any, Any]):
    """A dict inside a message (a block, a source, a tool input, the metadata...) whose
    changes are checked with the block or metadata it belongs to."""

    __slots__ = ("_parent",)
    _parent: Any
    _plain = dict

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # dict.__init__ adds to a dict in place: on a message's dict, a checked update.
        if args or kwargs:
            self.update(*args, **kwargs)

    def _value(self, key: Any, value: Any, level: int) -> Any:
        """*value* checked for *key* of this dict, a JSON object at *level*."""
        _json_key(self, key)
        return _json_item(self, level, value, partial(_key_path, self, key))

    def __setitem__(self, key: Any, value: Any) -> None:
        _change(
            self,
            lambda level: _dict_setitem(self, key, self._value(key, value, level)),
            lambda: _dict_setitem(self, key, value),
        )

    def update(self, *args: Any, **kwargs: Any) -> None:
        def in_json(level: int) -> None:
            added = _pairs(self, args, kwargs)
            dict.update(self, {key: self._value(key, item, level) for key, item in added.items()})

        _change(self, in_json, lambda: dict.update(self, *args, **kwargs))

    __delitem__ = _taking_away(dict.__delitem__)
    pop = _taking_away(dict.pop)
    popitem = _taking_away(dict.popitem)
    clear = _taking_away(dict.clear)

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


def _json_key(container: Any, key: Any) -> None:
    """Raise unless *key* may name a value of a JSON dict."""
    from ._validate import bad_key, clean_text

    if type(key) is not str or not (key.isascii() or clean_text(key)):
        raise bad_key(_path_of(container), key)


class _List(_Plain, list[Any]):
    """A message's list: the content or a list inside it."""

    __slots__ = ()
    _plain = list

    def __init__(self, *args: Any) -> None:
        # list.__init__ replaces a list's items in place: on a message's list, checked.
        if args:
            (values,) = args
            self[:] = values

    def __iadd__(self, values: Iterable[Any]) -> Any:  # type: ignore[misc]
        self.extend(values)
        return self


def _position(content: list[Any], index: SupportsIndex) -> int:
    """Where ``list.insert`` puts an item at *index*, for the field path of the error."""
    size = len(content)
    where = index.__index__()
    if where < 0:
        where += size
    return min(max(where, 0), size)


class CheckedList(_List):
    """A list inside a message (a tool output, a JSON array...) whose changes are checked
    with the block or metadata it belongs to."""

    __slots__ = ("_parent",)
    _parent: Any

    def _items(self, values: Iterable[Any], first: int, level: int) -> list[Any]:
        """*values* checked for places *first*, *first* + 1... of a JSON list at *level*."""
        return [
            _json_item(self, level, value, partial(_item_path, self, at))
            for at, value in enumerate(values, first)
        ]

    def __setitem__(self, index: Any, value: Any) -> None:
        def in_json(level: int) -> None:
            if isinstance(index, slice):
                start = index.indices(len(self))[0]
                _list_setitem(self, index, self._items(list(value), start, level))
            else:
                _list_setitem(self, index, self._items([value], index.__index__(), level)[0])

        _change(self, in_json, lambda: _list_setitem(self, index, value))

    def append(self, value: Any) -> None:
        _change(
            self,
            lambda level: list.append(self, self._items([value], len(self), level)[0]),
            lambda: list.append(self, value),
        )

    def extend(self, values: Iterable[Any]) -> None:
        items = list(values)
        _change(
            self,
            lambda level: list.extend(self, self._items(items, len(self), level)),
            lambda: list.extend(self, items),
        )

    def insert(self, index: SupportsIndex, value: Any) -> None:
        _change(
            self,
            lambda level: list.insert(
                self, index, self._items([value], _position(self, index), level)[0]
            ),
            lambda: list.insert(self, index, value),
        )

    __delitem__ = _taking_away(list.__delitem__)
    pop = _taking_away(list.pop)
    remove = _taking_away(list.remove)
    clear = _taking_away(list.clear)
    sort = _taking_away(list.sort)
    reverse = _taking_away(list.reverse)

    def __imul__(self, count: SupportsIndex) -> CheckedList:
        def in_json(level: int) -> None:
            size = len(self)
            list.__imul__(self, count)
            for at in range(size, len(self)):  # the repeats: copies, not the same containers
                item = self[at]
                if type(item) is CheckedDict or type(item) is CheckedList:
                    _list_setitem(self, at, _checked(item, self))

        _change(self, in_json, lambda: list.__imul__(self, count))
        return self


class ContentList(_List):
    """A message's content list: a block added or put in place is checked and copied.

    Removing and reordering blocks cannot make the content invalid and are not checked.
    """

    __slots__ = ()

    def _blocks(self, values: Iterable[Any], first: int) -> list[CheckedDict]:
        from ._validate import check_block  # the one cycle: _validate uses our types

        checked = [
            check_block(value, f"content[{first + offset}]") for offset, value in enumerate(values)
        ]
        return [_checked(block, self) for block in checked]

    def append(self, value: Any) -> None:
        list.append(self, self._blocks([value], len(self))[0])

    def extend(self, values: Iterable[Any]) -> None:
        list.extend(self, self._blocks(list(values), len(self)))

    def insert(self, index: SupportsIndex, value: Any) -> None:
        list.insert(self, index, self._blocks([value], _position(self, index))[0])

    def __setitem__(self, index: Any, value: Any) -> None:
        if isinstance(index, slice):
            start = index.indices(len(self))[0]
            _list_setitem(self, index, self._blocks(list(value), start))
            return
        where = index.__index__()
        position = where + len(self) if where < 0 else where
        _list_setitem(self, index, self._blocks([value], position)[0])

    def __imul__(self, count: SupportsIndex) -> ContentList:
        times = count.__index__()
        if times <= 0:
            list.clear(self)
        else:
            self.extend(copy_json(list(self)) * (times - 1))
        return self


DICT_TYPES: frozenset[type] = frozenset({dict, CheckedDict})
"""The types a message stores as a JSON object: ``dict`` and the checked dict it hands
out; any other ``Mapping`` is stored as a plain dict (``_validate.as_dict``)."""
LIST_TYPES: frozenset[type] = frozenset({list, CheckedList, ContentList})
"""The types a message accepts as a JSON array: ``list`` and the checked lists."""
