"""The rules of :class:`~agentmsg.Msg`'s fields, content blocks and JSON values.

Each ``check_*`` function takes a value and its field path, raises
:class:`~agentmsg.MessageError` naming both when it is wrong, and otherwise returns a
copy the message owns. Every "`path` must be X, not Y." of the package is worded by
:func:`must_be`. The role messages' rules live with them, the media payloads' checks in
``_media.py``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable
from datetime import datetime
from functools import partial
from typing import Any

from ._blocks import (
    ARGUMENTS,
    BLOCK_SPEC,
    BLOCK_TYPES,
    MEDIA_KINDS,
    NAME,
    OUTPUT,
    OUTPUT_TYPES,
    SOURCE,
    SOURCE_SPEC,
    STRING,
    Field,
)

# The package's one import cycle: the checked containers validate with this module.
from ._containers import (
    DICT_TYPES,
    LIST_TYPES,
    CheckedDict,
    _dict_copy,
    _list_copy,
)
from ._errors import MessageError

ROLES: tuple[str, ...] = ("user", "assistant", "system")
_ROLE_SET = frozenset(ROLES)
_ALLOWED_TYPES = ", ".join(repr(name) for name in BLOCK_TYPES)
_SHOW_LIMIT = 80
_fromisoformat = datetime.fromisoformat
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
_SHAPE = b"0000-00-00 00:00:00.000"  # a timestamp with every digit made 0


def show(value: object) -> str:
    """``repr`` of *value*, shortened in the middle when it is long."""
    if type(value) is int and not writable_int(value):
        return f"<int of {value.bit_length():,} bits, too long to show>"
    try:
        text = repr(value)
    except RecursionError:
        return f"<{type(value).__name__} nested too deeply to show>"
    except Exception as error:  # the repr of a caller's object may raise anything
        return f"<{type(value).__name__} whose repr raised {type(error).__name__}>"
    if len(text) <= _SHOW_LIMIT:
        return text
    return f"{text[:50]}...{text[-20:]} ({len(text):,} characters)"


def label(value: object) -> str:
    """*value* as a word of an error or a loss: text as it is, anything else (or text UTF-8
    cannot hold) as :func:`show` gives it."""
    if type(value) is str and clean_text(value):
        return value
    return show(value)


def must_be(
    path: str,
    requirement: str,
    value: object,
    error: type[MessageError] = MessageError,
    *,
    typed: bool = False,
) -> MessageError:
    """The *error* that says "`path` must be *requirement*, not *value*." for the caller to
    raise; *typed* names the value's type before it (``not str: 'x'``)."""
    shown = f"{type(value).__name__}: {show(value)}" if typed else show(value)
    return error(f"`{path}` must be {requirement}, not {shown}.", path)


def not_a_field(where: str, owner: str, fields: str, value: object) -> MessageError:
    """The error for a key *where* that is not among the *fields* of *owner*."""
    msg = (
        f"`{where}` is not a field of {owner} (its fields are {fields}); "
        f"the value was {show(value)}."
    )
    return MessageError(msg, where)


def with_article(word: str) -> str:
    """*word* with its indefinite article: ``a tuple``, ``an image``."""
    lower = word.lower()
    vowel_sound = lower[:1] in "aeio" or lower.startswith("un")  # "a url", "an unknown"
    return f"an {word}" if vowel_sound else f"a {word}"


def _a_type(value: object) -> str:
    """The type of *value* with its article: ``a tuple``, ``an object``."""
    return with_article(type(value).__name__)


def _text(value: str, path: str) -> str:
    """*value* (a str subclass as a ``str``), unless it holds a lone surrogate."""
    if type(value) is not str:
        value = str(value)
    if value.isascii() or clean_text(value):
        return value
    raise no_surrogates(path, value)


def check_name(value: object, path: str = "name") -> str:
    """A sender name: a non-empty string."""
    if type(value) is str and value and value.isascii():  # the common case, without a call
        return value
    if isinstance(value, str) and value:
        return _text(value, path)
    raise must_be(path, "a non-empty string", value)


def check_id(value: object, path: str = "id") -> str:
    """A message or tool-call id: a non-empty string."""
    return check_name(value, path)


