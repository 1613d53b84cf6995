"""What the four stream accumulators share: feeding events, checking them, reading results.

Each accumulator rebuilds, from the events of one streamed reply, the response the API
would have returned unstreamed, and hands it to the format's ``from_*`` conversion: the
result of a finished stream is, by construction, that of converting the whole response.
"""

from __future__ import annotations

import copy
import math
import sys
from collections.abc import Iterable
from time import time_ns as _time_ns
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from .._errors import MessageError
from .._ids import _state, active_clock, new_id, now_timestamp, random_ids
from .._message import _CONTENT, _ID, _METADATA, _TIMESTAMP, Msg, _store_values
from .._validate import MAX_DEPTH, check_json, show
from .._validate import clean_text as clean_text  # the streams import it from here

if TYPE_CHECKING:
    from ._common import Loss, Parsed

_new_msg = object.__new__
# A partial Msg that nothing else holds may be made again in place (Stream.msg) where
# sys.getrefcount counts every holder: CPython before 3.14 (which borrows references).
_REUSE = sys.implementation.name == "cpython" and sys.version_info < (3, 14)
_refs = getattr(sys, "getrefcount", lambda value: 0)
_get_state = _state.get
_pop_id = random_ids.pop

# What marks an event of each API (each stream class's _EVENT_TYPES, _TYPE_PREFIX and
# _EVENT_KEYS, by its API's name), to tell a foreign event from a new kind of one.
_TYPES: dict[str, frozenset[str]] = {}
_PREFIXES: dict[str, str] = {}
_MARKS: dict[str, frozenset[str]] = {}


def foreign(format: str, event: dict[str, Any]) -> str | None:
    """The API whose event *event* is, when it is plainly another API's than *format*."""
    kind = event.get("type")
    if type(kind) is str:
        for api, types in _TYPES.items():
            if api != format and kind in types:
                return api
        for api, prefix in _PREFIXES.items():
            if api != format and kind.startswith(prefix):
                return api
    for api, marks in _MARKS.items():
        if api != format and not marks.isdisjoint(event):
            return api
    return None


def reject(format: str, index: int, field: str, value: Any, why: str) -> NoReturn:
    """Raise the MessageError of event *index* whose *field* holds the wrong *value*."""
    path = f"events[{index}]{'.' + field if field else ''}"
    msg = f"`{path}` of the {format} stream is {show(value)}: {why}."
    raise MessageError(msg, path)


def not_text(value: Any) -> str:
    """Why *value*, refused as a piece of a reply's text, is not one."""
    if type(value) is str:
        return "it must be text without lone surrogates (UTF-8 cannot hold them)"
    return "it must be text"


_BIG = 10**640  # smaller integers can always be written (see _validate._BIG_INT)
_INF = math.inf


def _suspect(value: Any, room: int) -> bool:
    """Whether *value* may hold what check_json refuses (a walk without a copy)."""
    if type(value) is dict:
        if not room:
            return True
        items: Iterable[Any] = value.values()
        for key in value:
            if type(key) is not str or not (key.isascii() or clean_text(key)):
                return True
    elif type(value) is list:
        if not room:
            return True
        items = value
    else:
        items = (value,)
    for item in items:
        kind = type(item)
        if kind is str:
            if not (item.isascii() or clean_text(item)):
                return True
        elif kind is dict or kind is list:
            if _suspect(item, room - 1):
                return True
        elif kind is int:
            if not -_BIG < item < _BIG:
                return True
        elif kind is float:
            if not -_INF < item < _INF:
                return True
        elif item is not None and kind is not bool:
            return True
    return False


def check_value(format: str, index: int, field: str, value: Any) -> None:
    """Refuse, at the event that brings it, a value no message can hold (not JSON, a
    lone surrogate, an integer too long to write, nested deeper than MAX_DEPTH), or one
    that check_json would store plain but a stream keeps as it is (a ``Mapping`` that is
    not a dict, a list subclass)."""
    if not _suspect(value, MAX_DEPTH):
        return
    try:
        check_json(value, field)
        where = _not_plain(value)
        if where is not None:
            inner, found = where
            why = "an event holds plain JSON values (dict, list, str, number, bool, None)"
            raise MessageError(f"`{field}{inner}` is {show(found)}: {why}", f"{field}{inner}")
    except MessageError as error:
        text = str(error)
        rest = text[len(error.path) + 2 :] if text.startswith(f"`{error.path}`") else f": {text}"
        # Without a field, the error's path starts with the first key (".a") or item.
        path = f"events[{index}]{'.' if field else ''}{error.path}"
        raise MessageError(f"`{path}` of the {format} stream{rest}", path) from None


