"""Hypothesis strategies for messages, blocks and JSON values, valid and hostile,
which the property tests and the hostile-input tests share."""

from __future__ import annotations

import math
from collections import OrderedDict, defaultdict
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from hypothesis import strategies as st

from agentmsg._validate import MAX_DEPTH

MEDIA_KINDS = ("image", "audio", "video")


texts = st.text(max_size=12)
names = st.text(min_size=1, max_size=12)
# "type" is left out of generated keys so that a random JSON tool output never looks like
# a list of content blocks (which is validated as blocks instead).
keys = texts.filter(lambda key: key != "type")
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts
)


def json_containers(children):
    """Lists and dicts of *children* (a named function: hypothesis reads its source)."""
    return st.lists(children, max_size=3) | st.dictionaries(keys, children, max_size=3)


json_values = st.recursive(json_scalars, json_containers, max_leaves=8)
json_objects = st.dictionaries(keys, json_values, max_size=4)


# A data: URL's media subtype and parameters hold no ';' or ',' (they end the header).
header_text = st.text(
    alphabet=st.characters(exclude_characters=";,", exclude_categories=["Cs"]), max_size=8
)


@st.composite
def sources(draw: st.DrawFn, kind: str) -> dict[str, Any]:
    """A valid base64 or URL source for a block of *kind*."""
    choice = draw(st.sampled_from(["base64", "http", "data", "file"]))
    if choice == "file":  # an absolute path or a file:// URL (nothing reads it)
        prefix = draw(st.sampled_from(["/", "file:///", "file://localhost/", "C:\\", "d:/"]))
        path = draw(st.text(min_size=1, max_size=12)).lstrip("/") or "a"  # "/" alone is no file
        return {"type": "url", "url": prefix + path}
    if choice == "base64":
        subtype = draw(st.text(min_size=1, max_size=10))
        return {"type": "base64", "media_type": f"{kind}/{subtype}", "data": draw(texts)}
    if choice == "http":
        scheme = draw(st.sampled_from(["http://", "https://"]))
        return {"type": "url", "url": scheme + draw(st.text(min_size=1, max_size=20))}
    media_type = draw(st.sampled_from(["", f"{kind}/"])) + draw(header_text)
    media_type = media_type if media_type.startswith(f"{kind}/") else ""
    params = draw(st.sampled_from(["", ";base64"])) + draw(
        st.just("") | header_text.map(";".__add__)
    )
    return {"type": "url", "url": f"data:{media_type}{params},{draw(texts)}"}


@st.composite
def media_blocks(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(MEDIA_KINDS))
    return {"type": kind, "source": draw(sources(kind))}


def optional(key: str) -> st.SearchStrategy[dict[str, str]]:
    """Nothing, or the optional string field *key* (AgentScope's extra block fields)."""
    return st.just({}) | st.builds(lambda text: {key: text}, texts)


text_blocks = st.builds(
    lambda text, extra: {"type": "text", "text": text, **extra},
    texts,
    optional("thought_signature"),
)
thinking_blocks = st.builds(
    lambda text, extra: {"type": "thinking", "thinking": text, **extra},
    texts,
    optional("signature"),
)
tool_use_blocks = st.builds(
    lambda call_id, name, arguments, raw, signature: {
        "type": "tool_use",
        "id": call_id,
        "name": name,
        "input": arguments,
        **raw,
        **signature,
    },
    names,
    names,
    json_objects,
    optional("raw_input"),
    optional("thought_signature"),
)
tool_outputs = texts | json_values | st.lists(text_blocks | media_blocks(), min_size=1, max_size=3)
tool_result_blocks = st.builds(
    lambda call_id, name, output: {
        "type": "tool_result",
        "id": call_id,
        "name": name,
        "output": output,
    },
    names,
    names,
    tool_outputs,
)
blocks = text_blocks | thinking_blocks | media_blocks() | tool_use_blocks | tool_result_blocks


class Opaque:
    """An object no JSON writer knows."""


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


class PluginInfo(dict):  # type: ignore[type-arg]  # as ERNIE Bot Agent declares it
    """A dict subclass."""


class BrokenMapping(Mapping):  # type: ignore[type-arg]
    """A Mapping whose every read raises."""

    def __getitem__(self, key: object) -> object:
        raise RuntimeError("no reading")

    def __iter__(self) -> Any:
        return iter(["k"])

    def __len__(self) -> int:
        return 1