def check_optional_str(value: object, path: str) -> str | None:
    """None or a string."""
    if value is None or (type(value) is str and value.isascii()):
        return value
    if type(value) is str:
        return _text(value, path)
    raise must_be(path, "a string or None", value)


def check_str(value: object, path: str) -> str:
    """A string, possibly empty."""
    if type(value) is str and value.isascii():
        return value
    if isinstance(value, str):
        return _text(value, path)
    raise must_be(path, "a string", value)


def check_role(value: object, path: str = "role", roles: Iterable[str] = ROLES) -> str:
    """One of the allowed role names."""
    allowed = _ROLE_SET if roles is ROLES else frozenset(roles)
    if type(value) is str and value in allowed:
        return value
    names = ", ".join(repr(role) for role in (ROLES if roles is ROLES else roles))
    raise must_be(path, f"one of {names}", value)


def parse_timestamp(value: str) -> datetime | None:
    """Parse ``YYYY-MM-DD HH:MM:SS.mmm`` by :func:`check_timestamp`'s rule (ASCII digits, a
    date that exists), for :func:`~agentmsg.deterministic`'s *start*; else None."""
    if not (value.isascii() and value.encode().translate(_DIGITS_TO_ZERO) == _SHAPE):
        return None
    try:
        return _fromisoformat(value)  # the shape is checked; this checks the date
    except ValueError:
        return None


def check_timestamp(value: object, path: str = "timestamp") -> str:
    """A local time written as ``YYYY-MM-DD HH:MM:SS.mmm``."""
    # ASCII digits and separators in the right places: the shape; then the calendar.
    if (
        type(value) is str
        and value.isascii()
        and value.encode().translate(_DIGITS_TO_ZERO) == _SHAPE
    ):
        try:
            _fromisoformat(value)  # the shape is right; this checks the date exists
        except ValueError:
            pass  # raised below, outside the handler, so the error has no context
        else:
            return value
        raise must_be(path, "a real date and time", value)
    raise must_be(path, "a timestamp of the form 'YYYY-MM-DD HH:MM:SS.mmm'", value)


MAX_DEPTH = 100
"""How many levels of dicts and lists a JSON value may nest (``{"a": [1]}`` is two), on
every path: all stay far below Python's recursion limit."""

# Smaller integers can always be written: 640 digits is set_int_max_str_digits' least.
_BIG_INT = 10**640
_LEAST_INT = -_BIG_INT  # made once: negating _BIG_INT at each comparison allocates


