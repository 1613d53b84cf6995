"""What the four provider formats share: the result types, the loss report, readers.

A conversion never drops anything silently: each thing a format cannot carry is a
:class:`Loss` in the result, and in strict mode a dropped thing raises
:class:`~agentmsg.MessageError` instead. The readers used on provider input raise
:class:`~agentmsg.MessageError` naming the path and the value, never a foreign exception.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Iterable, Iterator
from json.encoder import encode_basestring
from typing import Any, NamedTuple, NoReturn, TypeVar

from .._errors import MessageError
from .._media import _EXTENSIONS
from .._message import Msg
from .._validate import (
    check_array,
    check_choice,
    check_key,
    check_name,
    check_object,
    check_str,
    is_block_list,
    show,
)
from ..chat import ChatMessage

__all__ = [
    "Conversion",
    "Loss",
    "Parsed",
]

#: The sender name a message gets back from a format that has no names, by role; a
#: message of tool results is sent by "system", as FunctionMessage.to_msg sends it.
DEFAULT_NAMES = {"user": "user", "assistant": "assistant", "system": "system"}
TOOL_RESULTS_NAME = "system"
#: The image types Chat Completions, Responses and Anthropic take as base64 data.
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
_NOT_ARGUMENTS = object()
NO_PLACE = "agentmsg's messages have no place for it"
_F = TypeVar("_F", bound=Callable[..., Any])


def _json_writer() -> Any:
    """``json.dumps(value, ensure_ascii=False)`` by the C encoder made once: a third of its
    cost for tool calls' small dicts (bench/providers.py); the values are validated JSON."""
    encoder = json.JSONEncoder(ensure_ascii=False)
    try:
        from json.encoder import c_make_encoder  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - CPython always has it
        c_make_encoder = None
    if c_make_encoder is None:  # pragma: no cover
        return encoder.encode
    write = c_make_encoder(
        None, encoder.default, encode_basestring, None, ": ", ", ", False, False, False
    )
    join = "".join

    def dumps(value: Any) -> str:
        return join(write(value, 0))

    return dumps


dumps = _json_writer()


#: The sections every writer's or reader's docstring shares, by the line standing for it
#: (filled in for each format of ``FORMATS``, in ``providers/__init__.py``).
_SHARED_DOC = {
    "{writer args}": """Args:
    messages: A list of :class:`~agentmsg.Msg` and role messages, oldest first.
    strict: Raise instead of reporting something dropped.""",
    "{writer raises}": """Raises:
    MessageError: The conversation is not a list of messages; in strict mode,
        also when something would be dropped (the text names its path).""",
    "{reader returns}": """Returns:
    The messages and what agentmsg could not carry, as a
    :class:`~agentmsg.Parsed`.

Raises:
    MessageError: The data is not data of this format (the text names the path
        and the value); in strict mode, also when something would be dropped.""",
}


def shared_doc(function: _F) -> _F:
    """*function* with the sections of ``_SHARED_DOC`` in its docstring, indented as the
    line that stands for each."""
    lines = []
    for line in (function.__doc__ or "").split("\n"):
        section = _SHARED_DOC.get(line.strip())
        if section is None:
            lines.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        lines.extend(indent + text if text else "" for text in section.split("\n"))
    function.__doc__ = "\n".join(lines)
    return function


def output_text(output: Any) -> str:
    """A tool output that is a JSON value (not a string), written as JSON text."""
    return str(dumps(output))


class Loss(NamedTuple):
    """One thing a conversion could not carry as it was.

    Attributes:
        path: Where it was: in the conversation for a ``to_*`` conversion
            (``messages[3].content[1]``), in the provider's data for a ``from_*`` one
            (``choices[0].message.annotations``).
        what: What it was, such as ``"thinking block"``.
        why: Why the format could not carry it.
        substitute: What was done instead when the thing still travels another way
            (``"sent as JSON text"``), or None when it was dropped.
        dropped: Whether the thing was dropped: true when ``substitute`` is None.

    ``str(loss)`` reads as a sentence in English, like the text of an error:
    ``messages[2].content[0]: thinking block dropped: Chat Completions has no field for
    it``.
    """

    path: str
    what: str
    why: str
    substitute: str | None = None

    @property
    def dropped(self) -> bool:
        """Whether the thing was dropped (no substitute reached the other side)."""
        return self.substitute is None

    def __str__(self) -> str:
        return f"{self.path}: {self.what} {self.substitute or 'dropped'}: {self.why}"


class Conversion(NamedTuple):
    """A conversation converted to a provider's request payload.

    Attributes:
        payload: The request fields the conversation fills, as plain JSON values
            (``{"messages": [...]}`` for Chat Completions); add the model, the tools and
            the other options, then send it.
        losses: What the format could not carry as it was, in the order of the
            conversation; empty when nothing was lost.
    """

    payload: dict[str, Any]
    losses: tuple[Loss, ...]


