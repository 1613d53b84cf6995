"""The exceptions agentmsg raises.

Every rejected input raises :class:`MessageError` or one of its subclasses. The text
names the field path (``content[2].source.url``) and ends with the offending value.
"""

from __future__ import annotations


class MessageError(ValueError):
    """A message, a content block or their dict form was rejected.

    The text names the field path and the offending value, for example
    ``"`role` must be one of 'user', 'assistant', 'system', not 'robot'."``

    Attributes:
        path: The dotted field path that was rejected, such as ``content[2].source.url``,
            or an empty string when the whole value was rejected.
    """

    path: str

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(_writable(message))
        self.path = _writable(path)


def _writable(text: str) -> str:
    """*text* with each lone surrogate (from a key or a path of hostile input) written as
    its escape, ``\\ud800``: an error's text can always be printed or logged as UTF-8."""
    if text.isascii():
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class MediaError(MessageError):
    """A media file, media bytes or a base64 payload could not be used.

    Raised for a missing or unreadable file, bytes in a format agentmsg does not
    recognise, base64 data that does not decode, and a declared media type that does
    not match the bytes' signature.
    """


class MessageAttributeError(MessageError, AttributeError):
    """An attribute was read, set or deleted that a message does not allow.

    Raised for a name that is not a field of the message (read, set or deleted), for a
    field that cannot be changed or deleted, and for a value that is not known yet. It
    is an :exc:`AttributeError` as well, as ``attrs``' ``FrozenInstanceError`` is, so
    ``getattr`` with a default and ``hasattr`` work as they do on any object:

    >>> from agentmsg import HumanMessage, Msg
    >>> getattr(HumanMessage("Hi"), "token_count", None) is None
    True
    >>> hasattr(Msg("Ada", "Hi", "user"), "colour")
    False
    """


class TokenCountError(MessageAttributeError):
    """A token count was read before it was known, or set to an invalid value.

    It is a :class:`MessageAttributeError`, and so an :exc:`AttributeError` too:
    ``getattr(message, "token_count", None)`` gives None for a count not known yet.
    """