def clean_text(text: str) -> bool:
    """Whether *text* holds no lone surrogate (which no UTF-8 file can hold)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def writable_int(value: int) -> bool:
    """Whether Python can write *value* as decimal text (within its digit limit)."""
    if _LEAST_INT < value < _BIG_INT:
        return True
    try:
        str(value)
    except ValueError:
        return False
    return True


def no_surrogates(path: str, value: str) -> MessageError:
    """The error for a string *value* holding a lone surrogate."""
    requirement = "text without lone surrogates (UTF-8 cannot hold them)"
    return must_be(path, requirement, value)


def _int_too_big(path: str, value: int) -> MessageError:
    msg = (
        f"`{path}` must be an integer Python can write as text (at most "
        f"{sys.get_int_max_str_digits():,} digits), not {show(value)}."
    )
    return MessageError(msg, path)


class _Bad(Exception):
    """A problem in a JSON value: its MessageError builder and where (the keys and indexes,
    collected in reverse on the way back up)."""

    def __init__(self, word: Callable[[str], MessageError]) -> None:
        self.word = word
        self.keys: list[str] = []

    def error(self, path: str | Callable[[], str]) -> MessageError:
        where = path if isinstance(path, str) else path()
        return self.word(where + "".join(reversed(self.keys)))


def _bad_leaf(value: Any) -> _Bad:
    """The problem with *value*, a leaf that is not a plain str, int, bool or None."""
    kind = type(value)
    if kind is str:
        return _Bad(lambda path: no_surrogates(path, value))
    if kind is int:
        return _Bad(lambda path: _int_too_big(path, value))
    if kind is float:
        requirement = "a finite number (JSON has no NaN or infinity)"
        return _Bad(lambda path: must_be(path, requirement, value))
    return _Bad(
        lambda path: MessageError(
            f"`{path}` must be a JSON value (str, number, bool, None, list or dict), "
            f"not {_a_type(value)}: {show(value)}.",
            path,
        )
    )


def _too_deep_at(value: Any) -> _Bad:
    return _Bad(
        lambda path: MessageError(
            f"`{path}` is nested too deeply (a JSON value holds at most {MAX_DEPTH} "
            f"levels of dicts and lists): {show(value)}.",
            path,
        )
    )


def as_dict(value: Any, path: str, requirement: str) -> dict[Any, Any]:
    """*value* as a plain ``dict`` (another ``Mapping`` as a plain copy); anything else
    raises MessageError saying *requirement*."""
    kind = type(value)
    if kind is dict or kind is CheckedDict:
        return value  # type: ignore[no-any-return]
    from collections.abc import Mapping

    if not isinstance(value, Mapping):
        raise must_be(path, requirement, value, typed=True)
    try:
        return dict(value)
    except Exception as error:  # a Mapping of the caller's that cannot be read
        raise _unreadable(value, error, path) from None


def _unreadable(value: object, error: Exception, path: str) -> MessageError:
    msg = (
        f"`{path}` is {_a_type(value)} that cannot be read as a dict "
        f"({type(error).__name__}: {show(str(error))})."
    )
    return MessageError(msg, path)


def is_mapping(value: object) -> bool:
    """Whether *value* is a dict or another ``Mapping``, as :func:`as_dict` accepts."""
    if type(value) in DICT_TYPES:
        return True
    from collections.abc import Mapping

    return isinstance(value, Mapping)


def _json_copy(value: Any, room: int) -> Any:
    """A plain copy of the JSON container *value*, which may nest *room* more levels;
    raises :class:`_Bad` where it is not JSON. Leaves are shared (immutable)."""
    if room <= 0:
        raise _too_deep_at(value)
    kind = type(value)
    keyed = True
    copied: Any
    if kind is dict or kind is CheckedDict:
        copied = _dict_copy(value)
    elif isinstance(value, list):  # a list subclass too, stored as a plain list
        copied = _list_copy(value)
        keyed = False
    elif is_mapping(value):
        try:
            copied = dict(value)
        except Exception as error:  # a Mapping of the caller's that cannot be read
            # A partial, not a lambda: a closure would make every local read slower.
            raise _Bad(partial(_unreadable, value, error)) from None
    else:
        raise _bad_leaf(value)
    # Leaves as they are, containers replaced by their checked copies.
    for key, item in copied.items() if keyed else enumerate(copied):
        if keyed and (type(key) is not str or not (key.isascii() or clean_text(key))):
            raise _Bad(partial(_bad_key_at, key))
        leaf = type(item)
        if leaf is str:
            if item.isascii() or clean_text(item):
                continue
        elif leaf is int:
            # Within 30 bits the interpreter compares quickest; writable_int does the rest.
            if -0x3FFFFFFF <= item <= 0x3FFFFFFF or writable_int(item):
                continue
        elif leaf is bool or item is None:
            continue
        elif leaf is float:
            if -_INFINITY < item < _INFINITY:
                continue
        else:
            try:
                copied[key] = _json_copy(item, room - 1)
            except _Bad as problem:
                problem.keys.append(f".{key}" if keyed else f"[{key}]")
                raise
            continue
        found = _bad_leaf(item)
        found.keys.append(f".{key}" if keyed else f"[{key}]")
        raise found
    return copied


def _bad_key_at(key: object, path: str) -> MessageError:
    return bad_key(path, key)


def bad_key(path: str, key: object) -> MessageError:
    """The error for a JSON dict key that is not a string, or holds a lone surrogate."""
    if type(key) is str:
        msg = f"`{path}` keys must be text without lone surrogates, not {show(key)}."
    else:
        msg = f"`{path}` keys must be strings, not {show(key)}."
    return MessageError(msg, path)


def check_json(value: Any, path: str | Callable[[], str], room: int = MAX_DEPTH) -> Any:
    """A JSON value (str, int, finite float, bool, None, list, dict with str keys), copied:
    what a JSON round trip would not give back unchanged is refused, not converted (a
    ``Mapping`` or list subclass is stored plain). *path* may be a function giving it."""
    kind = type(value)
    if kind is str:
        if value.isascii() or clean_text(value):
            return value
    elif kind is int:
        if writable_int(value):
            return value
    elif kind is bool or value is None:
        return value
    elif kind is float:
        if -_INFINITY < value < _INFINITY:
            return value
    else:
        try:
            return _json_copy(value, room)
        except _Bad as bad:
            raise bad.error(path) from None
    raise _bad_leaf(value).error(path)


def check_metadata(value: Any, path: str = "metadata") -> dict[str, Any] | None:
    """None, or a dict (any ``Mapping``) with string keys and JSON values."""
    if value is None:
        return None
    if type(value) is not dict and not is_mapping(value):
        raise must_be(path, "a dict of JSON values or None", value, typed=True)
    copied: dict[str, Any] = check_json(value, path)
    return copied


def _too_deep(path: str, value: object) -> MessageError:
    msg = f"`{path}` is nested too deeply to be checked: {show(value)}."
    return MessageError(msg, path)


def _check_keys(
    block: dict[str, Any],
    required: tuple[str, ...],
    optional: tuple[str, ...],
    path: str,
    noun: str = "block",
) -> None:
    """Raise for the first missing or unknown key of *block* (a block or a source)."""
    for key in required:
        if key not in block:
            msg = (
                f"`{path}` is {with_article(str(block['type']))} {noun} "
                f"without its `{key}` field: {show(block)}."
            )
            raise MessageError(msg, f"{path}.{key}")
    for key in block:
        if key not in required and key not in optional:
            allowed = ", ".join(f"`{name}`" for name in required)
            if optional:
                allowed += ", and optionally " + ", ".join(f"`{name}`" for name in optional)
            owner = f"{with_article(str(block['type']))} {noun}"
            raise not_a_field(f"{path}.{key}", owner, allowed, block[key])


def is_local_file(url: str) -> bool:
    """Whether *url* names a local file: a ``file://`` URL, an absolute path (``/...`` not
    ``//``, or ``C:\\...``) or a relative one (no slash first, no ``:`` before the first)."""
    if url.startswith("file://"):
        host, slash, path = url[7:].partition("/")
        return bool(slash and path) and not any(char in host for char in "?#\\")
    if url.startswith("/"):
        return len(url) > 1 and url[1] != "/"
    if len(url) > 3 and url[1] == ":" and url[2] in "\\/" and url[0].isascii() and url[0].isalpha():
        return True
    if not url or url.startswith("\\"):  # "\\\\host\\..."
        return False
    first = url.split("/", 1)[0].split("\\", 1)[0]
    return ":" not in first