def _not_plain(value: Any) -> tuple[str, Any] | None:
    """Where in *value*, a JSON value check_json took, a container is not a plain dict or
    list, and that container; None when there is none."""
    kind = type(value)
    if kind is dict:
        items: Iterable[tuple[str, Any]] = ((f".{key}", item) for key, item in value.items())
    elif kind is list:
        items = ((f"[{number}]", item) for number, item in enumerate(value))
    elif kind in (str, int, float, bool) or value is None:
        return None
    else:
        return "", value
    for step, item in items:
        found = _not_plain(item)
        if found is not None:
            return step + found[0], found[1]
    return None


def joined(pieces: list[str]) -> str:
    """The text of *pieces*, which are left holding it as their one piece.

    The text so far is taken out of the list before the new pieces are added to it, so
    that when nothing else holds it (the previous partial message is gone) CPython grows
    it in place: a read after every event costs the new pieces, not the whole text.
    """
    count = len(pieces)
    if count == 2:  # one piece came since the last read: the most frequent case
        text, more = pieces
        pieces.clear()  # the list lets go of the text: only `text` holds it now
        text += more
        pieces.append(text)
        return text
    if count == 1:
        return pieces[0]
    if not count:
        return ""
    text = pieces[0]
    pieces[0] = ""
    text += "".join(pieces)
    del pieces[1:]
    pieces[0] = text
    return text


def trusted_msg(
    content: str | list[dict[str, Any]],
    metadata: dict[str, Any] | None,
    invocation_id: str | None,
    made: Msg | None = None,
) -> Msg:
    """An assistant Msg of what conversions made (so valid), not checked again; *made*, a
    message a conversion has just made for this read, is filled in (one id per read)."""
    if made is not None:
        values = made._values
        values[_CONTENT] = content
        values[_METADATA] = metadata
        return made
    # Msg.__init__ with nothing to check (bench streams.recorded, every "reading .msg"
    # cell: a third of Msg()'s cost), its id and time handed out the same way.
    msg = _new_msg(Msg)
    when: str | int
    if _get_state() is not None and active_clock() is not None:
        made_id, when = new_id(), now_timestamp()
    else:
        try:
            made_id = _pop_id()
        except IndexError:  # the supply of random ids ran out: new_id refills it
            made_id = new_id()
        when = _time_ns()
    _store_values(msg, [made_id, "assistant", "assistant", content, metadata, when, invocation_id])
    return msg


def merge_into(target: dict[str, Any], update: dict[str, Any]) -> None:
    """Merge a streamed piece of an object into what came before: text appended, lists
    extended (in place: the target owns them), objects merged, the rest replaced; None is
    no value."""
    for key, value in update.items():
        if value is None:
            continue
        old: Any = target.get(key)
        if type(value) is str and type(old) is str:
            target[key] = old + value
        elif isinstance(value, list):
            if isinstance(old, list):
                old.extend(value)
            else:
                target[key] = list(value)
        elif isinstance(value, dict):
            if not isinstance(old, dict):
                old = target[key] = {}
            merge_into(old, value)
        else:
            target[key] = value