class Parsed(NamedTuple):
    """Messages read from a provider's request payload or response.

    Attributes:
        messages: The conversation as :class:`~agentmsg.Msg` objects.
        losses: What agentmsg could not carry of the provider's data; empty when
            nothing was lost.
    """

    messages: list[Msg]
    losses: tuple[Loss, ...]


for _cls in (Loss, Conversion, Parsed):
    _cls.__module__ = "agentmsg"
    _cls.__new__.__doc__ = None  # not "Create new instance of ...": the class says it
del _cls


_KEY_SETS: dict[str, frozenset[str]] = {}  # Report.extra's sets of keys, by their names


class Report:
    """Collects the losses of one conversion; in strict mode, a drop raises instead."""

    __slots__ = ("format", "losses", "strict")

    is_blocks = staticmethod(is_block_list)
    dumps = staticmethod(output_text)  # a JSON value as text

    def __init__(self, format: str, strict: object) -> None:
        if type(strict) is not bool:
            msg = f"`strict` must be True or False, not {show(strict)}."
            raise MessageError(msg, "strict")
        self.format = format
        self.strict = strict
        self.losses: list[Loss] = []

    def drop(self, path: str, what: str, why: str, value: object) -> None:
        """Record that *value* at *path* was dropped (raise in strict mode)."""
        if self.strict:
            msg = f"`{path}`: {what} cannot be carried (strict mode): {why}; it was {show(value)}."
            raise MessageError(msg, path)
        self.losses.append(Loss(path, what, why))

    def change(self, path: str, what: str, substitute: str, why: str) -> None:
        """Record that the thing at *path* travels another way: *substitute*."""
        self.losses.append(Loss(path, what, why, substitute))

    def extra(self, data: dict[str, Any], known: frozenset[str] | str, path: str) -> None:
        """Drop every field of provider *data* not *known* (a set, or names and spaces);
        None and empty values are not data."""
        if isinstance(known, str):
            known = _KEY_SETS.get(known) or _KEY_SETS.setdefault(known, frozenset(known.split()))
        if known.issuperset(data):
            return
        for key, value in data.items():
            if key not in known and value is not None and value != [] and value != {}:
                self.drop(f"{path}.{key}", f"`{key}` field", NO_PLACE, value)

    def name(self, msg: Msg, index: int, default: str) -> None:
        """Drop a sender name the format has no field for (a default name comes back)."""
        if msg.name != default:
            why = f"{self.format} has no field for it; it comes back as {default!r}"
            self.drop(f"messages[{index}].name", f"sender name {msg.name!r}", why, msg.name)

    def tool_message(self, msg: Msg, index: int) -> bool:
        """Report what a message of tool results loses: they travel, and come back, alone
        with role "system", so other blocks beside them or another role do not. Returns
        whether *msg* holds tool results only."""
        if not is_tool_results(msg):
            path = f"messages[{index}]"
            why = (
                f"{self.format} sends tool results on their own; they come back as a "
                "message of their own"
            )
            self.change(path, "message mixing tool results with other content", "split in two", why)
            return False
        if msg.role != "system":
            path = f"messages[{index}].role"
            why = (
                f"{self.format} has no role for tool results; they come back with role "
                "'system', agentmsg's convention"
            )
            self.change(path, f"role {msg.role!r} of a message of tool results", "not sent", why)
        return True

    def signature(self, block: dict[str, Any], path: str, model_turn: bool = True) -> None:
        """Drop a signature on *block* this format does not take back (outside a
        *model_turn*, the provider's own signature too)."""
        for key, owner in SIGNATURES:
            if key not in block:
                continue
            if not self.format.startswith(owner):
                why = f"only {owner} takes it back, with the block it was given with"
            elif not model_turn:
                why = f"{owner} takes signatures back on the model's own blocks only"
            else:
                continue
            self.drop(f"{path}.{key}", f"{owner} signature", why, block[key])

    def raw_input(self, block: dict[str, Any], path: str, carried: bool = False) -> None:
        """Drop a tool call's ``raw_input`` unless it says what the input says (reported as
        sent when the format *carried* the arguments as text, see :func:`arguments_text`)."""
        raw = block.get("raw_input")
        if raw is None:
            return
        path, what = f"{path}.raw_input", "raw text of the tool call's arguments"
        if type(raw) is str and parse_arguments(raw) == block["input"]:
            if carried:
                why = (
                    f"{self.format} gives arguments back as text that agentmsg reads as the "
                    "input; the raw text does not come back"
                )
                self.change(path, what, "sent as the call's arguments", why)
            else:
                why = f"{self.format} takes the arguments as a JSON object; the text says the same"
                self.change(path, what, "sent as the parsed input", why)
            return
        why = f"it differs from the parsed input and {self.format} sends one of them"
        self.drop(path, what, why, raw)

    def local(self, path: str, kind: str, url: str) -> None:
        why = (
            f"{self.format} cannot read files on this machine; make the block with "
            "block_from_file first"
        )
        self.drop(path, f"{kind} with a local file URL", why, url)

    def ambiguous(self, call_id: str, count: int, sent: str, path: str) -> None:
        """Report a result paired in order with one of *count* calls sharing *call_id*."""
        what = f"id {call_id!r} of a tool result that {count} calls share"
        why = ambiguous_why(self.format)
        self.change(path, what, f"paired with the call sent as {sent!r}", why)

    def counts(self, usage: dict[str, Any], path: str, read: Collection[str]) -> None:
        """Drop each count of *usage* not *read* (cached, reasoning tokens...) that counts
        something: above zero, or an object of counts not all zero."""
        for key, value in usage.items():
            if key not in read and _counts_something(value):
                why = "agentmsg's token usage has no place for it"
                self.drop(f"{path}.{key}", f"`{key}` count", why, value)