def _good_url(url: str, kind: str) -> bool:
    """An http(s) URL with something after the scheme, a data: URL (its comma, and a media
    type of *kind* if it names one), a ``file://`` URL or a local path."""
    if url.startswith("https://"):
        return len(url) > 8
    if url.startswith("http://"):
        return len(url) > 7
    if not url.startswith("data:"):
        return is_local_file(url)
    header, comma, _ = url.partition(",")
    if not comma:
        return False
    media_type = header[5:].partition(";")[0]
    if not media_type:
        return True
    major, slash, _ = media_type.partition("/")
    return major == kind and slash == "/"


def _check_source(source: Any, kind: str, block_path: str, name: str) -> dict[str, Any]:
    path = f"{block_path}.{name}"
    source = as_dict(source, path, "a dict with `type` 'base64' or 'url'")
    source_type = source.get("type")
    if source_type == "url":
        _check_keys(source, *_SOURCE_KEYS["url"], path, "source")
        url = _check_string(source["url"], kind, path, "url")
        if not _good_url(url, kind):
            requirement = (
                f"an http or https URL, a data: URL holding {kind} data, "
                f"a file:// URL or a local file path"
            )
            raise must_be(f"{path}.url", requirement, url)
        copy = dict(source)  # the caller's key order
        copy["type"], copy["url"] = "url", url
        return copy
    if source_type == "base64":
        _check_keys(source, *_SOURCE_KEYS["base64"], path, "source")
        media_type = _check_string(source["media_type"], kind, path, "media_type")
        major, slash, minor = media_type.partition("/")
        if major != kind or not slash or not minor:
            raise must_be(
                f"{path}.media_type", f"a media type of the form '{kind}/...'", media_type
            )
        data = _check_string(source["data"], kind, path, "data")
        if len(_GOOD_MEDIA_TYPES) < _GOOD_MEDIA_TYPES_LIMIT:
            _GOOD_MEDIA_TYPES[media_type] = kind
        copy = dict(source)  # the caller's key order
        copy["type"], copy["media_type"], copy["data"] = "base64", media_type, data
        return copy
    raise must_be(f"{path}.type", "'base64' or 'url'", source_type)


