"""Message ids and timestamps, and the context-local deterministic mode."""

from __future__ import annotations

import binascii
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta

__all__ = ["deterministic", "new_id", "now_timestamp", "parse_timestamp"]

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_URLSAFE = bytes.maketrans(b"+/", b"-_")
_DIGITS_TO_ZERO = str.maketrans("123456789", "000000000")
_SHAPE = "0000-00-00 00:00:00.000"


class _Clock:
    """The state of one ``deterministic()`` block: a seeded id stream and a fake clock."""

    __slots__ = ("now", "rng", "step")

    def __init__(self, rng: object, now: datetime, step: timedelta) -> None:
        self.rng = rng  # random.Random, imported lazily to keep ``import agentmsg`` light
        self.now = now
        self.step = step


_state: ContextVar[_Clock | None] = ContextVar("agentmsg_deterministic", default=None)


def new_id() -> str:
    """Return a fresh 22-character URL-safe id (random, or seeded in deterministic mode)."""
    clock = _state.get()
    if clock is None:
        return binascii.b2a_base64(os.urandom(16), newline=False)[:22].translate(_URLSAFE).decode()
    choice = clock.rng.choice  # type: ignore[attr-defined]
    return "".join(choice(_ALPHABET) for _ in range(22))


def now_timestamp() -> str:
    """Return the local time as ``YYYY-MM-DD HH:MM:SS.mmm`` (or the fake clock's next tick)."""
    clock = _state.get()
    if clock is None:
        return datetime.now().isoformat(" ", "milliseconds")
    value = clock.now
    clock.now = value + clock.step
    return value.isoformat(" ", "milliseconds")


def parse_timestamp(value: str) -> datetime | None:
    """Parse ``YYYY-MM-DD HH:MM:SS.mmm``; return None when the text is not of that form.

    Only ASCII digits count, and the date and time must exist (no February 30th).
    """
    if len(value) != 23 or value.translate(_DIGITS_TO_ZERO) != _SHAPE:
        return None
    try:
        return datetime.fromisoformat(value)  # the shape is checked; this checks the date
    except ValueError:
        return None


@contextmanager
def deterministic(
    seed: int | str = 0,
    *,
    start: str = "2025-01-01 09:00:00.000",
    step_seconds: float = 1.0,
) -> Iterator[None]:
    """Make new message ids and timestamps reproducible inside a ``with`` block.

    Inside the block, ids come from a random stream seeded with *seed* and timestamps
    from a clock that starts at *start* and advances *step_seconds* per message. The
    setting is context-local (a :class:`contextvars.ContextVar`), so threads and asyncio
    tasks that did not enter the block are unaffected, and blocks nest.

    Args:
        seed: Seed of the id stream. The same seed gives the same ids.
        start: The first timestamp, as ``YYYY-MM-DD HH:MM:SS.mmm``.
        step_seconds: How far the clock moves for each new message.

    Raises:
        MessageError: *start* is not a timestamp of that form, or *step_seconds* is
            negative.

    Example:
        >>> from agentmsg import Msg, deterministic
        >>> with deterministic(seed=7):
        ...     first = Msg("Ada", "Hello", "user")
        >>> with deterministic(seed=7):
        ...     again = Msg("Ada", "Hello", "user")
        >>> first == again
        True
        >>> first.timestamp
        '2025-01-01 09:00:00.000'

    .. versionadded:: 0.1.0
    """
    import random

    from ._errors import MessageError

    begin = parse_timestamp(start) if isinstance(start, str) else None
    if begin is None:
        msg = f"`start` must be a timestamp of the form 'YYYY-MM-DD HH:MM:SS.mmm', not {start!r}."
        raise MessageError(msg, "start")
    if (
        isinstance(step_seconds, bool)
        or not isinstance(step_seconds, int | float)
        or not step_seconds >= 0
    ):
        msg = f"`step_seconds` must be a number of seconds >= 0, not {step_seconds!r}."
        raise MessageError(msg, "step_seconds")
    token = _state.set(_Clock(random.Random(str(seed)), begin, timedelta(seconds=step_seconds)))
    try:
        yield
    finally:
        _state.reset(token)