# -- the conversation going out ------------------------------------------------------


def messages_in(messages: object) -> list[Msg]:
    """The conversation as Msg objects: role messages are converted with ``to_msg``."""
    check_conversation(messages)
    items: Any = messages
    return [item if type(item) is Msg else as_msg(item, index) for index, item in enumerate(items)]


def as_msg(item: object, index: int) -> Msg:
    """One item of a conversation as a Msg (a role message is converted)."""
    if isinstance(item, Msg):
        return item
    if isinstance(item, ChatMessage):
        return item.to_msg()
    msg = f"`messages[{index}]` must be a Msg or a role message, not {show(item)}."
    raise MessageError(msg, f"messages[{index}]")


def check_conversation(messages: object) -> None:
    """Raise unless *messages* is a list (or tuple) of messages."""
    if not isinstance(messages, list) and (
        isinstance(messages, str | bytes | dict) or not isinstance(messages, list | tuple)
    ):
        msg = f"`messages` must be a list of Msg or role messages, not {show(messages)}."
        raise MessageError(msg, "messages")


def call_ids(conversation: list[Msg]) -> Iterator[str]:
    """The ids of the tool calls of *conversation*, read as they are asked for."""
    for msg in conversation:
        content: Any = msg.content
        if type(content) is not str:
            yield from (block["id"] for block in content if block["type"] == "tool_use")


def is_tool_results(msg: Msg) -> bool:
    """Whether *msg* holds tool results only (and at least one)."""
    content: Any = msg.content
    if isinstance(content, str) or not content:
        return False
    return all(block["type"] == "tool_result" for block in content)


#: The block fields that hold a provider's signature, with the one provider that takes each.
SIGNATURES = (("thought_signature", "Gemini"), ("signature", "Anthropic"))


def arguments_text(block: dict[str, Any]) -> str:
    """The JSON text of a tool call's input; its ``raw_input`` when that says the same."""
    raw = block.get("raw_input")
    if type(raw) is str and parse_arguments(raw) == block["input"]:
        return raw
    return str(dumps(block["input"]))


_decode = json.JSONDecoder().decode  # json.loads of a str, without its own checks


def parse_arguments(text: str) -> Any:
    """The JSON value of *text*, or a marker object when it is not JSON."""
    try:
        return _decode(text)
    except (ValueError, RecursionError):
        return _NOT_ARGUMENTS


# -- media -----------------------------------------------------------------------------


class Media(NamedTuple):
    """The bytes of a media block as a format needs them: ``form`` ``"base64"`` (with
    ``media_type``; a base64 ``data:`` URL too), else ``data`` is the URL: ``"url"`` (http
    or https), ``"data_url"`` (``data:``, not base64) or ``"local"`` (``file:``, a path)."""

    form: str
    media_type: str | None
    data: str

    def data_url(self) -> str:
        """The base64 bytes as a ``data:`` URL."""
        return f"data:{self.media_type};base64,{self.data}"


def media_of(source: dict[str, Any]) -> Media:
    if source["type"] == "base64":
        return Media("base64", source["media_type"], source["data"])
    url: str = source["url"]
    if url.startswith(("https://", "http://")):
        return Media("url", None, url)
    if url.startswith("data:"):
        header, _, data = url.partition(",")
        media_type, _, encoding = header[5:].partition(";")
        if encoding == "base64" and "/" in media_type:
            return Media("base64", media_type, data)
        return Media("data_url", None, url)
    return Media("local", None, url)


