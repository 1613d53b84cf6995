"""The :class:`Msg` class: one message with a sender, a role and content."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from ._errors import MessageError
from ._ids import new_id, now_timestamp
from ._validate import (
    check_block_types,
    check_content,
    check_id,
    check_metadata,
    check_name,
    check_optional_str,
    check_role,
    check_timestamp,
    is_block_list,
    show,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ._blocks import BlockType, ContentBlock

__all__ = ["Msg"]

Role = Literal["user", "assistant", "system"]
_set = object.__setattr__
_REPR_DATA_LIMIT = 48


def _copy(value: Any) -> Any:
    """A deep copy of a JSON-shaped value (dicts, lists and immutable leaves)."""
    kind = type(value)
    if kind is dict:
        return {key: _copy(item) for key, item in value.items()}
    if kind is list:
        return [_copy(item) for item in value]
    return value


def _shorten(text: str) -> str:
    if len(text) <= _REPR_DATA_LIMIT:
        return text
    return f"{text[: _REPR_DATA_LIMIT - 8]}... ({len(text):,} characters)"


def _abbreviate(blocks: list[Any]) -> list[Any]:
    """A copy of *blocks* whose long base64 payloads and data: URLs are shortened.

    Only the ``source`` of media blocks (also inside tool outputs) is touched: a tool's
    input or a text that happens to be long is shown as it is.
    """
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
    passed in later does not change the message. Assigning a field validates it again.

    Example:
        >>> from agentmsg import Msg
        >>> msg = Msg(name="Jarvis", role="assistant", content="Hi! How can I help you?")
        >>> msg.get_text_content()
        'Hi! How can I help you?'
        >>> Msg.from_dict(msg.to_dict()) == msg
        True

    .. versionadded:: 0.1.0
    """

    __slots__ = ("content", "id", "invocation_id", "metadata", "name", "role", "timestamp")
    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value

    _FIELDS: ClassVar[tuple[str, ...]] = (
        "id",
        "name",
        "role",
        "content",
        "metadata",
        "timestamp",
        "invocation_id",
    )

    id: str
    name: str
    role: Role
    content: str | list[ContentBlock]
    metadata: dict[str, Any] | None
    timestamp: str
    invocation_id: str | None

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
        _set(self, "name", check_name(name))
        _set(self, "role", check_role(role))
        _set(self, "content", check_content(content))
        _set(self, "metadata", None if metadata is None else check_metadata(metadata))
        _set(self, "id", new_id() if id is None else check_id(id))
        when = now_timestamp() if timestamp is None else check_timestamp(timestamp)
        _set(self, "timestamp", when)
        _set(
            self,
            "invocation_id",
            None if invocation_id is None else check_optional_str(invocation_id, "invocation_id"),
        )

    def __setattr__(self, field: str, value: Any) -> None:
        check = _CHECKS.get(field)
        if check is None:
            msg = f"`{field}` is not a field of Msg; the fields are {', '.join(self._FIELDS)}."
            raise MessageError(msg, field)
        _set(self, field, check(value))

    def __delattr__(self, field: str) -> None:
        msg = f"`{field}` cannot be deleted from a message; assign a new value instead."
        raise MessageError(msg, field)

    # -- serialization -------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return the message as a dict of JSON values.

        The keys come in the order ``id``, ``name``, ``role``, ``content``,
        ``metadata``, ``timestamp``, then ``invocation_id`` only when it is set. The
        dict is a deep copy: changing it does not change the message.
        """
        content = self.content
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "role": self.role,
            "content": content if type(content) is str else _copy(content),
            "metadata": None if self.metadata is None else _copy(self.metadata),
            "timestamp": self.timestamp,
        }
        if self.invocation_id is not None:
            data["invocation_id"] = self.invocation_id
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
            msg = f"A message dict must be a dict, not {type(data).__name__}: {show(data)}."
            raise MessageError(msg)
        for key in data:
            if key not in _FIELD_SET:
                msg = (
                    f"`{key}` is not a message field (the fields are "
                    f"{', '.join(cls._FIELDS)}); its value was {show(data[key])}."
                )
                raise MessageError(msg, str(key))
        for key in ("name", "role", "content"):
            if key not in data:
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
        import json

        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> Msg:
        """Build a message from :meth:`to_json` text.

        Raises:
            MessageError: The text is not JSON, or the JSON is not a valid message.
        """
        import json

        try:
            data = json.loads(text)
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
            msg = f"`separator` must be a string, not {show(separator)}."
            raise MessageError(msg, "separator")
        content = self.content
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
        content = self.content
        if type(content) is str:
            blocks: list[Any] = [{"type": "text", "text": content}]
        else:
            blocks = content  # type: ignore[assignment]
        return [_copy(block) for block in blocks if wanted is None or block["type"] in wanted]

    def has_content_blocks(self, block_type: BlockType | Sequence[BlockType] | None = None) -> bool:
        """Whether the message has at least one block of the given type(s).

        A ``str`` content counts as a text block.
        """
        wanted = check_block_types(block_type)
        content = self.content
        if isinstance(content, str):
            return wanted is None or "text" in wanted
        return any(wanted is None or block["type"] in wanted for block in content)

    def check_media(self) -> None:
        """Decode every base64 payload and compare it with its declared media type.

        Building a message never decodes base64 data; call this when the payload must
        be real (before sending it to a model, say).

        Raises:
            MediaError: A payload is not valid base64, its bytes are of no known format,
                or they do not match the block's ``media_type``.
        """
        from ._media import check_content_media

        check_content_media(self.content)

    # -- comparison and display ----------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Msg):
            return NotImplemented
        return all(getattr(self, field) == getattr(other, field) for field in self._FIELDS)

    def _repr_html_(self) -> str:
        """Return the message as an HTML chat card, for Jupyter and sphinx-gallery.

        The card shows the sender, role badge, timestamp, text, folded thinking, tool
        calls and results as tables, and small embedded media; all text is escaped.
        The same message always gives the same HTML.
        """
        from ._html import render_msg

        return render_msg(self)

    def __repr__(self) -> str:
        content = self.content
        shown = content if isinstance(content, str) else _abbreviate(content)
        parts = [
            f"id={self.id!r}",
            f"name={self.name!r}",
            f"role={self.role!r}",
            f"content={shown!r}",
            f"metadata={self.metadata!r}",
            f"timestamp={self.timestamp!r}",
        ]
        if self.invocation_id is not None:
            parts.append(f"invocation_id={self.invocation_id!r}")
        return f"Msg({', '.join(parts)})"


_FIELD_SET = frozenset(Msg._FIELDS)
_CHECKS: dict[str, Callable[[Any], Any]] = {
    "id": check_id,
    "name": check_name,
    "role": check_role,
    "content": check_content,
    "metadata": check_metadata,
    "timestamp": check_timestamp,
    "invocation_id": lambda value: check_optional_str(value, "invocation_id"),
}