class Stream:
    """The part every accumulator shares: events in, partial message and result out.

    A subclass checks and takes one event (``_take``), says whether the reply has ended
    (``_ended``), rebuilds the response so far (``_snapshot``) and converts it
    (``_convert``); it may build the partial message itself (``_built``, ``_grows``).
    """

    __slots__ = ("_count", "_first", "_grows", "_last", "_losses", "_partial", "_shape")
    _FORMAT: ClassVar[str] = ""
    _ONE_ID: ClassVar[bool] = False
    _LAST: ClassVar[str] = ""
    # What marks an event of this API and no other (see foreign()).
    _EVENT_TYPES: ClassVar[frozenset[str]] = frozenset()
    _TYPE_PREFIX: ClassVar[str] = ""
    _EVENT_KEYS: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls._EVENT_TYPES:
            _TYPES[cls._FORMAT] = cls._EVENT_TYPES
        if cls._TYPE_PREFIX:
            _PREFIXES[cls._FORMAT] = cls._TYPE_PREFIX
        if cls._EVENT_KEYS:
            _MARKS[cls._FORMAT] = cls._EVENT_KEYS

    def __init__(self) -> None:
        self._count = 0
        self._partial: Msg | None = None
        # While only one block's text grows from read to read (_ONE_ID streams), what the
        # partial message is made of: the blocks before it, that block without its text,
        # the field the text fills (None: it shows nothing of it) and the text's pieces;
        # the other values of the message (_shape); the id and time of every partial.
        self._grows: tuple[list[Any], dict[str, Any], str | None, list[str]] | None = None
        self._shape: list[Any] = []
        self._last: Msg | None = None  # the partial message the frame made last
        self._first: tuple[str, str | int] | None = None
        # What the stream itself could not carry (a cut tool input, an unknown event).
        self._losses: list[Loss] = []

    def add(self, event: Any) -> None:
        """Take the next event of the stream.

        Args:
            event: One event as the provider's SDK delivers it (a pydantic model), or
                its JSON as a dict.

        Raises:
            MessageError: The event is not one of this format, comes out of order, is
                a duplicate or belongs to another stream; the text names the event's
                index (``events[7]``) and what is wrong with it. A rejected event
                changes nothing: the stream takes the next one as if it had not come.
        """
        index = self._count
        if type(event) is not dict:
            event = self._as_dict(event, index)
        self._take(event, index)
        self._count = index + 1
        self._partial = None

    def extend(self, events: Iterable[Any]) -> None:
        """Take several events in order, as :meth:`add` does one by one.

        Raises:
            MessageError: As :meth:`add`; the events before the rejected one are taken.
        """
        # add() inlined: one call per event fewer, the count written once at the end
        # (or at the rejected event, so that the events before it stay taken).
        index = start = self._count
        take = self._take
        try:
            for event in events:
                if type(event) is not dict:
                    event = self._as_dict(event, index)
                take(event, index)
                index += 1
        finally:
            if index != start:
                self._count = index
                self._partial = None

    @property
    def count(self) -> int:
        """How many events the stream has taken."""
        return self._count

    @property
    def done(self) -> bool:
        """Whether the reply has ended (its last event has come)."""
        return self._ended()

    @property
    def response(self) -> dict[str, Any] | None:
        """The response rebuilt from the events so far, as the unstreamed API returns
        it (a new copy at each read), or None before the first event that starts it."""
        snapshot = self._snapshot()
        return None if snapshot is None else copy.deepcopy(snapshot)

    @property
    def msg(self) -> Msg | None:
        """The reply so far as a :class:`~agentmsg.Msg`, for display, or None before the
        first event that starts it; read as often as you like, it is converted once per
        new event."""
        partial = self._partial
        if partial is not None:
            return partial
        grows = self._grows
        if grows is not None:
            # Only the growing block's text has changed since the frame was made (bench
            # streams.recorded, Responses and Anthropic rows: no conversion per read).
            blocks, block, field, pieces = grows
            partial = self._last
            if _REUSE and partial is not None and _refs(partial) == 3:
                # The frame's last partial, which nothing else holds (nor its values,
                # content or growing block): made again in place, no new objects.
                values = partial._values
                content = values[_CONTENT]
                grown = content[-1] if field is not None else None
                if (
                    type(content) is list
                    and _refs(values) == _refs(content) == 3
                    and (grown is None or _refs(grown) == 3)
                ):
                    values[:] = self._shape
                    values[_CONTENT] = content
                    if grown is not None:
                        grown[field] = ""  # the text alone holds itself: it grows in place
                        grown[field] = joined(pieces)
                    self._partial = partial
                    return partial
            values = self._shape.copy()
            if field is None:
                values[_CONTENT] = [*blocks]
            else:
                grown = block.copy()  # cheaper than {**block, field: ...}
                grown[field] = joined(pieces)
                values[_CONTENT] = [*blocks, grown]
            partial = self._last = _new_msg(Msg)
            _store_values(partial, values)
            self._partial = partial
            return partial
        try:
            partial = self._built()
        except (MessageError, RecursionError):
            partial = None
        if partial is None:
            snapshot = self._snapshot()
            if snapshot is None:
                return None
            try:
                messages = self._convert(snapshot, False).messages
            except (MessageError, RecursionError):
                # Every event was checked when it came; what the conversion still
                # refuses of a reply half come (an empty id, say) shows as nothing yet.
                messages = []
            # No message: nothing of the reply has come yet.
            partial = self._shown(messages[0]) if messages else Msg("assistant", [], "assistant")
        if self._ONE_ID:
            # The partial messages are one message as it grows: one id, one time.
            values, first = partial._values, self._first
            if first is None:
                self._first = values[_ID], values[_TIMESTAMP]
            else:
                values[_ID], values[_TIMESTAMP] = first
            if self._grows is not None:  # a new frame: the message's values but its content
                self._shape, self._last = values.copy(), None
        self._partial = partial
        return partial

    def result(self, *, strict: bool = False) -> Parsed:
        """The reply, once the stream has ended: the messages and losses of converting
        the rebuilt response, the same as converting the unstreamed response.

        Args:
            strict: Raise instead of reporting something dropped, as the conversion does.

        Returns:
            A :class:`~agentmsg.Parsed` with the reply and what it could not carry.

        Raises:
            MessageError: The stream has not ended yet; in strict mode, also when
                something would be dropped.
        """
        snapshot = self._snapshot() if self._ended() else None
        if snapshot is None:
            msg = (
                f"The {self._FORMAT} stream has not ended: {self._count} "
                f"{'event' if self._count == 1 else 'events'} came, but not its last one "
                f"({self._LAST}); read `msg` for the reply so far."
            )
            raise MessageError(msg, f"events[{self._count}]")
        parsed = self._convert(snapshot, strict)
        losses = self._losses
        if not losses:
            return parsed
        if strict:
            loss = losses[0]
            msg = f"`{loss.path}`: {loss.what} cannot be carried (strict mode): {loss.why}."
            raise MessageError(msg, loss.path)
        from ._common import Parsed

        return Parsed(parsed.messages, (*parsed.losses, *losses))

    def _lose(self, path: str, what: str, why: str) -> None:
        from ._common import Loss

        self._losses.append(Loss(path, what, why))

    def _no(self, index: int, field: str, value: Any, why: str) -> NoReturn:
        reject(self._FORMAT, index, field, value, why)

    def _out_of_order(
        self, index: int, field: str, number: Any, count: int, part: str, came: str
    ) -> NoReturn:
        """Refuse event *index*, which starts *part* *number* when *count* have started."""
        why = (
            f"{part} {number} {came} already: a duplicated event"
            if type(number) is int and 0 <= number < count
            else f"the next {part} is number {count}"
        )
        reject(self._FORMAT, index, field, number, why)

    def _need_text(self, index: int, field: str, value: Any, optional: bool = True) -> Any:
        """*value*, refused unless it is text a message can hold (or None if *optional*)."""
        if (value is not None or not optional) and (
            type(value) is not str or not clean_text(value)
        ):
            reject(self._FORMAT, index, field, value, not_text(value))
        return value

    def _need_json(self, index: int, field: str, value: Any) -> None:
        check_value(self._FORMAT, index, field, value)

    def _refuse_foreign(self, event: dict[str, Any], index: int) -> None:
        api = foreign(self._FORMAT, event)
        if api is not None:
            reject(self._FORMAT, index, "", event, f"it is an event of {api}, not of this stream")

    def __repr__(self) -> str:
        state = "done" if self._ended() else "open"
        return f"<{type(self).__name__}: {self._count} events, {state}>"

    def _as_dict(self, event: Any, index: int) -> dict[str, Any]:
        try:
            dump = getattr(event, "model_dump", None)
            data = dump(mode="json", exclude_none=True) if callable(dump) else None
        except Exception as error:  # the caller's object may raise anything
            why = f"dumping it raised {type(error).__name__}"
            reject(self._FORMAT, index, "", event, why)
        if type(data) is dict:
            return data
        reject(self._FORMAT, index, "", event, "an event is a dict or an SDK event object")

    # -- what each format fills in ---------------------------------------------------

    def _take(self, event: dict[str, Any], index: int) -> None:
        raise NotImplementedError

    def _ended(self) -> bool:
        raise NotImplementedError

    def _snapshot(self) -> dict[str, Any] | None:
        raise NotImplementedError

    def _convert(self, response: dict[str, Any], strict: bool) -> Parsed:
        raise NotImplementedError

    def _built(self) -> Msg | None:
        """The partial message built along, or None: convert the whole response so far."""
        return None

    def _shown(self, msg: Msg) -> Msg:
        """The partial message as shown: what the conversion made of the response so far."""
        return msg