def source_from_url(url: str) -> dict[str, Any]:
    """A media source for a URL a provider gave: base64 for a base64 ``data:`` URL."""
    media = media_of({"type": "url", "url": url})
    if media.form == "base64":
        return {"type": "base64", "media_type": media.media_type, "data": media.data}
    return {"type": "url", "url": url}


def media_type_of_url(url: str) -> str | None:
    """The media type a URL's file extension announces, or None (no network, no files)."""
    path = url.partition("?")[0].partition("#")[0]
    dot = path.rfind(".")
    if dot < 0 or "/" in path[dot:]:
        return None
    return _EXTENSIONS.get(path[dot:].lower())


# -- reading provider data -------------------------------------------------------------


def plain(data: Any) -> Any:
    """Provider data as JSON values: an SDK model (pydantic), or a list of them, is
    dumped first."""
    if isinstance(data, list):
        return [plain(item) if hasattr(item, "model_dump") else item for item in data]
    if isinstance(data, dict):
        return data
    try:
        dump = getattr(data, "model_dump", None)
        return dump(mode="json", exclude_none=True) if callable(dump) else data
    except Exception as error:  # the caller's object may raise anything
        kind, raised = type(data).__name__, type(error).__name__
        msg = f"The data, a {kind} object, cannot be read: its model_dump raised {raised}."
        raise MessageError(msg, "") from None


def build_msg(
    name: str,
    content: str | list[Any],
    role: str,
    path: str,
    metadata: dict[str, Any] | None = None,
    invocation_id: str | None = None,
) -> Msg:
    """A Msg from provider data; a value Msg rejects is reported at the provider path."""
    try:
        return Msg(name, content, role, metadata, None, invocation_id)  # type: ignore[arg-type]
    except MessageError as error:
        where = f"{path}.{error.path}" if error.path else path
        msg = f"`{path}` does not make a valid message: {error}"
        raise MessageError(msg, where) from None


class Turns:
    """Collects the messages read from provider data, merging runs of tool results."""

    __slots__ = ("_results", "invocation_id", "messages", "metadata")

    def __init__(self) -> None:
        self.messages: list[Msg] = []
        self.metadata: dict[str, Any] | None = None
        self.invocation_id: str | None = None
        self._results: list[Any] | None = None

    def tool_result(self, block: dict[str, Any]) -> None:
        if self._results is None:
            self._results = []
        self._results.append(block)

    def flush(self, path: str) -> None:
        if self._results:
            self.messages.append(build_msg(TOOL_RESULTS_NAME, self._results, "system", path))
        self._results = None

    def add(
        self,
        name: str,
        content: str | list[Any],
        role: str,
        path: str,
        state: tuple[str, dict[str, Any]] | None = None,
    ) -> None:
        """Add a message; *state* is (format, {block index: provider fields}) to keep."""
        self.flush(path)
        metadata = self.metadata
        if state is not None and state[1]:
            metadata = {**(metadata or {}), STATE_KEY: {state[0]: state[1]}}
        self.messages.append(build_msg(name, content, role, path, metadata, self.invocation_id))


STATE_KEY = "provider_state"
"""The metadata key under which a message keeps what its provider needs to take it back.

``metadata["provider_state"][format][str(block index)]`` holds the fields of one block
that agentmsg's blocks have no place for but the provider requires when the block is
sent back: the ``signature`` of an Anthropic thinking block, the ``thought_signature`` of
a Gemini part, the ``id`` and ``encrypted_content`` of a Responses reasoning item. The
conversion to the same format puts them back; the others leave them, as all metadata.
"""


def state_of(msg: Msg, format_key: str) -> dict[str, Any]:
    """The provider state *msg* keeps for *format_key*: {block index: fields}, or {}."""
    metadata = msg.metadata
    if metadata is None:
        return {}
    state = metadata.get(STATE_KEY)
    if not isinstance(state, dict):
        return {}
    entries = state.get(format_key)
    return entries if isinstance(entries, dict) else {}


def state_field(state: dict[str, Any], position: int, key: str) -> Any:
    """One kept field of the block at *position*, or None."""
    entry = state.get(str(position))
    if not isinstance(entry, dict):
        return None
    value = entry.get(key)
    return value if type(value) is str and value else None