def is_block_list(value: Any) -> bool:
    """Whether *value* is a non-empty list of dicts that all have a known block ``type``: a
    tool output checked as blocks, not as a JSON value."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(is_mapping(item) and _names_a_block_type(item) for item in value)
    )


def _names_a_block_type(item: Any) -> bool:
    """Whether ``item.get("type")`` is a block type (not when a Mapping of the caller's
    cannot answer: check_json will say why)."""
    try:
        kind = item.get("type")
    except Exception:  # its own get or __getitem__ raised
        return False
    return type(kind) is str and kind in BLOCK_SPEC


# The checks of each kind of value the spec names: (value, block kind, block path, field
# name); the field's path is built only where it is needed.


def _check_string(value: Any, kind: str, path: str, name: str) -> Any:
    if type(value) is str:
        if value.isascii() or clean_text(value):
            return value
        raise no_surrogates(f"{path}.{name}", value)
    raise must_be(f"{path}.{name}", "a string", value)


def _check_name(value: Any, kind: str, path: str, name: str) -> Any:
    if type(value) is str and value and value.isascii():
        return value
    return check_name(value, f"{path}.{name}")


def _check_arguments(value: Any, kind: str, path: str, name: str) -> Any:
    path = f"{path}.{name}"
    return check_json(as_dict(value, path, "a dict of the tool's arguments"), path)


def _check_output(output: Any, kind: str, path: str, name: str) -> Any:
    """A tool output: a string, a list of text and media blocks, or any JSON value."""
    if type(output) is str:
        return check_str(output, f"{path}.{name}")
    path = f"{path}.{name}"
    if not is_block_list(output):
        return check_json(output, path)
    copied = []
    for index, item in enumerate(output):
        item_path = f"{path}[{index}]"
        item = as_dict(item, item_path, "a content block")
        item_kind = item["type"]
        if item_kind not in _OUTPUT_TYPES:
            raise must_be(f"{item_path}.type", f"{_OUTPUT_NAMES} in a tool output", item_kind)
        copied.append(_check_fields(item, item_kind, item_path))
    return copied


_VALUE_CHECKS: dict[str, Callable[[Any, str, str, str], Any]] = {
    STRING: _check_string,
    NAME: _check_name,
    ARGUMENTS: _check_arguments,
    SOURCE: _check_source,
    OUTPUT: _check_output,
}


def _keys(fields: tuple[Field, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The required keys (``type`` first) and the optional keys of a spec entry."""
    required = ("type", *(field.name for field in fields if field.required))
    return required, tuple(field.name for field in fields if not field.required)


# Each block type's name (a plain str), keys, and field checks in the spec's order
# (required fields first); each source type's keys.
_FieldCheck = tuple[str, bool, Callable[[Any, str, str, str], Any]]
_BLOCK_CHECKS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...], tuple[_FieldCheck, ...]]] = {
    kind: (
        kind,
        *_keys(fields),
        tuple((field.name, field.required, _VALUE_CHECKS[field.value]) for field in fields),
    )
    for kind, fields in BLOCK_SPEC.items()
}
_SOURCE_KEYS = {kind: _keys(fields) for kind, fields in SOURCE_SPEC.items()}
_OUTPUT_TYPES = frozenset(OUTPUT_TYPES)
_OUTPUT_NAMES = f"{', '.join(repr(kind) for kind in OUTPUT_TYPES[:-1])} or {OUTPUT_TYPES[-1]!r}"


