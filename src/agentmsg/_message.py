"""The :class:`Msg` class: one message with a sender, a role and content."""

from __future__ import annotations

from operator import itemgetter
from time import time_ns as _time_ns
from typing import TYPE_CHECKING, Any, Literal

from ._blocks import MEDIA_KINDS
from ._containers import (
    DICT_TYPES,
    LIST_TYPES,
    checked_content,
    checked_metadata,
    copy_blocks,
    copy_json,
)
from ._errors import MessageAttributeError, MessageError
from ._ids import _state, active_clock, format_time_ns, new_id, now_timestamp, random_ids
from ._validate import (
    _ROLE_SET,
    as_dict,
    check_block_types,
    check_content,
    check_id,
    check_metadata,
    check_name,
    check_optional_str,
    check_role,
    check_timestamp,
    is_block_list,
    is_mapping,
    must_be,
    show,
)

if TYPE_CHECKING:
    import os
    from collections.abc import Sequence

    from ._blocks import BlockType, ContentBlock

Role = Literal["user", "assistant", "system"]
# Writes an attribute past Msg.__setattr__ (which only lets the fields through).
_object_setattr = object.__setattr__
# Bound once: Msg.__init__ calls them for every message.
_pop_id = random_ids.pop
_get_state = _state.get
_REPR_DATA_LIMIT = 48


def _shorten(text: str) -> str:
    if len(text) <= _REPR_DATA_LIMIT:
        return text
    return f"{text[: _REPR_DATA_LIMIT - 8]}... ({len(text):,} characters)"


def _abbreviate(blocks: list[Any]) -> list[Any]:
    """A copy of *blocks* whose media sources (in tool outputs too) have their long base64
    payloads and data: URLs shortened."""
    shown = []
    for block in blocks:
        source = block.get("source")
        if source is not None:
            source = dict(source)
            if source["type"] == "base64":
                source["data"] = _shorten(source["data"])
            elif source["url"].startswith("data:"):
                source["url"] = _shorten(source["url"])
            block = {**block, "source": source}
        elif block["type"] == "tool_result" and is_block_list(block["output"]):
            block = {**block, "output": _abbreviate(block["output"])}
        shown.append(block)
    return shown