class Reader(Report):
    """Reads one format's data: the loss report, the messages read (``turns``) and the tool
    of each call id read (``names``), with the checks every reader makes as methods."""

    __slots__ = ("names", "turns")

    array = staticmethod(check_array)
    obj = staticmethod(check_object)
    choice = staticmethod(check_choice)
    key = staticmethod(check_key)
    plain = staticmethod(plain)
    source = staticmethod(source_from_url)

    def __init__(self, format: str, strict: object) -> None:
        Report.__init__(self, format, strict)
        self.turns = Turns()
        self.names: dict[str, str] = {}

    # An ASCII str is what the full checks return it as, without their calls.

    @staticmethod
    def text(value: object, path: str) -> str:
        return value if type(value) is str and value.isascii() else check_str(value, path)

    @staticmethod
    def ident(value: object, path: str) -> str:
        if type(value) is str and value and value.isascii():
            return value
        return check_name(value, path)

    @staticmethod
    def text_at(data: dict[str, Any], key: str, path: str) -> str:
        value = data.get(key)
        if type(value) is str and value.isascii():
            return value
        return check_str(check_key(data, key, path), f"{path}.{key}")

    @staticmethod
    def ident_at(data: dict[str, Any], key: str, path: str) -> str:
        value = data.get(key)
        if type(value) is str and value and value.isascii():
            return value
        return check_name(check_key(data, key, path), f"{path}.{key}")

    @staticmethod
    def obj_at(data: dict[str, Any], key: str, path: str) -> dict[str, Any]:
        return check_object(check_key(data, key, path), f"{path}.{key}")

    def each(self, items: Any, path: str, read: Callable[[Any, str], Any]) -> list[Any]:
        """What *read* (item, path) makes of each item of the list *items*, but None."""
        made = [read(item, f"{path}[{at}]") for at, item in enumerate(self.array(items, path))]
        return [block for block in made if block is not None]

    def parsed(self) -> Parsed:
        return Parsed(self.turns.messages, tuple(self.losses))

    def refuse(self, data: object, shapes: str, format: str | None = None) -> NoReturn:
        """Raise: *data* is none of *shapes*, the forms of this format's data."""
        name = format or self.format
        error = data.get("error") if isinstance(data, dict) else None
        if error is not None:
            # The API's answer to a failed call: its message says why.
            message = error.get("message", error) if isinstance(error, dict) else error
            why = f"the {name} API answered with an error, not a reply"
            raise MessageError(f"`error.message` is {show(message)}: {why}.", "error.message")
        msg = f"{name} data must be {shapes}, not {show(data)}."
        raise MessageError(msg)

    @staticmethod
    def refuse_empty(key: str) -> NoReturn:
        raise MessageError(f"`{key}` is empty: the response holds no reply.", key)

    def unknown(self, path: str, what: str, value: object) -> None:
        self.drop(path, what, "agentmsg has no block for it", value)

    def no_place(self, path: str, what: str, value: object) -> None:
        self.drop(path, what, NO_PLACE, value)

    def refusal(self, path: str, text: str) -> dict[str, Any]:
        self.change(path, "refusal", "kept as a text block", "agentmsg has no refusal block")
        return {"type": "text", "text": text}

    def developer(self, path: str) -> str:
        why = "agentmsg's roles are user, assistant and system; it is sent back as 'system'"
        self.change(f"{path}.role", "role 'developer'", "read as 'system'", why)
        return "system"

    def detail(self, detail: object, path: str) -> None:
        if detail is not None and detail != "auto":
            self.drop(path, "image detail", "agentmsg's image block has no field for it", detail)

    def meta(self, metadata: dict[str, Any], key: str, data: dict[str, Any], field: str) -> None:
        """Keep ``data[field]``, text, as ``metadata[key]`` when it is there."""
        if data.get(field) is not None:
            metadata[key] = self.text(data[field], field)

    def begin(self, data: dict[str, Any], metadata: dict[str, Any], field: str = "id") -> None:
        """Start the messages of a response whose id is ``data[field]``."""
        self.turns.metadata = metadata or None
        if data.get(field) is not None:
            self.turns.invocation_id = self.ident(data[field], field)

    def usage(
        self, usage: dict[str, Any], path: str, keys: tuple[str, ...], default: int | None = None
    ) -> list[int]:
        """The counts *keys* of a usage object (each an integer >= 0); the counts it holds
        beside them are reported (:meth:`Report.counts`)."""
        counts = []
        for key in keys:
            value = usage.get(key, default)
            if type(value) is not int or value < 0:
                msg = f"`{path}.{key}` must be an integer >= 0, not {show(value)}."
                raise MessageError(msg, f"{path}.{key}")
            counts.append(value)
        if default is not None or len(usage) > len(keys):  # else it holds just *keys*
            self.counts(usage, path, keys)
        return counts

    def result_name(self, call_id: str, given: Any, path: str) -> str:
        """The tool name of a result: given, else that of the call with the same id."""
        if type(given) is str and given:
            return given
        name = self.names.get(call_id)
        if name is not None:
            return name
        why = f"{self.format} does not repeat it and no tool call with id {call_id!r} comes before"
        self.change(path, "tool name of a tool result", "named 'unknown'", why)
        return "unknown"

    def arguments(self, text: Any, path: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """A tool call's arguments text as (input, extra block keys): text that is not a
        JSON object is kept as ``raw_input``, with an empty input."""
        text = self.text(text, path)
        value = parse_arguments(text) if text else {}
        return (value, {}) if isinstance(value, dict) else ({}, {"raw_input": text})

    def call(self, call_id: str, name: str, tool_input: Any, extra: Any = None) -> dict[str, Any]:
        """A tool use block read; its name is kept for the results that follow."""
        self.names[call_id] = name
        block = {"type": "tool_use", "id": call_id, "name": name, "input": tool_input}
        return {**block, **extra} if extra else block

    def result(self, call_id: str, name: str, output: Any) -> None:
        self.turns.tool_result(
            {"type": "tool_result", "id": call_id, "name": name, "output": output}
        )


class Writer(Report):
    """Writes one conversation in a format: the loss report, the conversation (Msg objects)
    and what is sent (``out``), with the media and signature handling every writer shares."""

    __slots__ = ("conversation", "out")

    as_msg = staticmethod(as_msg)
    arguments_text = staticmethod(arguments_text)
    check_conversation = staticmethod(check_conversation)

    def __init__(self, format: str, strict: object) -> None:
        Report.__init__(self, format, strict)
        self.conversation: list[Any] = []
        self.out: list[dict[str, Any]] = []

    def call_ids(self) -> Iterator[str]:
        """The ids of the tool calls of the conversation, read as they are asked for."""
        return call_ids(self.conversation)

    is_results = staticmethod(is_tool_results)

    def start(self, messages: object) -> list[Msg]:
        self.conversation = messages_in(messages)
        return self.conversation

    def media(self, block: dict[str, Any], path: str) -> Media | None:
        """The bytes of a media block, or None (reported) for a local file."""
        media = media_of(block["source"])
        if media.form == "local":
            self.local(path, f"{block['type']} block", media.data)
            return None
        return media

    def image_type(self, block: dict[str, Any], path: str, media: Media, why: str) -> bool:
        """Whether a base64 image is of a type the format takes (else reported, *why*)."""
        if media.media_type in IMAGE_TYPES:
            return True
        self.drop(path, f"{media.media_type} image", why, block)
        return False

    def tool_name(self, block: dict[str, Any], path: str, name: str, why: str) -> None:
        """Drop the name of a tool result that the call it answers does not have."""
        if name != block["name"]:
            self.drop(
                f"{path}.name", f"tool name {block['name']!r} of a tool result", why, block["name"]
            )

    def output(self, block: dict[str, Any], path: str, part: Callable[..., Any]) -> Any:
        """A tool result's output as the format sends it: its text; its JSON value as text
        (reported); its blocks as the parts *part* (block, path) makes, "" for none."""
        output = block["output"]
        if type(output) is str:
            return output
        if not is_block_list(output):
            why = f"{self.format} tool results hold text; it comes back as that text"
            self.change(f"{path}.output", "JSON output of a tool result", "sent as JSON text", why)
            return output_text(output)
        parts = []
        for position, item in enumerate(output):
            made = part(item, f"{path}.output[{position}]")
            if made is not None:
                parts.append(made)
        return parts or ""

    def system_prompt(self) -> tuple[list[str], bool]:
        """The texts of every system message for a format's one system prompt (Anthropic,
        Gemini), and whether it is one string (one system message of string content); a
        second or late system message and a non-text block in one are reported."""
        report, messages = self, self.conversation
        texts: list[str] = []
        sources = 0
        as_str = False
        started = False
        for index, msg in enumerate(messages):
            if msg.role != "system" or is_tool_results(msg):
                started = True
                continue
            content: Any = msg.content
            sources += 1
            if sources == 2:
                what = "second system message"
                why = f"{report.format} has one system prompt; it comes back as one system message"
                report.change(f"messages[{index}]", what, "merged into the system prompt", why)
            if started:
                what = "system message after the conversation started"
                why = f"{report.format} has one system prompt, before the conversation"
                report.change(f"messages[{index}]", what, "moved to the system prompt", why)
            report.name(msg, index, DEFAULT_NAMES["system"])
            empty = f"{report.format} refuses empty text in its system prompt"
            if not content:
                report.change(f"messages[{index}]", "empty system message", "not sent", empty)
            elif isinstance(content, str):
                as_str = True
                content = [{"type": "text", "text": content}]  # nothing in it to report
            for position, block in enumerate(content):
                kind = block["type"]
                path = f"messages[{index}].content[{position}]"
                if kind == "text":
                    report.signature(block, path, model_turn=False)
                    if block["text"]:
                        texts.append(block["text"])
                    else:
                        report.change(path, "empty text block", "not sent", empty)
                elif kind != "tool_result":
                    what = f"{kind} block in a system message"
                    why = f"{report.format}'s system prompt holds text only"
                    report.drop(f"messages[{index}].content[{position}]", what, why, block)
        return texts, as_str and sources == 1

    def unanswered(
        self, pairing: Pairing, at: int, key: str, call_id: Callable[[Any], Any], why: str
    ) -> None:
        """Drop the calls *pairing* still waits for (*why*: the format's rule) from the turn
        ``out[at]``, whose *key* lists its parts (*call_id* names a part's call); a turn
        left with nothing goes."""
        if not pairing.waiting:
            return
        dropped = set(pairing.unanswered(self, self.conversation, why))
        turn = self.out[at]
        turn[key] = [part for part in turn[key] if call_id(part) not in dropped]
        if not turn[key]:
            del self.out[at]  # nothing of that turn is left to send

    kept = staticmethod(state_of)
    field = staticmethod(state_field)


# -- pairing tool calls with their results ----------------------------------------------


def duplicate_why(format: str) -> str:
    """The rule a second result for one tool call breaks, in *format*'s words."""
    return f"{format} takes one tool result for each tool call, and this call has one already"


def repeated_id_why(format: str) -> str:
    """The rule a tool call id used by an earlier call breaks, in *format*'s words."""
    return (
        f"{format} wants each tool call id once in a request; the call's results follow "
        "the new id, and they come back with it"
    )


def ambiguous_why(format: str) -> str:
    """Why results of calls sharing one id are paired in order, in *format*'s words."""
    return (
        f"{format} pairs a result with its call by id, and two or more calls of one turn "
        "have this one: nothing else tells their results apart, so they answer those calls "
        "in order"
    )


def short_id(call_id: str, limit: int) -> str:
    """*call_id* cut to *limit* characters, with a digest of the whole, so that two long
    ids that share their start stay apart (the same id for the call and its results)."""
    if len(call_id) <= limit:
        return call_id
    digest = hashlib.blake2s(call_id.encode(), digest_size=4).hexdigest()
    return f"{call_id[: limit - 9]}_{digest}"


class CallIds:
    """The ids a format sends tool calls with: a call's own id when the format takes it,
    else a new one, reported at the call's id. *legal* makes the id for one the format
    refuses (*legal_why*), else an id over *limit* is cut (:func:`short_id`); an id sent
    before in the scope (the request, or a turn after :meth:`new_turn`) is numbered,
    ``call_2`` (*unique*), clear of the ids calls have (:meth:`reserve`). The next number
    is kept per id, so an id reused in every turn costs constant time."""

    __slots__ = ("later", "legal", "legal_why", "limit", "numbers", "reserved", "taken", "unique")

    def __init__(
        self,
        unique: str,
        legal: Callable[[str], str] | None = None,
        legal_why: str = "",
        limit: int | None = None,
    ) -> None:
        self.unique = unique
        self.legal = legal
        self.legal_why = legal_why
        self.limit = limit
        self.taken: set[str] = set()
        self.reserved: set[str] = set()
        self.numbers: dict[str, int] = {}
        self.later: Iterable[str] = ()  # ids to reserve when a first id must be new

    def reserve(self, call_ids: Iterable[str]) -> None:
        """Keep new ids clear of *call_ids*, ids that calls of the scope have."""
        self.reserved.update(call_ids)

    def reserve_later(self, call_ids: Iterable[str]) -> None:
        """:meth:`reserve` *call_ids* (read then) when a first id must be new."""
        self.later = call_ids

    def new_turn(self, call_ids: Iterable[str] = ()) -> None:
        """Start a new scope, whose calls have *call_ids*: for formats that want ids
        unique within one turn only."""
        self.taken.clear()
        self.reserved.clear()
        self.numbers.clear()
        self.later = call_ids

    def own(self, call_id: str) -> bool:
        """Whether the call whose own id is *call_id* is sent with it, taken then: what
        :meth:`sent` does when the format takes the id and no call of the scope has it,
        without its path, checks and report."""
        if call_id in self.taken:
            return False
        legal, limit = self.legal, self.limit
        if legal is not None:
            if legal(call_id) != call_id:
                return False
        elif limit is not None and len(call_id) > limit:
            return False
        self.taken.add(call_id)
        return True

    def sent(self, report: Report, call_id: str, path: str) -> str:
        """The id to send the call whose own id is *call_id* with; a new one is reported
        at *path*, the path of the call's id."""
        sent = call_id
        why = None
        if self.legal is not None:
            sent = self.legal(call_id)
        elif self.limit is not None and len(call_id) > self.limit:
            sent = short_id(call_id, self.limit)
        if sent != call_id:
            why = self.legal_why
        if self.later and (why is not None or sent in self.taken):
            self.reserved.update(self.later)
            self.later = ()
        if sent in self.taken or (sent != call_id and sent in self.reserved):
            why = why or self.unique
            sent = self._numbered(sent)
        self.taken.add(sent)
        if why is not None:
            shown = repr(call_id) if len(call_id) <= 64 else f"of {len(call_id)} characters"
            what = f"tool call id {shown}"
            if why is self.unique:
                what += " that another call has"
            report.change(path, what, f"sent as {sent!r}", why)
        return sent

    def _numbered(self, base: str) -> str:
        number = self.numbers.get(base, 2)
        limit = self.limit
        while True:
            suffix = f"_{number}"
            number += 1
            if limit is None or len(base) + len(suffix) <= limit:
                candidate = base + suffix
            else:
                candidate = base[: limit - len(suffix)] + suffix
            if candidate not in self.taken and candidate not in self.reserved:
                self.numbers[base] = number
                return candidate


class Pairing:
    """The tool calls of the assistant turn right before the results that answer them
    (Chat Completions, Anthropic, Gemini), and the ids they are sent with (*ids*, a
    :class:`CallIds`; unique in the request or, *per_turn*, in each turn).
    ``waiting``: the calls without a result (id sent -> (message index, block position));
    ``names``: the tool of each id sent. A result answers the oldest waiting call with its
    own id, never another call's id sent; calls of the turn sharing that id are answered
    in order, reported."""

    __slots__ = ("answered", "ids", "names", "own", "per_turn", "shared", "turn", "waiting")

    def __init__(self, ids: CallIds, per_turn: bool = False) -> None:
        self.waiting: dict[str, tuple[int, int]] = {}
        self.answered: set[str] = set()  # the own ids of calls answered
        self.names: dict[str, str] = {}
        self.own: dict[str, list[str]] = {}  # own id -> ids sent of waiting calls, in order
        self.shared: dict[str, int] = {}  # own id -> number of calls of the turn with it
        self.turn = -1  # the message whose calls are registered
        self.ids = ids
        self.per_turn = per_turn

    def begin(self, index: int, call_ids: Iterable[str] = ()) -> None:
        """Start registering the calls of message *index*, whose own ids are *call_ids*."""
        self.turn = index
        self.own.clear()
        self.shared.clear()
        if self.per_turn:
            self.ids.new_turn(call_ids)

    def call(self, report: Report, block: dict[str, Any], index: int, position: int) -> str:
        """Register the tool call *block* of message *index*; return the id to send it with."""
        if index != self.turn:
            self.begin(index)
        call_id: str = block["id"]
        sent = call_id
        if not self.ids.own(call_id):
            sent = self.ids.sent(report, call_id, f"messages[{index}].content[{position}].id")
        self.names[sent] = block["name"]
        self.waiting[sent] = (index, position)
        queue = self.own.get(call_id)
        if queue is None:
            self.own[call_id] = [sent]
        else:
            queue.append(sent)
            self.shared[call_id] = self.shared.get(call_id, 1) + 1
        return sent

    def results(
        self, report: Report, msg: Msg, content: Any, index: int, orphan: str, whole: bool = True
    ) -> list[tuple[str, str, dict[str, Any]]]:
        """The results of *msg* that answer a waiting call, as (path, id sent, block); the
        others are dropped (a second result, or *orphan*, the format's rule). *whole*: first
        report what *msg* loses as a message of tool results."""
        if whole and report.tool_message(msg, index):
            report.name(msg, index, TOOL_RESULTS_NAME)
        paired = []
        for position, block in enumerate(content):
            if block["type"] != "tool_result":
                continue
            path = f"messages[{index}].content[{position}]"
            call_id = block["id"]
            queue = self.own.get(call_id)
            if queue is None and call_id in self.waiting:
                queue = [call_id]  # a call registered without a queue goes with its own id
            if not queue:
                if call_id in self.answered:
                    what, why = "second tool result for one tool call", duplicate_why(report.format)
                else:
                    what, why = "tool result without its tool call right before it", orphan
                report.drop(path, what, why, block)
                continue
            sent = queue.pop(0)
            del self.waiting[sent]
            self.answered.add(call_id)
            count = self.shared.get(call_id)
            if count is not None:
                report.ambiguous(call_id, count, sent, f"{path}.id")
            paired.append((path, sent, block))
        return paired

    def unanswered(self, report: Report, conversation: list[Any], why: str) -> list[str]:
        """Drop the calls still waiting (*why*: the format's rule); return their ids sent."""
        for index, position in self.waiting.values():
            content: Any = as_msg(conversation[index], index).content
            what = "tool call without a tool result right after it"
            report.drop(f"messages[{index}].content[{position}]", what, why, content[position])
        dropped = list(self.waiting)
        self.waiting.clear()
        self.own.clear()
        self.shared.clear()
        return dropped


def _counts_something(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_counts_something(item) for item in value.values())
    return type(value) in (int, float) and value > 0
