"""The exceptions agentmsg raises.

Every rejected input raises :class:`MessageError` or one of its subclasses. The text
names the field path (``content[2].source.url``) and ends with the offending value.
"""

from __future__ import annotations

__all__ = ["MediaError", "MessageError", "TokenCountError"]


class MessageError(ValueError):
    """A message, a content block or their dict form was rejected.

    The text names the field path and the offending value, for example
    ``"`role` must be one of 'user', 'assistant', 'system', not 'robot'."``

    Attributes:
        path: The dotted field path that was rejected, such as ``content[2].source.url``,
            or an empty string when the whole value was rejected.

    .. versionadded:: 0.1.0
    """

    path: str

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.path = path


class MediaError(MessageError):
    """A media file, media bytes or a base64 payload could not be used.

    Raised for a missing or unreadable file, bytes in a format agentmsg does not
    recognise, base64 data that does not decode, and a declared media type that does
    not match the bytes' signature.

    .. versionadded:: 0.1.0
    """


class TokenCountError(MessageError):
    """A token count was read before it was known, or set to an invalid value.

    .. versionadded:: 0.1.0
    """