class Msg:
    """One message exchanged between agents, users and tools.

    Args:
        name: Who sent the message, such as ``"Jarvis"`` or ``"user"``.
        content: A string, or a list of content blocks (:class:`~agentmsg.TextBlock`,
            :class:`~agentmsg.ImageBlock`, :class:`~agentmsg.ToolUseBlock`, ...).
        role: ``"user"``, ``"assistant"`` or ``"system"``.
        metadata: A dict of JSON values kept beside the content, such as structured
            output, or None.
        timestamp: Local time as ``YYYY-MM-DD HH:MM:SS.mmm``; now when not given.
        invocation_id: The id of the model call that produced the message, if any.
        id: The message id; a fresh 22-character URL-safe string when not given.

    Raises:
        MessageError: A field has the wrong type or value. The text names the field
            path, such as ``content[1].source.url``, and the offending value.

    The message keeps its own copy of *content* and *metadata*: changing the list you
    passed in later does not change the message. Assigning a field validates it again,
    and so does every change made in place: ``msg.content.append(block)``,
    ``msg.content[0]["text"] = "..."``, ``msg.metadata["tags"].append("x")`` are
    checked at once by the same rules, and a change that would make the message invalid
    raises :class:`~agentmsg.MessageError` and is undone. So
    :meth:`to_dict` always returns a dict that :meth:`from_dict` accepts. For this,
    ``msg.content`` is a ``list`` subclass whose blocks, and every dict and list inside
    them, are ``dict`` and ``list`` subclasses (``msg.metadata`` likewise): they compare
    equal to plain values, ``json.dumps`` writes them, and their copies
    (``copy.deepcopy``, :meth:`to_dict`, :meth:`get_content_blocks`) are plain.
    A value you put in is copied, as a constructor argument is.

    The arguments, blocks and helpers are those of AgentScope 1.x's ``Msg``; the
    :ref:`migration tutorial <tutorial-migration>` lists where agentmsg differs, and why.

    Example:
        >>> from agentmsg import Msg
        >>> msg = Msg(name="Jarvis", role="assistant", content="Hi! How can I help you?")
        >>> msg.get_text_content()
        'Hi! How can I help you?'
        >>> Msg.from_dict(msg.to_dict()) == msg
        True
    """

    # The fields live in one list, in the order of _FIELDS: one slot to write per message.
    # Timestamp text and checked containers are made on first read; few messages need them.
    # The properties have no docstrings: the class docstring documents the fields.
    __slots__ = ("_values",)
    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value

    _FIELDS = ("id", "name", "role", "content", "metadata", "timestamp", "invocation_id")

    _values: list[Any]

    def __init__(
        self,
        name: str,
        content: str | list[ContentBlock],
        role: Role,
        metadata: dict[str, Any] | None = None,
        timestamp: str | None = None,
        invocation_id: str | None = None,
        *,
        id: str | None = None,  # the field is called id in the dict form
    ) -> None:
        # The fields are checked in this order, so the first bad one is reported. The
        # inline tests accept the common good values; anything else goes to the check_*
        # function, which accepts it (converting a str subclass) or raises.
        if type(name) is not str or not name or not name.isascii():
            name = check_name(name)
        if type(role) is not str or role not in _ROLE_SET:
            role = check_role(role)  # type: ignore[assignment]
        if type(content) is not str or not content.isascii():
            content = check_content(content)  # type: ignore[assignment]
        if metadata is not None:
            metadata = check_metadata(metadata)
        # The context variable first (a C call): only a context that has been in a
        # deterministic() block asks whether that block is still open.
        seeded = (
            (id is None or timestamp is None)
            and _get_state() is not None
            and active_clock() is not None
        )
        if id is None:
            if seeded:
                id = new_id()
            else:
                try:
                    id = _pop_id()
                except IndexError:  # the supply of random ids ran out: new_id refills it
                    id = new_id()
        elif type(id) is not str or not id or not id.isascii():
            id = check_id(id)
        when: str | int
        if timestamp is None:
            # A deterministic clock ticks now, in creation order; real time is only
            # captured here and written out when first read (see the ``timestamp``).
            when = now_timestamp() if seeded else _time_ns()
        else:
            when = check_timestamp(timestamp)
        if invocation_id is not None and (
            type(invocation_id) is not str or not invocation_id.isascii()
        ):
            check_optional_str(invocation_id, "invocation_id")  # raises if not text
        _store_values(self, [id, name, role, content, metadata, when, invocation_id])

    @property
    def id(self) -> str:
        value: str = self._values[_ID]
        return value

    @id.setter
    def id(self, value: str) -> None:
        self._values[_ID] = check_id(value)

    @property
    def name(self) -> str:
        value: str = self._values[_NAME]
        return value

    @name.setter
    def name(self, value: str) -> None:
        self._values[_NAME] = check_name(value)

    @property
    def role(self) -> Role:
        value: Role = self._values[_ROLE]
        return value

    @role.setter
    def role(self, value: Role) -> None:
        self._values[_ROLE] = check_role(value)

    @property
    def content(self) -> str | list[ContentBlock]:
        values = self._values
        content = values[_CONTENT]
        if type(content) is list:  # first read: hand out the list that checks edits
            checked = checked_content(content)
            if values[_CONTENT] is content:
                values[_CONTENT] = checked
            content = values[_CONTENT]
        value: str | list[ContentBlock] = content
        return value

    @content.setter
    def content(self, value: str | list[ContentBlock]) -> None:
        self._values[_CONTENT] = check_content(value)

    @property
    def metadata(self) -> dict[str, Any] | None:
        values = self._values
        metadata = values[_METADATA]
        if type(metadata) is dict:  # first read: hand out the dict that checks edits
            checked = checked_metadata(metadata)
            if values[_METADATA] is metadata:
                values[_METADATA] = checked
            metadata = values[_METADATA]
        value: dict[str, Any] | None = metadata
        return value

    @metadata.setter
    def metadata(self, value: dict[str, Any] | None) -> None:
        self._values[_METADATA] = check_metadata(value)

    @property
    def timestamp(self) -> str:
        values = self._values
        when = values[_TIMESTAMP]
        if type(when) is str:
            return when
        text = format_time_ns(when)
        values[_TIMESTAMP] = text
        return text

    @timestamp.setter
    def timestamp(self, value: str) -> None:
        self._values[_TIMESTAMP] = check_timestamp(value)

    @property
    def invocation_id(self) -> str | None:
        value: str | None = self._values[_INVOCATION_ID]
        return value

    @invocation_id.setter
    def invocation_id(self, value: str | None) -> None:
        self._values[_INVOCATION_ID] = check_optional_str(value, "invocation_id")

    def __setattr__(self, field: str, value: Any) -> None:
        if field not in _FIELD_SET:
            raise _not_a_field(field)
        _object_setattr(self, field, value)  # the field's property setter checks the value

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        # copy and pickle hand these fields to __setstate__, which checks them again.
        self.timestamp  # noqa: B018  # writes a lazy timestamp's text
        return None, dict(zip(self._FIELDS, self._values, strict=True))

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        fields = state[1]
        Msg.__init__(
            self,
            fields["name"],
            fields["content"],
            fields["role"],
            fields["metadata"],
            fields["timestamp"],
            fields["invocation_id"],
            id=fields["id"],
        )

    def __delattr__(self, field: str) -> None:
        if field not in _FIELD_SET:
            raise _not_a_field(field)
        msg = f"`{field}` cannot be deleted from a message; assign a new value instead."
        raise MessageAttributeError(msg, field)

    def __getattr__(self, field: str) -> Any:
        raise _not_a_field(field)  # called only when ordinary lookup fails: not a field

    # -- serialization -------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return the message as a dict of JSON values.

        The keys come in the order ``id``, ``name``, ``role``, ``content``,
        ``metadata``, ``timestamp``, then ``invocation_id`` only when it is set. The
        dict is a deep copy: changing it does not change the message.
        """
        id, name, role, content, metadata, when, invocation_id = self._values
        data: dict[str, Any] = {
            "id": id,
            "name": name,
            "role": role,
            "content": content if type(content) is str else copy_blocks(content),
            "metadata": None if metadata is None else copy_json(metadata),
            "timestamp": when if type(when) is str else self.timestamp,
        }
        if invocation_id is not None:
            data["invocation_id"] = invocation_id
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Msg:
        """Build a message from the dict that :meth:`to_dict` returns.

        ``name``, ``role`` and ``content`` are required; ``id``, ``timestamp``,
        ``metadata`` and ``invocation_id`` are optional (a missing id or timestamp is
        made afresh). Every value is validated as in the constructor.

        Raises:
            MessageError: *data* is not a dict, lacks a required key, has a key that is
                not a message field, or holds an invalid value.
        """
        if type(data) is not dict:
            if not is_mapping(data):
                msg = f"A message dict must be a dict, not {type(data).__name__}: {show(data)}."
                raise MessageError(msg)
            data = as_dict(data, "message", "a dict")
        if not _FIELD_SET.issuperset(data):
            key = next(key for key in data if key not in _FIELD_SET)
            msg = (
                f"`{key}` is not a message field (the fields are "
                f"{', '.join(cls._FIELDS)}); its value was {show(data[key])}."
            )
            raise MessageError(msg, str(key))
        if "name" not in data or "role" not in data or "content" not in data:
            key = next(key for key in ("name", "role", "content") if key not in data)
            msg = f"The message dict has no `{key}` field: {show(data)}."
            raise MessageError(msg, key)
        get = data.get
        return cls(
            data["name"],
            data["content"],
            data["role"],
            get("metadata"),
            get("timestamp"),
            get("invocation_id"),
            id=get("id"),
        )

    def to_json(self, *, indent: int | None = None) -> str:
        """Return :meth:`to_dict` as JSON text; non-ASCII text stays readable."""
        id, name, role, content, metadata, when, invocation_id = self._values
        # The same dict as to_dict, without its copies: the writer only reads it.
        data: dict[str, Any] = {
            "id": id,
            "name": name,
            "role": role,
            "content": content,
            "metadata": metadata,
            "timestamp": when if type(when) is str else self.timestamp,
        }
        if invocation_id is not None:
            data["invocation_id"] = invocation_id
        if indent is None:
            if type(content) is not str:
                # Look for long media payloads, without a call for the common blocks.
                for block in content:
                    kind = block["type"]
                    if kind == "text" or kind == "tool_use":
                        continue
                    if kind == "tool_result":
                        output = block["output"]
                        if type(output) not in LIST_TYPES:  # text or a JSON value
                            continue
                        for item in output:
                            if type(item) is dict and item.get("type") == "text":
                                continue
                            if _big_source(item):
                                return _write_with_payloads(data)
                    elif _big_source(block):
                        return _write_with_payloads(data)
            if _chunks is None:
                _json_writer()
            return "".join(_chunks(data, 0))
        import json

        return json.dumps(data, ensure_ascii=False, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> Msg:
        """Build a message from :meth:`to_json` text.

        Raises:
            MessageError: The text is not JSON, or the JSON is not a valid message.
        """
        try:
            data = (_reader or _json_reader())(text)
        except (TypeError, ValueError, RecursionError) as error:
            msg = f"The text is not valid JSON ({error}): {show(text)}."
            raise MessageError(msg) from None
        return cls.from_dict(data)

    # -- reading the content -------------------------------------------------------

    def get_text_content(self, separator: str = "\n") -> str | None:
        """Return the text of the message.

        A ``str`` content is returned as it is. Otherwise the ``text`` of every text
        block is joined with *separator*; None when there is no text block.
        """
        if type(separator) is not str:
            raise must_be("separator", "a string", separator)
        content = self._values[_CONTENT]
        if isinstance(content, str):
            return content
        texts = [block["text"] for block in content if block["type"] == "text"]
        return separator.join(texts) if texts else None

    def get_content_blocks(
        self, block_type: BlockType | Sequence[BlockType] | None = None
    ) -> list[ContentBlock]:
        """Return copies of the content blocks, all or only those of the given type(s).

        A ``str`` content counts as one text block.

        Args:
            block_type: A block type name such as ``"image"``, a list of names, or None
                for every block.

        Raises:
            MessageError: *block_type* names an unknown block type.
        """
        wanted = check_block_types(block_type)
        content = self._values[_CONTENT]
        if type(content) is str:
            blocks: list[Any] = [{"type": "text", "text": content}]
        else:
            blocks = content
        return [copy_json(block) for block in blocks if wanted is None or block["type"] in wanted]

    def has_content_blocks(self, block_type: BlockType | Sequence[BlockType] | None = None) -> bool:
        """Whether the message has at least one block of the given type(s).

        A ``str`` content counts as a text block.
        """
        wanted = check_block_types(block_type)
        content = self._values[_CONTENT]
        if isinstance(content, str):
            return wanted is None or "text" in wanted
        return any(wanted is None or block["type"] in wanted for block in content)

    def check_media(
        self, *, root: str | os.PathLike[str] | None = None, max_bytes: int | None = None
    ) -> None:
        """Decode every base64 payload and ``data:`` URL and compare it with its declared
        media type; with *root*, also read the local files the message names.

        Building a message never decodes base64 data; call this when the payload must
        be real (before sending it to a model, say). A message may come from anyone, so
        the local files it names (``file://`` URLs, absolute and relative paths) are
        read only when you name the folder they must be in: relative paths are then
        taken from *root*, and a path leading outside it is refused without being
        opened. Only regular files of at most *max_bytes* bytes (64 MiB by default)
        are read, never a pipe or a device, and no error quotes their bytes.

        Args:
            root: The folder whose files may be read; None (the default) reads none.
            max_bytes: The largest local file read, in bytes.

        Raises:
            MediaError: A payload is not valid base64, its bytes are of no known format,
                or they do not match the block's ``media_type``; with *root*, a local
                file is outside it, missing, not a regular file, too large or not of
                the block's kind.
        """
        from ._media import FILE_LIMIT, check_content_media

        limit = FILE_LIMIT if max_bytes is None else max_bytes
        check_content_media(self._values[_CONTENT], root=root, max_bytes=limit)

    # -- comparison and display ----------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Msg):
            return NotImplemented
        values = self._values
        other_values = other._values
        if values is other_values:
            return True
        if type(values[_TIMESTAMP]) is not str or type(other_values[_TIMESTAMP]) is not str:
            # Reading a lazy timestamp writes its text, which the lists then compare.
            return self.timestamp == other.timestamp and values == other_values
        return values == other_values

    def _repr_html_(self) -> str:
        """Return the message as an HTML chat card, for Jupyter and sphinx-gallery.

        The card shows the sender, role badge, timestamp, text, folded thinking, tool
        calls and results as tables, and small embedded media; all text is escaped.
        The same message always gives the same HTML.
        """
        from .cards._html import render_msg

        return render_msg(self)

    def __repr__(self) -> str:
        id, name, role, content, metadata, _, invocation_id = self._values
        shown = content if isinstance(content, str) else _abbreviate(content)
        parts = [
            f"id={id!r}",
            f"name={name!r}",
            f"role={role!r}",
            f"content={shown!r}",
            f"metadata={metadata!r}",
            f"timestamp={self.timestamp!r}",
        ]
        if invocation_id is not None:
            parts.append(f"invocation_id={invocation_id!r}")
        return f"Msg({', '.join(parts)})"


_FIELD_SET = frozenset(Msg._FIELDS)


def _not_a_field(field: str) -> MessageAttributeError:
    msg = f"`{field}` is not a field of Msg; the fields are {', '.join(Msg._FIELDS)}."
    return MessageAttributeError(msg, field)


# Where each field sits in ``Msg._values``: the order of ``Msg._FIELDS``.
_ID, _NAME, _ROLE, _CONTENT, _METADATA, _TIMESTAMP, _INVOCATION_ID = range(len(Msg._FIELDS))
# Stores a new message's checked fields: the slot's own setter, past Msg.__setattr__.
_store_values = Msg.__dict__["_values"].__set__

_writer: Any = None
_chunks: Any = None
_encode_string: Any = None


def _json_writer() -> Any:
    """The JSON writer of :meth:`Msg.to_json`, made once (``json.dumps`` makes a C encoder
    per call, which costs a small message as much as writing it), without the cycle check
    a validated message needs not; also sets ``_chunks`` and ``_encode_string``."""
    global _writer, _chunks, _encode_string
    if _writer is None:
        import json
        from json import encoder

        _encode_string = encoder.encode_basestring
        settings = json.JSONEncoder(ensure_ascii=False, check_circular=False)
        make = getattr(encoder, "c_make_encoder", None)
        if make is None:  # no C accelerator: the encoder's own method
            encode = settings.encode
            _chunks = lambda data, level: (encode(data),)  # noqa: E731
        else:
            # The arguments JSONEncoder.iterencode passes for these settings.
            _chunks = make(
                None,
                settings.default,
                encoder.encode_basestring,
                None,
                settings.key_separator,
                settings.item_separator,
                settings.sort_keys,
                settings.skipkeys,
                settings.allow_nan,
            )
        chunks = _chunks
        join = "".join
        _writer = lambda data: join(chunks(data, 0))  # noqa: E731
    return _writer


_MEDIA_KINDS = frozenset(MEDIA_KINDS)
_PAYLOAD_MIN = 256  # a source's text this long is written as it is when it needs no escaping
# The characters the JSON encoder escapes (with ensure_ascii=False): no others.
_ESCAPED = (*map(chr, range(0x20)), '"', "\\")


def _big_source(block: Any) -> bool:
    """Whether *block* is a media block whose source holds a long text; it assumes nothing
    (a tool's JSON output may hold any dicts)."""
    if type(block) not in DICT_TYPES:
        return False
    kind = block.get("type")
    if type(kind) is not str or kind not in _MEDIA_KINDS:  # any JSON value, lists too
        return False
    source = block.get("source")
    if type(source) not in DICT_TYPES:
        return False
    text = source.get("data") if source.get("type") == "base64" else source.get("url")
    return type(text) is str and len(text) >= _PAYLOAD_MIN


def _holds_payload(block: Any) -> bool:
    """Whether a content block is, or (a tool result) holds, a media block with a long source."""
    if block["type"] != "tool_result":
        return _big_source(block)
    output = block["output"]
    if type(output) is str:
        return False
    return type(output) in LIST_TYPES and any(map(_big_source, output))


def _plain(text: str) -> bool:
    """Whether the JSON encoder writes *text* as it is: it holds no quote, backslash or
    control character (each looked for at C speed)."""
    for character in _ESCAPED:  # noqa: SIM110  # any() with a generator costs more
        if character in text:
            return False
    return True


def _write_with_payloads(data: dict[str, Any]) -> str:
    """:meth:`Msg.to_json` of a message with long media payloads: the encoder's text, but
    a long payload that needs no escaping is copied as it is, not escaped char by char."""
    write = _writer or _json_writer()
    encode = _encode_string
    out: list[str] = []
    for key, value in data.items():
        out.append(", " if out else "{")
        out += (encode(key), ": ")
        if key != "content":
            out.append(write(value))
            continue
        out.append("[")
        for number, block in enumerate(value):
            if number:
                out.append(", ")
            if _holds_payload(block):
                _write_value(block, out, write)
            else:
                out.append(write(block))
        out.append("]")
    out.append("}")
    return "".join(out)


def _write_value(value: Any, out: list[str], write: Any) -> None:
    """Append the JSON text of *value* to *out*, long plain strings as they are."""
    kind = type(value)
    if kind is str:
        if len(value) >= _PAYLOAD_MIN and _plain(value):
            out += ('"', value, '"')
        else:
            out.append(_encode_string(value))
    elif kind in DICT_TYPES:
        if not value:
            out.append("{}")
            return
        separator = "{"
        for key, item in value.items():
            out += (separator, _encode_string(key), ": ")
            _write_value(item, out, write)
            separator = ", "
        out.append("}")
    elif kind in LIST_TYPES:
        if not value:
            out.append("[]")
            return
        separator = "["
        for item in value:
            out.append(separator)
            _write_value(item, out, write)
            separator = ", "
        out.append("]")
    else:  # a number, a boolean or None
        out.append(write(value))


_reader: Any = None


def _json_reader() -> Any:
    """The JSON reader of :meth:`Msg.from_json`, made once: a text that is one JSON value
    and nothing else goes straight to the C scanner, skipping ``json.loads``' two scans
    for white space; anything else goes to ``json.loads``, which reads it or says why not."""
    global _reader
    if _reader is None:
        import json
        from json import scanner

        loads = json.loads
        make = getattr(scanner, "c_make_scanner", None)
        if make is None:  # no C accelerator: json.loads as it is
            _reader = loads
        else:
            scan = make(json.JSONDecoder())

            def read(text: Any) -> Any:
                if type(text) is str:
                    try:
                        data, end = scan(text, 0)
                    except (StopIteration, ValueError, RecursionError):
                        pass  # json.loads reads it again and words the error
                    else:
                        if end == len(text):
                            return data
                return loads(text)

            _reader = read
    return _reader


# -- reading a message's fields as it stores them ---------------------------------------
# For the provider conversions: no copy, no checked container made; read, never change it.

_name_role_content = itemgetter(_NAME, _ROLE, _CONTENT)


def name_role_content(msg: Msg) -> tuple[str, Role, str | list[ContentBlock]]:
    """*msg*'s sender, role and content as it stores them, in one call."""
    fields: tuple[str, Role, str | list[ContentBlock]] = _name_role_content(msg._values)
    return fields


def stored_content(msg: Msg) -> str | list[ContentBlock]:
    """*msg*'s content as it stores it (``msg.content`` without the checked list)."""
    content: str | list[ContentBlock] = msg._values[_CONTENT]
    return content


def stored_metadata(msg: Msg) -> dict[str, Any] | None:
    """*msg*'s metadata as it stores it (``msg.metadata`` without the checked dict)."""
    metadata: dict[str, Any] | None = msg._values[_METADATA]
    return metadata


#: Where ``msg._values`` holds the name, the role and the content: the Chat Completions fast
#: path indexes them inline, cheaper per message than calling name_role_content.
NAME_SLOT, ROLE_SLOT, CONTENT_SLOT = _NAME, _ROLE, _CONTENT
