"""Every place that dispatches on a block's ``type`` covers every type of the block spec.

A place is one or more functions, read with :mod:`ast`: the types it names are the string
constants in them and the strings held by the module-level tables and tuples they use
(``_BLOCK_WRITERS``, ``MEDIA_KINDS``, ...). A type a place does not name goes to its
fallback (a generic loss report, a JSON summary, ...), which is fine only when someone
decided so: ``PLACES`` records each such decision with its reason. A type added to
``_blocks.BLOCK_SPEC`` is named by no place and in no decision yet, so
:class:`TestEveryPlaceCoversEveryType` fails, naming each place to look at.

Not places: the readers of model API responses and the stream accumulators dispatch on the
APIs' own part types, not agentmsg's; ``check_content``'s inline checks and
``to_openai_chat``'s inline loop send every block they do not recognise to the full path,
which is a place here or is made from the spec (``check_block``, ``copy_blocks``,
``json_schema``).
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
from dataclasses import dataclass, field
from typing import Any

import pytest

from agentmsg._blocks import BLOCK_SPEC, MEDIA_KINDS, OUTPUT_TYPES, SOURCE, Field


@dataclass(frozen=True)
class Place:
    """Functions of a module that dispatch on the types of *over* (a spec tuple's name)."""

    module: str
    functions: tuple[str, ...]
    over: str = "BLOCK_TYPES"
    decided: dict[str, str] = field(default_factory=dict)
    """The types the place leaves to its fallback on purpose, each with the reason."""

    @property
    def name(self) -> str:
        return f"{self.module}: {', '.join(self.functions)}"


def _lost(why: str, kinds: tuple[str, ...] = ("audio", "video")) -> dict[str, str]:
    """The decision that *kinds* go to the place's fallback, which reports them as a loss."""
    return {kind: f"the fallback reports it as a loss: {why}" for kind in kinds}


PLACES = (
    Place("agentmsg.cards._html", ("_block",)),
    Place("agentmsg.cards._html", ("_output",), over="OUTPUT_TYPES"),
    Place("agentmsg.cards._html", ("_kind",), over="MEDIA_KINDS"),
    Place(
        "agentmsg.chat._messages",
        ("ChatMessage.from_msg", "HumanMessage._from_msg", "AIMessage._from_msg"),
    ),
    Place(
        "agentmsg._message",
        ("Msg.to_json", "_big_source"),
        decided={"thinking": "no media source: _big_source says so"},
    ),
    Place(
        "agentmsg._media",
        ("check_content_media",),
        decided={
            "text": "no media to check",
            "thinking": "no media to check",
            "tool_use": "no media to check",
        },
    ),
    Place(
        "agentmsg.providers.anthropic",
        ("_Writer.message",),
        decided={
            **_lost("Anthropic Messages takes no audio", ("audio",)),
            **_lost("Anthropic Messages takes no video", ("video",)),
        },
    ),
    Place(
        "agentmsg.providers.anthropic",
        ("_Writer.output",),
        over="OUTPUT_TYPES",
        decided=_lost("Anthropic tool results hold text and images"),
    ),
    Place(
        "agentmsg.providers._common",
        ("system_prompt",),
        decided=_lost("a system prompt holds text only", ("thinking", *MEDIA_KINDS, "tool_use")),
    ),
    Place(
        "agentmsg.providers.openai_chat",
        ("_Writer.assistant",),
        decided=_lost("assistant messages hold text and tool calls only", MEDIA_KINDS),
    ),
    Place("agentmsg.providers.openai_chat", ("_Writer.user_or_system",)),
    Place(
        "agentmsg.providers.openai_chat",
        ("_Writer.tool_messages",),
        over="OUTPUT_TYPES",
        decided={
            "image": "sent by _media_part in a user message after the tool messages",
            "audio": "sent by _media_part in a user message after the tool messages",
        },
    ),
    Place("agentmsg.providers.gemini", ("_Writer.message",)),
    Place(
        "agentmsg.providers.gemini",
        ("_Writer.response",),
        over="OUTPUT_TYPES",
        decided=_lost("Gemini function responses carry images only"),
    ),
    Place(
        "agentmsg.providers.openai_responses",
        ("_Writer.assistant",),
        decided=_lost("Responses assistant items are text, reasoning and calls", MEDIA_KINDS),
    ),
    Place(
        "agentmsg.providers.openai_responses",
        ("_Writer.user_or_system",),
        decided={"tool_use": "its last branch: reported as a tool call in a user message"},
    ),
    Place(
        "agentmsg.providers.openai_responses",
        ("_Writer.outputs",),
        over="OUTPUT_TYPES",
        decided=_lost("function call outputs hold text, images and files"),
    ),
)


def _function(tree: ast.Module, qualname: str) -> ast.AST | None:
    """The function *qualname* (``Class.method`` or ``function``) of a module's tree."""
    scope: list[ast.stmt] = tree.body
    found: ast.AST | None = None
    for part in qualname.split("."):
        found = next(
            (
                node
                for node in scope
                if isinstance(node, ast.ClassDef | ast.FunctionDef) and node.name == part
            ),
            None,
        )
        if found is None:
            return None
        scope = found.body  # type: ignore[attr-defined]
    return found


def _strings(value: Any) -> set[str]:
    """The strings a module-level table holds: a dict's keys, a tuple's or set's items."""
    if isinstance(value, dict):
        return {key for key in value if isinstance(key, str)}
    if isinstance(value, tuple | list | set | frozenset):
        return {item for item in value if isinstance(item, str)}
    return set()


@functools.cache
def _tree(module_name: str) -> ast.Module:
    return ast.parse(inspect.getsource(importlib.import_module(module_name)))


def named_types(place: Place) -> set[str]:
    """The strings *place*'s functions name, directly or through the module's tables."""
    module = importlib.import_module(place.module)
    tree = _tree(place.module)
    names: set[str] = set()
    for qualname in place.functions:
        function = _function(tree, qualname)
        if function is None:
            pytest.fail(f"{place.module} has no function {qualname}: update PLACES")
        for node in ast.walk(function):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.add(node.value)
            elif isinstance(node, ast.Name):
                names |= _strings(vars(module).get(node.id))
    return names


def universe(over: str, spec: dict[str, tuple[Field, ...]]) -> tuple[str, ...]:
    """The types a place dispatches on, from *spec* (``BLOCK_SPEC`` or a changed copy)."""
    media = tuple(kind for kind, fields in spec.items() if fields == (Field("source", SOURCE),))
    return {
        "BLOCK_TYPES": tuple(spec),
        "MEDIA_KINDS": media,
        "OUTPUT_TYPES": tuple(kind for kind in spec if kind in OUTPUT_TYPES or kind in media),
    }[over]


def uncovered(spec: dict[str, tuple[Field, ...]]) -> list[str]:
    """One line per type of *spec* that a place neither names nor leaves to its fallback
    on purpose, and per decision about a type the spec no longer has."""
    problems = []
    for place in PLACES:
        kinds = universe(place.over, spec)
        named = named_types(place)
        for kind in kinds:
            if kind not in named and kind not in place.decided:
                problems.append(
                    f"{place.name} does not handle {kind!r} blocks: handle them, or say in "
                    f"PLACES why its fallback is right for them"
                )
        for kind in place.decided:
            if kind not in kinds:
                problems.append(f"{place.name}: PLACES decides about {kind!r}, not a type")
    return problems


class TestEveryPlaceCoversEveryType:
    """Each dispatch on a block's type handles every type of the spec, or says why not."""

    def test_no_place_misses_a_type(self):
        """Every place names every type it dispatches on, or PLACES gives the reason it
        is left to the place's fallback."""
        assert [] == uncovered(BLOCK_SPEC)

    @pytest.mark.parametrize("media", [False, True])
    def test_a_new_type_is_reported_at_every_place(self, media):
        """A block type added to the spec (a media kind or not) is reported at every place
        that dispatches on its kind of types, each named."""
        fields = (Field("source", SOURCE),) if media else (Field("toy", "string"),)
        spec = {**BLOCK_SPEC, "toy": fields}
        expected = [place.name for place in PLACES if "toy" in universe(place.over, spec)]

        reported = [line.partition(" does not handle 'toy'")[0] for line in uncovered(spec)]

        assert expected == reported

    def test_places_are_found(self):
        """Every function PLACES names exists and names at least one block type."""
        assert [] == [place.name for place in PLACES if not named_types(place) & set(BLOCK_SPEC)]