def _check_fields(block: dict[str, Any], kind: str, path: str) -> dict[str, Any]:
    """A checked copy of a *kind* block, its fields checked in the spec's order, its keys in
    the block's."""
    type_name, required, optional, checks = _BLOCK_CHECKS[kind]
    _check_keys(block, required, optional, path)
    copy = dict(block)  # the keys in the caller's order; each value replaced below
    copy["type"] = type_name
    for name, needed, check in checks:
        if needed or name in block:
            copy[name] = check(block[name], type_name, path, name)
    return copy


def check_block(block: Any, path: str) -> dict[str, Any]:
    """One content block, validated and copied (any ``Mapping`` is read as a dict)."""
    block = as_dict(block, path, "a content block (a dict with a `type` field)")
    try:
        kind = block["type"]
        if kind not in BLOCK_SPEC:
            raise KeyError(kind)
    except (KeyError, TypeError):
        if "type" in block:
            raise must_be(f"{path}.type", f"one of {_ALLOWED_TYPES}", block["type"]) from None
        msg = f"`{path}` has no `type` field (one of {_ALLOWED_TYPES}): {show(block)}."
        raise MessageError(msg, f"{path}.type") from None
    try:
        return _check_fields(block, kind, path)
    except RecursionError:
        raise _too_deep(path, block) from None


def check_content(value: Any, path: str = "content") -> str | list[dict[str, Any]]:
    """Message content: a string, or a list of content blocks (validated and copied).

    The common blocks are checked inline, which only ever says "valid" or "look again"
    (a KeyError or TypeError too): :func:`check_block` decides and words the error."""
    if type(value) is str:
        return check_str(value, path)
    if type(value) not in LIST_TYPES:
        if isinstance(value, str):
            return check_str(str(value), path)
        raise must_be(path, "a string or a list of content blocks", value)
    copied: list[dict[str, Any]] = []
    append = copied.append
    try:
        for block in value:
            # Pays in make bench: messages build and from_dict (3-block, tool, 7-block) 2.3-3.1x.
            # Each shortcut takes a block of exactly the spec's required keys, of plain
            # str type, and copies it as check_block does: the caller's key order kept.
            if type(block) is dict:
                try:
                    kind = block["type"]
                    size = len(block)
                    if type(kind) is not str:
                        pass
                    elif kind == "text" or kind == "thinking":
                        text = block[kind]  # their one field is named after the type
                        if size == 2 and type(text) is str and (text.isascii() or text.encode()):
                            append(block.copy())  # two keys, both present: nothing else
                            continue
                    elif kind == "tool_use" or kind == "tool_result":
                        call_id = block["id"]
                        name = block["name"]
                        if (
                            size == 4
                            and type(call_id) is str
                            and call_id
                            and call_id.isascii()
                            and type(name) is str
                            and name
                            and name.isascii()
                        ):
                            if kind == "tool_use":
                                field, inner = "input", block["input"]
                                if type(inner) is dict:
                                    inner = _json_copy(inner, MAX_DEPTH)
                                else:
                                    inner = _INVALID
                            else:
                                field, inner = "output", _fast_output(block["output"])
                            if inner is not _INVALID:
                                copy = block.copy()
                                copy[field] = inner
                                append(copy)
                                continue
                    elif kind in _FAST_MEDIA and size == 2:
                        media = _fast_media(block, kind)
                        if media is not None:
                            append(media)
                            continue
                except (KeyError, TypeError, ValueError, _Bad):
                    pass
            append(check_block(block, f"{path}[{len(copied)}]"))
    except RecursionError:
        raise _too_deep(path, value) from None
    return copied


# -- fast checks -------------------------------------------------------------------------
# A copy of a value valid in the common shape, else _INVALID or None (or KeyError,
# TypeError, or ValueError: a non-ASCII string's encode() refuses a lone surrogate, one
# call where clean_text costs three): then check_block decides, and words the error.

_INFINITY = math.inf
_INVALID: Any = object()
_GOOD_MEDIA_TYPES: dict[str, str] = {}
"""The media types :func:`_check_source` found good, each with its kind (``"image/png"``:
``"image"``), for the inline check; at most :data:`_GOOD_MEDIA_TYPES_LIMIT` of them."""
_GOOD_MEDIA_TYPES_LIMIT = 256
_FAST_MEDIA = frozenset(MEDIA_KINDS)