class LyingDict(dict):  # type: ignore[type-arg]
    """A dict subclass whose methods and repr say something else than its contents."""

    def items(self) -> Any:
        raise RuntimeError("no items")

    def __repr__(self) -> str:
        return "{}"


hostile_texts = st.text(
    alphabet=st.sampled_from([*BIDI, "\x00", "\ud800", "\udfff", "a", "é", "中", "א", "/", "."]),
    max_size=8,
)
# Built when drawn: a strategy holding them would fail to show itself (their repr raises).
hostile_ints = st.sampled_from([5000, 4400, 4299, 20]).map(
    lambda digits: -(10**digits)
) | st.sampled_from([5000, 4299]).map(lambda digits: 10**digits)


@st.composite
def deep_values(draw: st.DrawFn) -> Any:
    """Lists and dicts nested around the depth limit (a little under to far over)."""
    levels = draw(st.sampled_from([MAX_DEPTH - 3, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 5000]))
    value: Any = draw(json_scalars)
    for level in range(levels):
        value = [value] if level % 2 else {"k": value}
    return value


@st.composite
def cycles(draw: st.DrawFn) -> Any:
    """A list or dict that holds itself, maybe one level down."""
    outer: Any = [] if draw(st.booleans()) else {}
    inner: Any = [outer]
    if isinstance(outer, list):
        outer.append(inner if draw(st.booleans()) else outer)
    else:
        outer["self"] = inner if draw(st.booleans()) else outer
    return outer


def mapping_kinds(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Every kind of Mapping around a dict of *children*."""
    plain = st.dictionaries(keys, children, max_size=3)
    return (
        plain.map(OrderedDict)
        | plain.map(PluginInfo)
        | plain.map(MappingProxyType)
        | plain.map(lambda items: defaultdict(list, items))
        | plain.map(LyingDict)
        | st.builds(BrokenMapping)
    )


odd_keys = st.dictionaries(
    st.sampled_from([1, None, (1, 2), 1.5, True, "\ud800", "a\x00"]), json_scalars, min_size=1
)
hostile_leaves = (
    hostile_texts | hostile_ints | st.sampled_from([math.nan, -math.inf]) | st.builds(Opaque)
)


def hostile_containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return (
        st.lists(children, max_size=3)
        | st.dictionaries(keys | hostile_texts, children, max_size=3)
        | mapping_kinds(children)
    )


hostile_values = (
    st.recursive(json_scalars | hostile_leaves, hostile_containers, max_leaves=6)
    | deep_values()
    | cycles()
    | odd_keys
)
SPECIAL_PATHS = [
    "/etc/shadow",
    "/etc/passwd",
    "/proc/self/environ",
    "/dev/zero",
    "/dev/stdin",
    "file:///dev/urandom",
    "file:///a%00b",
    "file:///%ff%fe",
    "file:///%ED%A0%80",
    "file://other.host/etc/passwd",
    "../../../../etc/passwd",
    "pipe.png",
    "./folder",
    "missing.png",
    "link.png",
]
hostile_urls = (
    st.sampled_from(SPECIAL_PATHS) | hostile_texts | hostile_texts.map("https://x/".__add__)
)


@st.composite
def hostile_blocks(draw: st.DrawFn) -> Any:
    """A content block whose values (and maybe whose own type) are hostile."""
    kind = draw(st.sampled_from(["text", "thinking", "tool_use", "tool_result", *MEDIA_KINDS]))
    if kind == "text":
        block: Any = {"type": "text", "text": draw(hostile_texts | texts)}
    elif kind == "thinking":
        block = {"type": "thinking", "thinking": draw(hostile_texts | texts)}
    elif kind == "tool_use":
        block = {
            "type": "tool_use",
            "id": draw(hostile_texts | names),
            "name": draw(hostile_texts | names),
            "input": draw(hostile_values | json_objects),
        }
    elif kind == "tool_result":
        output = draw(hostile_values | hostile_texts | st.lists(media_blocks(), max_size=2))
        block = {"type": "tool_result", "id": "c", "name": "f", "output": output}
    else:
        block = {"type": kind, "source": {"type": "url", "url": draw(hostile_urls)}}
    if draw(st.booleans()):
        block = draw(st.sampled_from([OrderedDict, PluginInfo, MappingProxyType]))(block)
    return block


hostile_contents = hostile_texts | st.lists(hostile_blocks() | blocks, max_size=3)
