"""Role-specific chat messages: one class per role, string content, token counts.

:class:`HumanMessage`, :class:`SystemMessage`, :class:`AIMessage` and
:class:`FunctionMessage` are the simple way to write a conversation for a chat API.
Each converts to and from a :class:`~agentmsg.Msg` (:meth:`ChatMessage.to_msg`,
:meth:`ChatMessage.from_msg`) and to and from its chat payload
(:meth:`ChatMessage.to_dict`, :meth:`ChatMessage.from_dict`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NotRequired, TypedDict

from .._blocks import MEDIA_KINDS
from .._containers import checked_field, copy_json
from .._errors import MediaError, MessageAttributeError, MessageError, TokenCountError
from .._media import block_from_bytes, block_from_file
from .._message import Msg
from .._tokens import ernie_tokens
from .._validate import check_id, check_name, check_role, check_str, must_be, show, with_article
from ._rules import (
    check_arguments,
    check_blocks_for,
    check_clarify,
    check_count,
    check_files,
    check_function_call,
    check_one_call,
    check_payload_keys,
    check_payload_role,
    check_plugin_info,
    check_search_info,
    check_text_output,
    check_token_usage,
    check_tool_result_alone,
    merge_calls,
    merge_same,
)

if TYPE_CHECKING:
    from typing import Self

__all__ = [
    "AIMessage",
    "AIMessageChunk",
    "ChatMessage",
    "FunctionCall",
    "FunctionMessage",
    "HumanMessage",
    "Message",
    "PluginInfo",
    "SearchInfo",
    "SystemMessage",
    "TokenUsage",
]

# Writes an attribute past ChatMessage.__setattr__, which refuses every field but
# token_count: how __init__ and the conversions fill the private slots.
_object_setattr = object.__setattr__
# The role a tool result travels with in a Msg, and the sender name it gets by default
# (the core tutorials send tool results as ``Msg("system", [ToolResultBlock], "system")``).
_TOOL_RESULT_ROLE: Literal["system"] = "system"
# The roles a Message of no particular class takes (a function result needs its name).
_MESSAGE_ROLES = ("user", "assistant", "system")


class FunctionCall(TypedDict):
    """A model's request to call a function, as an :class:`AIMessage` carries it.

    ``name`` is the function, ``arguments`` its arguments as JSON text (a JSON object),
    ``thoughts`` the reasoning the model gave for the call, if any, and ``id`` the call
    id, if the model gave one. The arguments are kept as text and only parsed when the
    message is converted to a :class:`~agentmsg.Msg`.
    """

    name: str
    thoughts: NotRequired[str]
    arguments: str
    id: NotRequired[str]


class TokenUsage(TypedDict):
    """The token usage a chat API reports for one reply.

    The counts are integers >= 0. ``total_tokens`` is optional: ERNIE Bot Agent's own
    ``TokenUsage`` has only the other two. ``plugins`` is what ERNIE Bot adds to the
    usage of a plugin answer: one dict per plugin, its ``name`` and its counts (such as
    ``parse_tokens`` and ``total_tokens``, integers >= 0). :attr:`AIMessage.token_count`
    is ``completion_tokens`` and :attr:`AIMessage.query_tokens_count` ``prompt_tokens``.
    """

    prompt_tokens: int
    completion_tokens: int
    total_tokens: NotRequired[int]
    plugins: NotRequired[list[dict[str, Any]]]


class SearchInfo(TypedDict):
    """The search results an answer draws on, as ERNIE Bot reports them.

    ``results`` holds one dict of JSON values per result (ERNIE Bot gives each an
    ``index``, a ``url`` and a ``title``).
    """

    results: list[dict[str, Any]]


class PluginInfo(TypedDict):
    """The plugins a chat API ran for an answer: their ``names``."""

    names: list[str]


def _default_call_id(function_name: str) -> str:
    """The call id a function call and its result share when neither names one."""
    return f"call_{function_name}"


def _arguments_text(use: dict[str, Any]) -> str:
    """A tool use block's arguments as a function call's text: the model's own text
    (``raw_input``) when it still says what ``input`` holds, else ``input`` as JSON."""
    import json  # here, not at the top: `import agentmsg` stays light

    raw = use.get("raw_input")
    if raw is not None:
        try:
            if json.loads(raw) == use["input"]:
                return str(raw)
        except (ValueError, RecursionError):
            pass
    return json.dumps(use["input"], ensure_ascii=False)


def _describe_file(block: dict[str, Any]) -> str:
    source = block["source"]
    return str(source["media_type"] if source["type"] == "base64" else source["url"])


# -- the base class --------------------------------------------------------------------


class ChatMessage:
    """The base of the role messages; not created directly.

    Every role message has a :attr:`role`, a string :attr:`content` and a
    :attr:`token_count`. The role and the content are fixed. The fields that ERNIE Bot
    Agent's code assigns can be assigned here too: :attr:`token_count` on every message,
    and the fields that :class:`AIMessage` and :class:`FunctionMessage` list; each value
    is checked when it is set. A field that holds a dict or a list (``search_info``,
    ``function_call``, ``files``...) is handed out as a checked container, as the
    ``content`` of a :class:`~agentmsg.Msg` is: a change made in place
    (``answer.search_info["results"].append({...})``) is checked at once and kept, or
    refused with :class:`~agentmsg.MessageError` and undone. Assigning, deleting or
    reading any other attribute raises :class:`~agentmsg.MessageAttributeError`, a
    :class:`~agentmsg.MessageError` and an :exc:`AttributeError`.

    Use :meth:`from_dict` and :meth:`from_msg` on this class (or on
    :class:`~agentmsg.Message`) to get whichever role message the data describes, or on
    a subclass to insist on that role.
    """

    __slots__ = ("_content", "_name", "_role", "_token_count")
    __hash__ = None  # type: ignore[assignment]  # compared by value

    _ROLE: ClassVar[str] = ""
    _PAYLOAD_KEYS: ClassVar[tuple[str, ...]] = ("role", "name", "content")
    _FIELDS: ClassVar[tuple[str, ...]] = (*_PAYLOAD_KEYS, "token_count")
    _DEFAULT_NAME: ClassVar[str] = ""
    # Whether the payload keeps its keys past ``content`` when they are empty or None.
    _KEEP_EMPTY: ClassVar[bool] = False

    _SETTABLE: ClassVar[frozenset[str]]
    _SLOTS: ClassVar[tuple[str, ...]]
    _PAYLOAD_SLOTS: ClassVar[tuple[tuple[str, str], ...]]
    _state: ClassVar[attrgetter[tuple[Any, ...]]]

    _content: str
    _name: str | None
    _role: str
    _token_count: int | None

    def __init__(self, content: str, *, name: str | None = None) -> None:
        if type(self) is ChatMessage:
            msg = (
                "ChatMessage is a base class; use HumanMessage, SystemMessage, AIMessage, "
                "FunctionMessage, or Message with a role."
            )
            raise TypeError(msg)
        self._setup(content, name)

    def _setup(self, content: str, name: str | None) -> None:
        _object_setattr(self, "_content", check_str(content, "content"))
        _object_setattr(self, "_name", None if name is None else check_name(name))
        _object_setattr(self, "_role", self._ROLE)
        _object_setattr(self, "_token_count", None)

    # -- attributes --------------------------------------------------------------------

    @property
    def role(self) -> str:
        """The role of the message in a chat payload (``"user"``, ``"system"``,
        ``"assistant"`` or ``"function"``)."""
        return self._role

    @property
    def content(self) -> str:
        """The text of the message."""
        return self._content

    @property
    def name(self) -> str | None:
        """The sender's name, or None when the message does not name one."""
        return self._name

    @property
    def token_count(self) -> int:
        """The number of tokens the content costs.

        A :class:`SystemMessage` and an :class:`AIMessage` know it from the start; a
        :class:`HumanMessage` and a :class:`FunctionMessage` know it once it is set. As
        in ERNIE Bot Agent, it can be set again (its memories set the count of a message
        each time it enters one): the new count replaces the old one, and a warning
        saying so is logged on the ``agentmsg`` logger.

        :class:`~agentmsg.TokenCountError` is an :exc:`AttributeError` too, so
        ``getattr(message, "token_count", None)`` gives None while the count is unknown.

        Raises:
            TokenCountError: Read before it is known; set to anything but an integer
                >= 0.
        """
        count = self._token_count
        if count is None:
            raise self._count_not_known()
        return count

    @token_count.setter
    def token_count(self, value: int) -> None:
        count = check_count(value)
        known = self._token_count
        if known is not None:
            import logging  # here, not at the top: `import agentmsg` stays light

            logging.getLogger("agentmsg").warning(
                "The token count of this %s was already known (%d); it is now %d.",
                type(self).__name__,
                known,
                count,
            )
        _object_setattr(self, "_token_count", count)

    def _count_not_known(self) -> TokenCountError:
        msg = (
            f"The token count of this {type(self).__name__} is not known yet; set "
            f"`token_count` first, for example to estimate_tokens(message.content)."
        )
        return TokenCountError(msg, "token_count")

    def _derived_count(self) -> int | None:
        """The count the message works out by itself from its fields, if any."""
        return None

    def _checked(self, slot: str, check: Callable[[Any, str], Any], path: str) -> Any:
        """The field kept in *slot* as a checked container (made on first read), whose
        in-place changes *check* accepts or refuses; None stays None."""
        value = getattr(self, slot)
        if type(value) is dict or type(value) is list:
            value = checked_field(value, lambda node: check(node, path))
            _object_setattr(self, slot, value)
        return value

    def _no_field(self, field: str) -> MessageAttributeError:
        kind = type(self).__name__
        msg = f"`{field}` is not a field of {kind}; the fields are {', '.join(self._FIELDS)}."
        return MessageAttributeError(msg, field)

    def __setattr__(self, field: str, value: Any) -> None:
        if field in self._SETTABLE or field in _PRIVATE_SLOTS:
            # A settable field goes through its property's setter; the private slots
            # are only set this way by copy and pickle, slot by slot.
            _object_setattr(self, field, value)
            return
        if field not in self._FIELDS:
            raise self._no_field(field)
        kind = with_article(type(self).__name__)
        msg = f"`{field}` of {kind} cannot be changed; build a new message instead."
        raise MessageAttributeError(msg, field)

    def __delattr__(self, field: str) -> None:
        if field not in self._FIELDS and field not in _PRIVATE_SLOTS:
            raise self._no_field(field)
        kind = with_article(type(self).__name__)
        msg = f"`{field}` cannot be deleted from {kind}; build a new message instead."
        raise MessageAttributeError(msg, field)

    def __getattr__(self, field: str) -> Any:
        # Called when ordinary lookup fails: for a name that is no field, and after the
        # token_count property raised its TokenCountError, an AttributeError too.
        if field == "token_count":
            raise self._count_not_known()
        raise self._no_field(field)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The fields that can be assigned (ERNIE Bot Agent's plain attributes): those whose
        # property has a setter, which checks the value.
        cls._SETTABLE = frozenset(key for key in cls._FIELDS if getattr(cls, key).fset)
        # Every slot of the class, and a reader of them all: what equality compares.
        cls._SLOTS = tuple(slot for base in cls.__mro__ for slot in getattr(base, "__slots__", ()))
        cls._state = attrgetter(*cls._SLOTS)
        # The payload's keys after the content, each with its slot: what to_dict adds.
        cls._PAYLOAD_SLOTS = tuple((key, f"_{key}") for key in cls._PAYLOAD_KEYS[3:])

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        # Plain copies of the containers: a copy never shares a checked field with this one.
        return None, {slot: copy_json(getattr(self, slot)) for slot in self._SLOTS}

    # -- chat payloads -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return the message as a chat-API payload.

        The dict holds ``role`` and ``content``, plus ``name`` when the message has
        one, the function call of an :class:`AIMessage` and the media ``files`` of a
        :class:`HumanMessage` when there are any. Token counts are not part of it. The
        dict is a copy: changing it does not change the message.
        """
        data: dict[str, Any] = {"role": self._role}
        if self._name is not None:
            data["name"] = self._name
        data["content"] = self._content
        for key, slot in self._PAYLOAD_SLOTS:
            value = getattr(self, slot)
            if value or self._KEEP_EMPTY:
                data[key] = copy_json(value)
        return data

    @classmethod
    def from_dict(cls, data: Any) -> ChatMessage:
        """Build a role message from a chat payload, as :meth:`to_dict` returns it.

        Called on :class:`ChatMessage`, the ``role`` picks the class; called on a
        subclass, the ``role`` must be that subclass's.

        Raises:
            MessageError: *data* is not a dict, has no ``role`` or ``content``, has a
                key that the role's payload does not have, or holds an invalid value.

        Example:
            >>> from agentmsg import ChatMessage
            >>> ChatMessage.from_dict({"role": "user", "content": "Hi"})
            <HumanMessage role: 'user', content: 'Hi'>
        """
        role = check_payload_role(data, _BY_ROLE)
        target = cls._expect(_BY_ROLE[role], f"a payload with role {role!r}")
        check_payload_keys(data, role, target._PAYLOAD_KEYS)
        return target._from_payload(data)

    @classmethod
    def _from_payload(cls, data: dict[str, Any]) -> ChatMessage:
        # A payload's keys (but its role) are the keywords of its class's constructor.
        fields = dict(data)
        del fields["role"]
        return cls(**fields)

    @classmethod
    def _expect(cls, target: type[ChatMessage], what: str) -> type[ChatMessage]:
        """The class to build: *target*, or this class when it is a subclass of it (an
        :class:`AIMessageChunk` asked for an AI message); anything else raises."""
        if cls is ChatMessage or cls is Message:
            return target
        if not issubclass(cls, target):
            msg = (
                f"{what} becomes {with_article(target.__name__)}, not {with_article(cls.__name__)}."
            )
            raise MessageError(msg, "role")
        return cls

    # -- Msg conversions ---------------------------------------------------------------

    def to_msg(self, name: str | None = None) -> Msg:
        """Return the message as a :class:`~agentmsg.Msg`.

        Args:
            name: The Msg's sender name. When not given, the message's own
                :attr:`name` is used, else a default: ``"user"``, ``"system"`` and
                ``"assistant"`` for the human, system and AI messages, and
                ``"system"`` for a function message.

        A known token count that the message could not work out again by itself (that
        of a human or function message, the ``token_usage`` of an AI message) travels
        in the Msg's ``metadata``, under ``"token_count"`` or ``"token_usage"``, so
        :meth:`from_msg` gets it back.

        Raises:
            MessageError: The message cannot be expressed as a Msg (an AI message whose
                function-call arguments are not a JSON object).
        """
        sender = (self._name or self._DEFAULT_NAME or self._role) if name is None else name
        return Msg(sender, self._msg_content(), self._role, self._msg_metadata())  # type: ignore[arg-type]

    def _msg_content(self) -> str | list[Any]:
        return self._content

    def _msg_metadata(self) -> dict[str, Any] | None:
        count = self._token_count
        if count is None or count == self._derived_count():
            return None
        return {"token_count": count}

    @classmethod
    def from_msg(cls, msg: Msg) -> ChatMessage:
        """Build the role message that a :class:`~agentmsg.Msg` corresponds to.

        - A Msg whose content is a single ``tool_result`` block, whatever its role,
          becomes a :class:`FunctionMessage` (the block's output as text; a JSON value
          that is not a string is written as JSON).
        - Otherwise the role decides: ``"user"`` gives a :class:`HumanMessage` (text
          blocks joined by newlines, media blocks as its files), ``"assistant"`` an
          :class:`AIMessage` (a ``tool_use`` block as its function call, thinking
          blocks as the call's thoughts) and ``"system"`` a :class:`SystemMessage`.

        The Msg's name is kept as the message's :attr:`name` unless it is the default
        that :meth:`to_msg` would give. The id, timestamp and invocation id of the Msg,
        and metadata other than the token counts :meth:`to_msg` writes, have no place
        in a role message and are not kept.

        Called on a subclass, the Msg must correspond to that subclass.

        Raises:
            MessageError: *msg* is not a Msg, holds a block the role message cannot
                carry (the text names the block, such as ``content[1]``), or
                corresponds to another class than the one this is called on.

        Example:
            >>> from agentmsg import ChatMessage, Msg
            >>> ChatMessage.from_msg(Msg("Ada", "Hi there", "user"))
            <HumanMessage role: 'user', name: 'Ada', content: 'Hi there'>
        """
        if not isinstance(msg, Msg):
            raise must_be("msg", "a Msg", msg, typed=True)
        content = msg.content
        if isinstance(content, list) and any(block["type"] == "tool_result" for block in content):
            target: type[ChatMessage] = FunctionMessage
        else:
            target = _BY_ROLE[msg.role]
        target = cls._expect(target, f"a Msg with role {msg.role!r} and this content")
        message = target._from_msg(msg)
        metadata = msg.metadata
        if metadata is not None and "token_count" in metadata:
            count = check_count(metadata["token_count"], "metadata.token_count")
            _object_setattr(message, "_token_count", count)
        return message

    @classmethod
    def _from_msg(cls, msg: Msg) -> ChatMessage:
        blocks = check_blocks_for(msg.content, ("text",), cls.__name__)
        return cls(_join_text(blocks), name=_kept_name(msg, cls._DEFAULT_NAME))

    # -- comparison and display --------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ChatMessage):
            return NotImplemented
        return type(self) is type(other) and self._state(self) == other._state(other)

    def __str__(self) -> str:
        # ERNIE Bot Agent's rule: the payload's fields in order, leaving out None and "".
        parts = []
        for key, value in self.to_dict().items():
            if value is None or value == "":
                continue
            if key == "files":
                value = [_describe_file(block) for block in value]
            parts.append(f"{key}: {value!r}")
        if self._token_count is not None:
            parts.append(f"token_count: {self._token_count}")
        return f"<{', '.join(parts)}>"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {str(self)[1:]}"

    def _repr_html_(self) -> str | None:
        """The card of the :meth:`to_msg` form, or None (shown as text) without one."""
        try:
            msg = self.to_msg()
        except MessageError:
            return None
        return msg._repr_html_()


class Message(ChatMessage):
    """A message of any chat role, as ERNIE Bot Agent's ``Message``; also the base class of
    :class:`HumanMessage`, :class:`SystemMessage`, :class:`AIMessage` and
    :class:`FunctionMessage`, so annotations and ``isinstance`` checks written for ERNIE
    Bot Agent's ``Message`` hold for them.

    Args:
        role: ``"user"``, ``"assistant"`` or ``"system"``. A function's result needs the
            function's name: write it as a :class:`FunctionMessage`.
        content: The text of the message.
        token_count: The number of tokens the content costs, if known (an integer >= 0).

    :meth:`~ChatMessage.to_msg`, :meth:`~ChatMessage.to_dict` and the other methods work as
    for the role messages; :meth:`~ChatMessage.from_dict` and
    :meth:`~ChatMessage.from_msg` give the role message of the data's role.

    Raises:
        MessageError: A field has the wrong type or value.

    Example:
        >>> from agentmsg import Message
        >>> Message("user", "hello", token_count=5)
        <Message role: 'user', content: 'hello', token_count: 5>
    """

    __slots__ = ()

    def __init__(self, role: str, content: str, token_count: int | None = None) -> None:
        self._setup(content, None)
        _object_setattr(self, "_role", check_role(role, "role", _MESSAGE_ROLES))
        if token_count is not None:
            _object_setattr(self, "_token_count", check_count(token_count))


def _kept_name(msg: Msg, default: str) -> str | None:
    return None if msg.name == default else msg.name


def _join_text(blocks: list[dict[str, Any]]) -> str:
    return "\n".join(block["text"] for block in blocks if block["type"] == "text")


# -- the four roles --------------------------------------------------------------------


class HumanMessage(Message):
    """What the user says to the model: a question, a request, maybe with media.

    Args:
        content: The text.
        name: The user's name, or None.
        files: Image, audio or video blocks sent along with the text; see
            :meth:`create_with_files` to make them from files or bytes.

    The token count is not known until it is set.

    Raises:
        MessageError: A field has the wrong type or value.

    Example:
        >>> from agentmsg import HumanMessage
        >>> question = HumanMessage("What is 7 times 8?")
        >>> print(question)
        <role: 'user', content: 'What is 7 times 8?'>
        >>> question.to_dict()
        {'role': 'user', 'content': 'What is 7 times 8?'}
        >>> question.token_count = 7
        >>> print(question)
        <role: 'user', content: 'What is 7 times 8?', token_count: 7>
    """

    __slots__ = ("_files",)
    _ROLE: ClassVar[str] = "user"
    _PAYLOAD_KEYS = (*ChatMessage._PAYLOAD_KEYS, "files")
    _FIELDS = (*_PAYLOAD_KEYS, "token_count")
    _DEFAULT_NAME: ClassVar[str] = "user"

    _files: list[dict[str, Any]]

    def __init__(
        self,
        content: str,
        *,
        name: str | None = None,
        files: Sequence[dict[str, Any]] | None = None,
    ) -> None:
        self._setup(content, name)
        _object_setattr(self, "_files", check_files(files))

    @property
    def files(self) -> list[dict[str, Any]]:
        """The media blocks sent with the text (empty when there are none).

        A change made in place (``message.files.append(block)``) is checked at once:
        kept when the list still holds image, audio and video blocks only, else refused
        with :class:`~agentmsg.MessageError`.
        """
        return self._checked("_files", check_files, "files")  # type: ignore[no-any-return]

    @classmethod
    def create_with_files(
        cls,
        text: str,
        files: Sequence[str | os.PathLike[str] | bytes],
        *,
        name: str | None = None,
        include_file_urls: bool = False,
    ) -> Self:
        """Create a message whose text comes with images, sounds or videos.

        Each file is read now (synchronously; nothing goes over the network) and kept
        as a base64 media block; :meth:`~ChatMessage.to_msg` puts the blocks after the
        text. The media type is detected from the bytes, else from the file extension.

        Async code may ``await`` the result, as ERNIE Bot Agent's ``create_with_files``
        is a coroutine: awaiting a :class:`HumanMessage` gives the message itself, so
        ``await HumanMessage.create_with_files(...)`` and the plain call both work.

        Args:
            text: The text of the message.
            files: Local file paths (``str`` or path objects) and raw ``bytes``.
            name: The user's name, or None.
            include_file_urls: ERNIE Bot Agent's option to write the URLs of remote files
                into the text. Its agents pass it on every call; it must be False when
                there are files, which agentmsg keeps as media blocks, not as URLs.

        Raises:
            MediaError: A file is missing or unreadable, or holds no supported image,
                audio or video format; the text names it, such as ``files[1]``.
            MessageError: *files* is not a list, or an item is neither a path nor bytes;
                *include_file_urls* is not a bool, or true while there are files.

        Example:
            >>> from agentmsg import HumanMessage
            >>> gif = b"GIF89a" + bytes(10)
            >>> message = HumanMessage.create_with_files("What is in this picture?", [gif])
            >>> print(message)
            <role: 'user', content: 'What is in this picture?', files: ['image/gif']>
        """
        if include_file_urls is not False and (files or include_file_urls is not True):
            requirement = (
                "False when files are given (agentmsg keeps them as media blocks, with no "
                "URLs to write into the text)"
            )
            raise must_be("include_file_urls", requirement, include_file_urls)
        if type(files) not in (list, tuple):
            raise must_be("files", "a list of file paths or bytes", files)
        blocks = []
        for index, item in enumerate(files):
            here = f"files[{index}]"
            try:
                if isinstance(item, bytes | bytearray | memoryview):
                    block = block_from_bytes(bytes(item))
                elif isinstance(item, str | os.PathLike):
                    block = block_from_file(item)
                else:
                    raise must_be(here, "a file path or bytes", item)
            except MediaError as error:
                raise MediaError(f"`{here}`: {error}", here) from None
            blocks.append(block)
        return cls(text, name=name, files=blocks)

    def __await__(self) -> Generator[Any, None, Self]:
        """Awaiting a human message gives the message itself (see :meth:`create_with_files`)."""
        return self
        yield  # unreachable: makes this a generator that returns at once

    def _msg_content(self) -> str | list[Any]:
        if not self._files:
            return self._content
        blocks: list[Any] = [{"type": "text", "text": self._content}] if self._content else []
        blocks.extend(copy_json(block) for block in self._files)
        return blocks

    @classmethod
    def _from_msg(cls, msg: Msg) -> ChatMessage:
        blocks = check_blocks_for(msg.content, ("text", *MEDIA_KINDS), cls.__name__)
        files = [block for block in blocks if block["type"] != "text"]
        return cls(_join_text(blocks), name=_kept_name(msg, "user"), files=files)


class SystemMessage(Message):
    """A global instruction for the model: the part to play, the format to answer in.

    Args:
        content: The instruction.
        name: A sender name, or None.

    The token count is known from the start: the number of characters of *content*
    (a rough count that suits Chinese text, where a character is about a token), as in
    ERNIE Bot Agent. It can be set again, as on every role message.

    Raises:
        MessageError: A field has the wrong type or value.

    Example:
        >>> from agentmsg import SystemMessage
        >>> print(SystemMessage("Answer in one word."))
        <role: 'system', content: 'Answer in one word.', token_count: 19>
    """

    __slots__ = ()
    _ROLE: ClassVar[str] = "system"
    _DEFAULT_NAME: ClassVar[str] = "system"

    def __init__(self, content: str, *, name: str | None = None) -> None:
        self._setup(content, name)
        _object_setattr(self, "_token_count", len(self._content))

    def _derived_count(self) -> int | None:
        return len(self._content)


class AIMessage(Message):
    """What the model answers: text, or a request to call a function.

    Args:
        content: The text of the answer (often empty when there is a function call).
        function_call: The function the model wants called, as a dict with ``name``,
            ``arguments`` (a JSON object as text) and optionally ``thoughts`` and
            ``id``; or None. See :class:`~agentmsg.FunctionCall`.
        token_usage: The usage the chat API reported, a dict with ``prompt_tokens`` and
            ``completion_tokens``, optionally ``total_tokens`` and the ``plugins`` of a
            plugin answer; or None. See :class:`~agentmsg.TokenUsage`.
        plugin_info: The plugins the chat API ran for this answer, as
            ``{"names": [...]}``; or None. See :class:`~agentmsg.PluginInfo`.
        search_info: The search results the answer draws on, as
            ``{"results": [{...}, ...]}``; or None. See :class:`~agentmsg.SearchInfo`.
        clarify: Whether the answer asks the user to clarify the question (ERNIE Bot's
            ``plugin_clarify`` finish reason).
        name: The assistant's name, or None.

    The arguments are in ERNIE Bot Agent's order, so code written for its ``AIMessage``
    runs unchanged; as there, a function call's ``name`` may be empty (its remote
    toolkit's example of an answer that calls nothing), though such a message has no
    :class:`~agentmsg.Msg` form. The token count is known from the start:
    ``completion_tokens`` of *token_usage*, else ERNIE Bot's estimate of the content
    (each CJK ideograph one token, each other word 1.3, rounded down), so a
    token-limited memory keeps the messages it kept there. :attr:`query_tokens_count`
    is ``prompt_tokens``, or 0 without a usage report. The function-call arguments are
    kept as text; they are parsed only by :meth:`~ChatMessage.to_msg`.

    As in ERNIE Bot Agent, :attr:`function_call`, :attr:`plugin_info`,
    :attr:`search_info`, :attr:`clarify`, :attr:`query_tokens_count` and
    :attr:`~ChatMessage.token_count` can be assigned; each value is checked as the
    argument of the same name is.

    Raises:
        MessageError: A field has the wrong type or value, or a dict has an unknown key.

    Example:
        >>> from agentmsg import AIMessage
        >>> call = {"name": "multiply", "arguments": '{"a": 7, "b": 8}'}
        >>> reply = AIMessage("", function_call=call)
        >>> reply.to_dict()["function_call"]
        {'name': 'multiply', 'arguments': '{"a": 7, "b": 8}'}
        >>> reply.token_count  # ERNIE Bot's estimate of the empty content
        0
        >>> answer = AIMessage("56", token_usage={"prompt_tokens": 30, "completion_tokens": 3})
        >>> answer.token_count, answer.query_tokens_count
        (3, 30)
        >>> answer.search_info = {"results": [{"index": 1, "url": "", "title": "Times tables"}]}
        >>> answer.search_info["results"].append({"index": 2, "url": "", "title": "Products"})
        >>> len(answer.search_info["results"])
        2
    """

    _ROLE: ClassVar[str] = "assistant"
    _PAYLOAD_KEYS = (*ChatMessage._PAYLOAD_KEYS, "function_call", "plugin_info", "search_info")
    _FIELDS = (
        "role",
        "name",
        "content",
        "function_call",
        "token_usage",
        "plugin_info",
        "search_info",
        "clarify",
        "query_tokens_count",
        "token_count",
    )
    # A slot per field between the content and the token count (the base's slots).
    __slots__ = tuple(f"_{key}" for key in _FIELDS[3:-1])
    _DEFAULT_NAME: ClassVar[str] = "assistant"
    _KEEP_EMPTY = True  # as ERNIE Bot Agent's AIMessage writes them
    _PIECE: ClassVar[bool] = False  # whether a function call may lack its name (a chunk's)

    _function_call: dict[str, Any] | None
    _token_usage: dict[str, Any] | None
    _plugin_info: dict[str, Any] | None
    _search_info: dict[str, Any] | None
    _clarify: bool
    _query_tokens_count: int

    def __init__(
        self,
        content: str,
        function_call: FunctionCall | None = None,
        token_usage: TokenUsage | None = None,
        plugin_info: PluginInfo | None = None,
        search_info: SearchInfo | None = None,
        clarify: bool | None = False,
        *,
        name: str | None = None,
    ) -> None:
        self._setup(content, name)
        usage = check_token_usage(token_usage)
        call = check_function_call(function_call, piece=self._PIECE)
        _object_setattr(self, "_function_call", call)
        _object_setattr(self, "_token_usage", usage)
        _object_setattr(self, "_plugin_info", check_plugin_info(plugin_info))
        _object_setattr(self, "_search_info", check_search_info(search_info))
        _object_setattr(self, "_clarify", check_clarify(clarify))
        _object_setattr(self, "_query_tokens_count", 0 if usage is None else usage["prompt_tokens"])
        _object_setattr(self, "_token_count", self._derived_count())

    def _derived_count(self) -> int:
        usage = self._token_usage
        if usage is not None:
            return int(usage["completion_tokens"])
        return ernie_tokens(self._content)

    @property
    def function_call(self) -> FunctionCall | None:
        """The function call, or None when the model answered with text.

        A change made in place (``reply.function_call["name"] = "ocr/v1"``) is checked
        and kept.
        """
        return self._checked("_function_call", check_function_call, "function_call")  # type: ignore[no-any-return]

    @function_call.setter
    def function_call(self, value: FunctionCall | None) -> None:
        _object_setattr(self, "_function_call", check_function_call(value, piece=self._PIECE))

    @property
    def token_usage(self) -> TokenUsage | None:
        """The token usage the chat API reported, or None.

        A change made in place is checked and kept; :attr:`~ChatMessage.token_count`
        and :attr:`query_tokens_count`, taken from it when the message was made, stay
        as they are (assign them to change them).
        """
        return self._checked("_token_usage", check_token_usage, "token_usage")  # type: ignore[no-any-return]

    @property
    def query_tokens_count(self) -> int:
        """How many tokens the request this message answers cost.

        It is ``prompt_tokens`` of the usage report, and 0 without one, as in ERNIE Bot
        Agent; it can be assigned an integer >= 0.
        """
        return self._query_tokens_count

    @query_tokens_count.setter
    def query_tokens_count(self, value: int) -> None:
        _object_setattr(self, "_query_tokens_count", check_count(value, "query_tokens_count"))

    @property
    def plugin_info(self) -> PluginInfo | None:
        """The plugins the chat API ran, or None; changes made in place are checked."""
        return self._checked("_plugin_info", check_plugin_info, "plugin_info")  # type: ignore[no-any-return]

    @plugin_info.setter
    def plugin_info(self, value: PluginInfo | None) -> None:
        _object_setattr(self, "_plugin_info", check_plugin_info(value))

    @property
    def search_info(self) -> SearchInfo | None:
        """The search results the answer draws on, or None.

        A change made in place (``answer.search_info["results"].append({...})``, as ERNIE
        Bot Agent's retrieval agent does) is checked and kept.
        """
        return self._checked("_search_info", check_search_info, "search_info")  # type: ignore[no-any-return]

    @search_info.setter
    def search_info(self, value: SearchInfo | None) -> None:
        _object_setattr(self, "_search_info", check_search_info(value))

    @property
    def clarify(self) -> bool:
        """Whether the answer asks the user to clarify the question."""
        return self._clarify

    @clarify.setter
    def clarify(self, value: bool | None) -> None:
        _object_setattr(self, "_clarify", check_clarify(value))

    def _msg_content(self) -> str | list[Any]:
        call = self._function_call
        if call is None:
            return self._content
        blocks: list[Any] = []
        if "thoughts" in call:
            blocks.append({"type": "thinking", "thinking": call["thoughts"]})
        if self._content:
            blocks.append({"type": "text", "text": self._content})
        name = call.get("name")
        if name is None:
            msg = "`function_call` has no `name`: add the piece that names the function first."
            raise MessageError(msg, "function_call.name")
        if not name:
            msg = (
                "`function_call.name` is empty (ERNIE Bot Agent's example of an answer that "
                "calls no function), so the call cannot become a tool_use block."
            )
            raise MessageError(msg, "function_call.name")
        text = call["arguments"]
        use = {"type": "tool_use", "id": call.get("id", _default_call_id(name)), "name": name}
        blocks.append({**use, "input": check_arguments(text), "raw_input": text})
        return blocks

    def _msg_metadata(self) -> dict[str, Any] | None:
        metadata = super()._msg_metadata() or {}
        usage = self._token_usage
        if usage is not None:
            metadata["token_usage"] = copy_json(usage)
        if self._query_tokens_count != (0 if usage is None else usage["prompt_tokens"]):
            metadata["query_tokens_count"] = self._query_tokens_count
        if self._plugin_info is not None:
            metadata["plugin_info"] = copy_json(self._plugin_info)
        if self._search_info is not None:
            metadata["search_info"] = copy_json(self._search_info)
        if self._clarify:
            metadata["clarify"] = True
        return metadata or None

    @classmethod
    def _from_msg(cls, msg: Msg) -> ChatMessage:
        blocks = check_blocks_for(msg.content, ("text", "thinking", "tool_use"), cls.__name__)
        use = check_one_call(blocks)
        call: dict[str, Any] | None = None
        if use is not None:
            call = {"name": use["name"]}
            thoughts = [block["thinking"] for block in blocks if block["type"] == "thinking"]
            if thoughts:
                call["thoughts"] = "\n".join(thoughts)
            call["arguments"] = _arguments_text(use)
            if use["id"] != _default_call_id(use["name"]):
                call["id"] = use["id"]
        metadata = msg.metadata or {}
        message = cls(
            _join_text(blocks),
            call,  # type: ignore[arg-type]
            check_token_usage(metadata.get("token_usage"), "metadata.token_usage"),  # type: ignore[arg-type]
            check_plugin_info(metadata.get("plugin_info"), "metadata.plugin_info"),  # type: ignore[arg-type]
            check_search_info(metadata.get("search_info"), "metadata.search_info"),  # type: ignore[arg-type]
            check_clarify(metadata.get("clarify"), "metadata.clarify"),
            name=_kept_name(msg, "assistant"),
        )
        if "query_tokens_count" in metadata:
            count = check_count(metadata["query_tokens_count"], "metadata.query_tokens_count")
            _object_setattr(message, "_query_tokens_count", count)
        return message


class AIMessageChunk(AIMessage):
    """A piece of an answer that a chat API streams; pieces add up with ``+``.

    ERNIE Bot Agent's chat models stream an answer as ``AIMessageChunk`` pieces; here, as
    with langchain-core's chunks, ``first + second`` is the :class:`AIMessageChunk` of
    both pieces. It takes the arguments of :class:`AIMessage` and is one, so a piece, or
    their sum, can go wherever an answer can. The contents are joined, as are the
    ``arguments`` and ``thoughts`` of a function call streamed in pieces (the pieces
    must name the same function; a later piece may leave out the ``name``, as the
    fragments of a streamed tool call do). The usage report, plugin and search information of
    the later piece replace the earlier's when it has them: a chat API reports usage as
    a running total in each piece, or once in the last one, and either way the last
    report covers the whole answer (langchain-core adds up the pieces' counts instead).
    ``clarify`` holds when either piece has it. Adding anything but another chunk is a
    :exc:`TypeError`, as for any two unrelated types.

    Raises:
        MessageError: A field has the wrong type or value; two pieces name different
            senders or functions, or different call ids.

    Example:
        >>> from agentmsg import AIMessageChunk
        >>> pieces = [AIMessageChunk("The capital "), AIMessageChunk("is Lima.")]
        >>> answer = sum(pieces[1:], pieces[0])
        >>> answer.content
        'The capital is Lima.'
    """

    __slots__ = ()
    _PIECE: ClassVar[bool] = True

    def __add__(self, other: object) -> AIMessageChunk:
        if not isinstance(other, AIMessageChunk):
            return NotImplemented
        # The later piece's reports (a report given is never empty), else the earlier's.
        return AIMessageChunk(
            self._content + other._content,
            merge_calls(self._function_call, other._function_call),
            other._token_usage or self._token_usage,  # type: ignore[arg-type]
            other._plugin_info or self._plugin_info,  # type: ignore[arg-type]
            other._search_info or self._search_info,  # type: ignore[arg-type]
            other._clarify or self._clarify,
            name=merge_same(self._name, other._name),
        )


class FunctionMessage(Message):
    """What a function returned, sent back to the model after its function call.

    Args:
        name: The function's name, as in the :class:`AIMessage`'s function call.
        content: What the function returned, as text (JSON text, typically).
        call_id: The id of the function call this answers, if the call had one.

    As a :class:`~agentmsg.Msg` (:meth:`~ChatMessage.to_msg`), the result is a
    ``tool_result`` block in a message with role ``"system"`` sent by ``"system"``: a
    Msg has no ``"function"`` role, and ``"system"`` is the role tool results travel
    with in agentmsg. When neither the call nor the result has an id, both get
    ``"call_<name>"``, so they still match up.

    The token count is not known until it is set. As in ERNIE Bot Agent, :attr:`name`
    can be assigned (a non-empty string).

    Raises:
        MessageError: A field has the wrong type or value.

    Example:
        >>> import json
        >>> from agentmsg import FunctionMessage
        >>> result = FunctionMessage("multiply", json.dumps({"product": 56}))
        >>> print(result)
        <role: 'function', name: 'multiply', content: '{"product": 56}'>
        >>> result.to_dict()
        {'role': 'function', 'name': 'multiply', 'content': '{"product": 56}'}
    """

    __slots__ = ("_call_id",)
    _ROLE: ClassVar[str] = "function"
    _PAYLOAD_KEYS = (*ChatMessage._PAYLOAD_KEYS, "call_id")
    _FIELDS = (*_PAYLOAD_KEYS, "token_count")
    _DEFAULT_NAME: ClassVar[str] = "system"

    _call_id: str | None

    def __init__(self, name: str, content: str, *, call_id: str | None = None) -> None:
        self._setup(content, check_name(name))
        _object_setattr(self, "_call_id", None if call_id is None else check_id(call_id, "call_id"))

    @property
    def name(self) -> str:
        """The name of the function that produced the result."""
        return self._name  # type: ignore[return-value]  # always set for a function message

    @name.setter
    def name(self, value: str) -> None:
        _object_setattr(self, "_name", check_name(value))

    @property
    def call_id(self) -> str | None:
        """The id of the function call this answers, or None."""
        return self._call_id

    @classmethod
    def _from_payload(cls, data: dict[str, Any]) -> ChatMessage:
        if "name" not in data:
            msg = f"A function payload has no `name` field: {show(data)}."
            raise MessageError(msg, "name")
        return cls(data["name"], data["content"], call_id=data.get("call_id"))

    def to_msg(self, name: str | None = None) -> Msg:
        sender = self._DEFAULT_NAME if name is None else name
        return Msg(sender, self._msg_content(), _TOOL_RESULT_ROLE, self._msg_metadata())

    to_msg.__doc__ = ChatMessage.to_msg.__doc__

    def _msg_content(self) -> str | list[Any]:
        function = self.name
        call_id = self._call_id or _default_call_id(function)
        return [{"type": "tool_result", "id": call_id, "name": function, "output": self._content}]

    @classmethod
    def _from_msg(cls, msg: Msg) -> ChatMessage:
        block = check_tool_result_alone(msg.content)  # type: ignore[arg-type]
        output = block["output"]
        if type(output) is str:
            text = output
        elif isinstance(output, list) and output and all(isinstance(item, dict) for item in output):
            check_text_output(output)
            text = "\n".join(item["text"] for item in output)
        else:
            import json  # here, not at the top: `import agentmsg` stays light

            text = json.dumps(output, ensure_ascii=False)
        function = block["name"]
        call_id = None if block["id"] == _default_call_id(function) else block["id"]
        return cls(function, text, call_id=call_id)


_PRIVATE_SLOTS = frozenset((*HumanMessage._SLOTS, *AIMessage._SLOTS, *FunctionMessage._SLOTS))
_BY_ROLE: dict[str, type[ChatMessage]] = {
    "user": HumanMessage,
    "system": SystemMessage,
    "assistant": AIMessage,
    "function": FunctionMessage,
}

# Public classes say they live in ``agentmsg``, where users import them from.
for _cls in (ChatMessage, Message, AIMessageChunk, *_BY_ROLE.values()):
    _cls.__module__ = "agentmsg"
del _cls
