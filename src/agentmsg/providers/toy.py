"""Toy: a minimal model API (``turns`` of text both ways, a stream of text deltas), kept
only to prove what adding a format touches."""

from __future__ import annotations

from typing import Any

from .._message import Msg
from ._common import DEFAULT_NAMES, Conversion, Parsed, Reader, Writer
from ._stream import Stream, reject, trusted_msg

__all__ = ["ToyStream", "from_toy", "to_toy"]

FORMAT = "Toy"


def to_toy(messages: Any, *, strict: bool = False) -> Conversion:
    """Convert a conversation to the ``turns`` of a Toy request."""
    writer = Writer(FORMAT, strict)
    for index, msg in enumerate(writer.start(messages)):
        writer.name(msg, index, DEFAULT_NAMES[msg.role])
        content: Any = msg.content
        if type(content) is not str:
            texts = []
            for position, block in enumerate(content):
                if block["type"] == "text":
                    texts.append(block["text"])
                else:
                    path = f"messages[{index}].content[{position}]"
                    what = f"{block['type']} block"
                    writer.drop(path, what, "Toy turns hold text only", block)
            content = "".join(texts)
        writer.out.append({"who": msg.role, "text": content})
    return Conversion({"turns": writer.out}, tuple(writer.losses))


def from_toy(data: Any, *, strict: bool = False) -> Parsed:
    """Read messages from Toy data: a request with ``turns`` or a reply with ``reply``."""
    reader = Reader(FORMAT, strict)
    data = reader.plain(data)
    if isinstance(data, dict) and "reply" in data:
        data = {"turns": [{"who": "assistant", "text": data["reply"]}]}
    if not isinstance(data, dict) or "turns" not in data:
        reader.refuse(data, "a request with `turns` or a reply with `reply`")
    for index, turn in enumerate(reader.array(data["turns"], "turns")):
        path = f"turns[{index}]"
        turn = reader.obj(turn, path)
        reader.extra(turn, frozenset({"who", "text"}), path)
        role = reader.choice(turn.get("who"), f"{path}.who", ("user", "assistant", "system"))
        reader.turns.add(DEFAULT_NAMES[role], reader.text_at(turn, "text", path), role, path)
    return reader.parsed()


class ToyStream(Stream):
    """Assembles a streamed Toy reply: ``toy.delta`` events, then ``toy.done``."""

    __slots__ = ("_done", "_pieces")
    _FORMAT = FORMAT
    _LAST = "toy.done"
    _EVENT_TYPES = frozenset({"toy.delta", "toy.done"})

    def __init__(self) -> None:
        super().__init__()
        self._pieces: list[str] = []
        self._done = False

    def _take(self, event: dict[str, Any], index: int) -> None:
        self._refuse_foreign(event, index)
        kind = event.get("type")
        if self._done:
            reject(FORMAT, index, "type", kind, "the reply ended with toy.done")
        if kind == "toy.delta" and type(event.get("text")) is str:
            self._pieces.append(event["text"])
        elif kind == "toy.done":
            self._done = True
        else:
            reject(FORMAT, index, "", event, "it is not a Toy event")

    def _ended(self) -> bool:
        return self._done

    def _snapshot(self) -> dict[str, Any] | None:
        return {"reply": "".join(self._pieces)} if self._pieces or self._done else None

    def _convert(self, response: dict[str, Any], strict: bool) -> Parsed:
        return from_toy(response, strict=strict)

    def _built(self) -> Msg | None:
        return trusted_msg("".join(self._pieces), None, None) if self._pieces else None
