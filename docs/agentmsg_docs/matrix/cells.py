"""What a conversion did with one thing: the formats, the cells and how they are read.

A cell is found by running the package's public conversions and stream classes on a
probe (:mod:`.probes`, :mod:`.replies`) and reading the result: the losses reported at the
thing's path, and where its marker turns up.
"""

from __future__ import annotations

import base64
from typing import Any, NamedTuple

# From agentmsg.providers, not agentmsg: reading agentmsg.Loss (loaded on first use) would
# put it in agentmsg's namespace, where autodoc then resolves the API page's field types
# ("tuple[agentmsg.Loss, ...]" instead of "tuple[Loss, ...]").
from agentmsg import Msg, providers
from agentmsg.providers import Format as Format  # the record the tables read
from agentmsg.providers import Loss

#: Where a message keeps what only its provider reads back (documented in the API
#: reference: ``metadata["provider_state"]``).
STATE_KEY = "provider_state"

#: Cell statuses. "record": agentmsg's own record of a message, which no request has a
#: field for (not a loss, see the API docs); "absent": the request holds nothing of it to
#: read back; "none": the format has no such thing; "unreported": gone without a loss
#: (a defect the tests refuse).
KEPT, CARRIED, LOST, RECORD, ABSENT, NONE, UNREPORTED = (
    "kept",
    "carried",
    "lost",
    "record",
    "absent",
    "none",
    "unreported",
)


#: The provider formats, as the package lists them: each a record of its key, title, two
#: conversions and stream class.
FORMATS = tuple(providers.FORMATS.values())


class Cell(NamedTuple):
    """What one conversion does with one thing.

    ``where`` is set when the thing is carried another way and the losses do not say
    how: ``"provider_state"`` (in the message's provider state), ``"moved"`` (in
    another place of the conversation), ``"role_system"``, and for a reply
    ``"invocation_id"`` or ``"metadata"``. ``losses`` are the losses reported.
    ``events``, in a stream's cell, names the events of the stream that hold the thing.
    """

    status: str
    losses: tuple[Loss, ...] = ()
    where: str | None = None
    events: tuple[str, ...] = ()


def marker_places(messages: list[Msg], marker: str | int) -> list[str]:
    """The paths in *messages* whose value holds *marker* (base64 data decoded too), or,
    for an integer marker, whose value is that number."""
    found: list[str] = []

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{path}.{key}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{path}[{index}]")
        elif not isinstance(marker, str):
            if type(value) is int and value == marker:
                found.append(path)
        elif isinstance(value, str) and (marker in value or marker in decoded(value)):
            found.append(path)

    for index, msg in enumerate(messages):
        content = msg.content
        if isinstance(content, str):  # a string is one text block
            content = [{"type": "text", "text": content}]
        fields = {
            "name": msg.name,
            "role": msg.role,
            "content": content,
            "metadata": msg.metadata,
            "invocation_id": msg.invocation_id,
        }
        walk(fields, f"messages[{index}]")
    return found


def decoded(text: str) -> str:
    try:
        return base64.b64decode(text, validate=True).decode("utf-8", "replace")
    except ValueError:
        return ""


def under(loss: Loss, path: str) -> bool:
    return loss.path == path or loss.path.startswith((f"{path}.", f"{path}["))


def from_losses(losses: tuple[Loss, ...]) -> Cell | None:
    if not losses:
        return None
    return Cell(LOST if any(loss.dropped for loss in losses) else CARRIED, losses)


def b64(marker: str) -> str:
    return base64.b64encode(marker.encode()).decode()
