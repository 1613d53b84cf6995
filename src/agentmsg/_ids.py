"""Message ids and timestamps, and the context-local deterministic mode."""

from __future__ import annotations

import binascii
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from datetime import datetime, timedelta
from time import time_ns
from typing import Any, NamedTuple

from ._validate import must_be, parse_timestamp

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_URLSAFE = bytes.maketrans(b"+/", b"-_")
_ID_LENGTH = 22
_IDS_PER_REFILL = 256
# A multiple of 3 bytes: base64 text without padding, 6 random bits per character.
_REFILL_BYTES = _ID_LENGTH * _IDS_PER_REFILL * 3 // 4

# Random ids made in advance, 256 from one os.urandom call (far cheaper per id), taken
# with random_ids.pop() (atomic, so thread-safe); emptied in a forked child, so that it
# never hands out an id its parent also has.
random_ids: list[str] = []
os.register_at_fork(after_in_child=random_ids.clear)


def _refill() -> None:
    text = binascii.b2a_base64(os.urandom(_REFILL_BYTES), newline=False).translate(_URLSAFE)
    ids = text.decode()
    random_ids.extend([ids[start : start + _ID_LENGTH] for start in range(0, len(ids), _ID_LENGTH)])


class _Block:
    """One ``deterministic()`` block: open until it ends, wherever it ends."""

    __slots__ = ("open",)

    def __init__(self) -> None:
        self.open = True


class _Clock(NamedTuple):
    """A ``deterministic()`` block as one context sees it: the id stream's random state
    (*base*, then *drawn* ids drawn from it), the fake clock, the state outside the block.
    Never changed: each id and tick sets a new one in the current context, so a task
    starts from the state it was created with and goes on alone."""

    block: _Block
    base: tuple[Any, ...]
    drawn: int
    now: datetime
    step: timedelta
    outer: _Clock | None

    def replace(self, base: tuple[Any, ...], drawn: int, now: datetime) -> _Clock:
        return _Clock(self.block, base, drawn, now, self.step, self.outer)


_state: ContextVar[_Clock | None] = ContextVar("agentmsg_deterministic", default=None)
# Each thread's one random.Random (rng) and the id stream state it is at (base, drawn):
# a context that draws one id after another loads no state.
_scratch = threading.local()
# Ids drawn from one saved state before a new one is saved (saving costs a few draws; a
# context that finds the generator elsewhere draws at most this many to catch up).
_REBASE = 16


def _draw(rng: Any) -> str:
    choice = rng.choice
    return "".join(choice(_ALPHABET) for _ in range(_ID_LENGTH))


def active_clock() -> _Clock | None:
    """The state of the innermost ``deterministic()`` block still open in this context,
    or None: a block that has ended is over for every task, even those created in it."""
    clock = _state.get()
    while clock is not None and not clock.block.open:
        clock = clock.outer
    return clock


def new_id() -> str:
    """Return a fresh 22-character URL-safe id (random, or seeded in deterministic mode)."""
    clock = active_clock()
    if clock is None:
        while True:
            try:
                return random_ids.pop()
            except IndexError:  # empty: refill (another thread may empty it again)
                _refill()
    scratch = _scratch
    rng = getattr(scratch, "rng", None)
    if rng is None:
        import random

        rng = scratch.rng = random.Random(0)
        scratch.base = None
    base, drawn = clock.base, clock.drawn
    if scratch.base is not base or scratch.drawn != drawn:  # another context drew last
        rng.setstate(base)
        for _ in range(drawn):
            _draw(rng)
    value = _draw(rng)
    drawn += 1
    if drawn == _REBASE:
        base, drawn = rng.getstate(), 0
    scratch.base, scratch.drawn = base, drawn
    _state.set(clock.replace(base, drawn, clock.now))
    return value


_second: tuple[int, str] = (-1, "")  # the last whole second written, and its text


def format_time_ns(nanoseconds: int) -> str:
    """A :func:`time.time_ns` value as ``datetime.fromtimestamp(...).isoformat(" ",
    "milliseconds")`` writes it (local, milliseconds truncated), the date and time
    formatted once per second."""
    global _second  # one tuple, replaced whole: safe across threads
    second, millisecond = divmod(nanoseconds // 1_000_000, 1000)
    cached_second, text = _second
    if second != cached_second:
        text = datetime.fromtimestamp(second).isoformat(" ")
        _second = (second, text)
    return f"{text}.{millisecond:03d}"


def now_timestamp() -> str:
    """Return the local time as ``YYYY-MM-DD HH:MM:SS.mmm`` (or the fake clock's next tick)."""
    clock = active_clock()
    if clock is None:
        return format_time_ns(time_ns())
    value = clock.now
    _state.set(clock.replace(clock.base, clock.drawn, value + clock.step))
    return value.isoformat(" ", "milliseconds")


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
    tasks that did not enter the block are unaffected, and blocks nest. An asyncio task
    created inside the block starts from the ids and clock as they were when it was
    created and goes on alone, so what it makes does not depend on how tasks are
    scheduled (two tasks created one after the other make the same ids: give each its
    own block for distinct ones). When the block ends, it ends for every task, even if
    it is left from another task than the one that entered it.

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
    """
    import random

    begin = parse_timestamp(start) if isinstance(start, str) else None
    if begin is None:
        raise must_be("start", "a timestamp of the form 'YYYY-MM-DD HH:MM:SS.mmm'", start)
    if (
        isinstance(step_seconds, bool)
        or not isinstance(step_seconds, int | float)
        or not step_seconds >= 0
    ):
        raise must_be("step_seconds", "a number of seconds >= 0", step_seconds)
    block = _Block()
    state = random.Random(str(seed)).getstate()
    clock = _Clock(block, state, 0, begin, timedelta(seconds=step_seconds), active_clock())
    token = _state.set(clock)
    try:
        yield
    finally:
        block.open = False
        # Left from another context (an async generator closed by another task), the
        # token cannot be reset: the block is over all the same, and the context that
        # entered it, which still holds its state, goes back to the state outside it.
        with suppress(ValueError):
            _state.reset(token)
