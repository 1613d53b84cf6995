"""The one deep copy agentmsg makes of JSON-shaped values (dicts, lists and leaves)."""

from __future__ import annotations

from typing import Any

__all__ = ["DICT_TYPES", "LIST_TYPES", "copy_json"]

DICT_TYPES: frozenset[type] = frozenset({dict})
"""The types a message accepts as a JSON object: ``dict`` alone, no subclass of it."""
LIST_TYPES: frozenset[type] = frozenset({list})
"""The types a message accepts as a JSON array: ``list`` alone."""

_dict_copy = dict.copy
_list_copy = list.copy


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON-shaped *value*: every dict and list new, the leaves shared.

    Leaves (strings, numbers, booleans, None) are immutable, so sharing them is safe.
    Each container is copied whole at C speed, and only its dict and list items are
    copied again. The value is trusted: :func:`~agentmsg._validate.check_json` is the
    copy that checks.
    """
    kind = type(value)
    if kind is dict:
        new_dict = _dict_copy(value)
        for key, item in value.items():
            inner = type(item)
            if inner is dict or inner is list:
                new_dict[key] = copy_json(item)
        return new_dict
    if kind is list:
        new_list = _list_copy(value)
        for index, item in enumerate(value):
            inner = type(item)
            if inner is dict or inner is list:
                new_list[index] = copy_json(item)
        return new_list
    return value