def _fast_media(block: dict[str, Any], kind: str) -> dict[str, Any] | None:
    """A copy of a well-formed *kind* media block of two keys, or None."""
    source = block["source"]
    if type(source) is not dict:
        return None
    source_type = source["type"]
    if type(source_type) is not str:
        return None
    if source_type == "base64":
        media_type = source["media_type"]
        if not (
            len(source) == 3
            and type(media_type) is str
            and type(data := source["data"]) is str
            and data.isascii()
            and _GOOD_MEDIA_TYPES.get(media_type) == kind
        ):
            return None
    elif source_type == "url":
        url = source["url"]
        if not (
            len(source) == 2
            and type(url) is str
            and url.isascii()
            and ((url.startswith("https://") and len(url) > 8) or _good_url(url, kind))
        ):
            return None
    else:
        return None
    copy = block.copy()
    copy["source"] = source.copy()  # its keys, all present, hold strings
    return copy


def _fast_output(output: Any) -> Any:
    """A copy of a tool output, or :data:`_INVALID`."""
    if type(output) is str:
        return output if output.isascii() or output.encode() else _INVALID
    if type(output) is list and output:
        first = output[0]
        if type(first) is not dict:
            if is_mapping(first):  # maybe a block: check_block decides
                return _INVALID
        elif first.get("type") in BLOCK_SPEC:
            # Maybe a list of blocks (check_block tells, when a check below fails): each
            # item must be a well-formed text or media block.
            blocks: list[dict[str, Any]] = []
            append = blocks.append
            try:
                for item in output:
                    if type(item) is not dict or len(item) != 2:
                        return _INVALID
                    kind = item["type"]
                    if type(kind) is not str:
                        return _INVALID
                    if kind == "text":
                        text = item["text"]
                        if type(text) is not str or not (text.isascii() or text.encode()):
                            return _INVALID
                        append(item.copy())
                    elif kind in _FAST_MEDIA:
                        media = _fast_media(item, kind)
                        if media is None:
                            return _INVALID
                        append(media)
                    else:
                        return _INVALID
            except KeyError:
                return _INVALID
            return blocks
    elif type(output) is not dict and type(output) is not list:
        return _INVALID  # a leaf, or a list subclass that may hold blocks
    return _json_copy(output, MAX_DEPTH)


def check_block_types(block_type: object, path: str = "block_type") -> frozenset[str] | None:
    """The ``block_type`` argument of the helpers: None, a type name or a list of them."""
    if block_type is None:
        return None
    names = [block_type] if isinstance(block_type, str) else block_type
    if not isinstance(names, list | tuple | set | frozenset):
        raise must_be(path, "a block type name or a list of them", block_type)
    for name in names:
        if type(name) is not str or name not in BLOCK_SPEC:
            msg = f"`{path}` must name block types among {_ALLOWED_TYPES}, not {show(name)}."
            raise MessageError(msg, path)
    return frozenset(names)


# -- provider data (agentmsg.providers reads the JSON of model APIs with these) -------------


def check_object(value: object, path: str) -> dict[str, Any]:
    """A JSON object (a dict)."""
    if type(value) is dict or isinstance(value, dict):  # the first test needs no call
        return value
    raise must_be(path, "a JSON object (a dict)", value)


def check_array(value: object, path: str) -> list[Any]:
    """A JSON array (a list)."""
    if type(value) is list or isinstance(value, list):  # the first test needs no call
        return value
    raise must_be(path, "a JSON array (a list)", value)


def check_choice(value: object, path: str, choices: tuple[str, ...]) -> str:
    """One of *choices*."""
    if type(value) is str and value in choices:
        return value
    raise must_be(path, f"one of {', '.join(repr(choice) for choice in choices)}", value)


def check_key(data: dict[str, Any], key: str, path: str) -> Any:
    """The value of *key* in *data*, which must be there and not None."""
    value = data.get(key)
    if value is None:
        msg = f"`{path}` has no `{key}` field: {show(data)}."
        raise MessageError(msg, f"{path}.{key}")
    return value
