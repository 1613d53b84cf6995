"""Media blocks from files, bytes and URLs, and the media type of bytes.

The checks of the payloads themselves (:meth:`Msg.check_media <agentmsg.Msg.check_media>`)
are in ``_validate_media.py``.
"""

from __future__ import annotations

import os
from typing import Any

from ._errors import MediaError
from ._validate import check_block, show

__all__ = [
    "block_from_bytes",
    "block_from_file",
    "block_from_url",
    "detect_media_type",
    "is_of_kind",
    "same_format",
]

# (offset, signature, media type), checked in order; the first match wins.
_SIGNATURES: tuple[tuple[int, bytes, str], ...] = (
    (0, b"\x89PNG\r\n\x1a\n", "image/png"),
    (0, b"\xff\xd8\xff", "image/jpeg"),
    (0, b"GIF87a", "image/gif"),
    (0, b"GIF89a", "image/gif"),
    (0, b"BM", "image/bmp"),
    (0, b"ID3", "audio/mpeg"),
    (0, b"OggS", "audio/ogg"),
    (0, b"fLaC", "audio/flac"),
    (0, b"\x1aE\xdf\xa3", "video/webm"),
)
_RIFF_KINDS = {b"WEBP": "image/webp", b"WAVE": "audio/wav", b"AVI ": "video/x-msvideo"}
_FTYP_KINDS = {b"M4A ": "audio/mp4", b"qt  ": "video/quicktime"}

# Names that mean the same format; the first of each group is the one agentmsg writes.
_ALIASES = {
    "image/jpg": "image/jpeg",
    "image/pjpeg": "image/jpeg",
    "audio/mp3": "audio/mpeg",
    "audio/x-wav": "audio/wav",
    "audio/wave": "audio/wav",
    "audio/vnd.wave": "audio/wav",
    "audio/x-flac": "audio/flac",
    "audio/m4a": "audio/mp4",
    "audio/x-m4a": "audio/mp4",
    "video/avi": "video/x-msvideo",
    "image/x-ms-bmp": "image/bmp",
}

# Containers that hold sound alone or pictures too: the bytes name the container, the
# file extension or the caller's `kind` tells which of the two a file is.
_OTHER_KIND = {
    "video/webm": "audio/webm",
    "audio/webm": "video/webm",
    "video/mp4": "audio/mp4",
    "audio/mp4": "video/mp4",
    "audio/ogg": "video/ogg",
    "video/ogg": "audio/ogg",
}

_EXTENSIONS = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".bmp": "image/bmp",
    ".svg": "image/svg+xml",
    ".mp3": "audio/mpeg",
    ".wav": "audio/wav",
    ".ogg": "audio/ogg",
    ".oga": "audio/ogg",
    ".flac": "audio/flac",
    ".m4a": "audio/mp4",
    ".mp4": "video/mp4",
    ".m4v": "video/mp4",
    ".webm": "video/webm",
    ".weba": "audio/webm",
    ".ogv": "video/ogg",
    ".opus": "audio/ogg",
    ".mov": "video/quicktime",
    ".avi": "video/x-msvideo",
}
_KINDS = ("image", "audio", "video")
_XML_STARTS = (b"<?xml", b"<!DOCTYPE svg", b"<!--")
_SPACE = b"\xef\xbb\xbf \t\r\n"  # a UTF-8 byte order mark and white space


def _normal(media_type: str) -> str:
    media_type = media_type.lower()
    return _ALIASES.get(media_type, media_type)


def is_of_kind(detected: str, kind: str) -> bool:
    """Whether bytes detected as *detected* can be *kind* (WebM can be sound or video)."""
    return detected.startswith(f"{kind}/") or _OTHER_KIND.get(detected, "").startswith(f"{kind}/")


def same_format(declared: str, detected: str) -> bool:
    """Whether a declared media type fits the bytes (an audio/webm file is WebM too)."""
    declared = _normal(declared)
    return declared == detected or _OTHER_KIND.get(detected) == declared


def detect_media_type(data: bytes) -> str | None:
    """Return the media type that *data*'s leading bytes announce, or None.

    Recognises PNG, JPEG, GIF, WebP, BMP, SVG, MP3 (with an ID3 tag or a bare MPEG
    audio frame), WAV, Ogg, FLAC, M4A, MP4, QuickTime, WebM and AVI.

    Raises:
        MediaError: *data* is not bytes.

    Example:
        >>> from agentmsg import detect_media_type
        >>> detect_media_type(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(8))
        'image/png'
        >>> detect_media_type(b"plain text") is None
        True

    .. versionadded:: 0.1.0
    """
    if type(data) is not bytes:
        if not isinstance(data, bytes | bytearray | memoryview):
            msg = f"`data` must be bytes, not {type(data).__name__}: {show(data)}."
            raise MediaError(msg, "data")
        data = bytes(data)
    for offset, signature, media_type in _SIGNATURES:
        if data.startswith(signature, offset):
            return media_type
    if data[:4] == b"RIFF" and len(data) >= 12:
        return _RIFF_KINDS.get(data[8:12])
    if data[4:8] == b"ftyp" and len(data) >= 12:
        return _FTYP_KINDS.get(data[8:12], "video/mp4")
    if len(data) >= 2 and data[0] == 0xFF and data[1] & 0xE0 == 0xE0:
        return "audio/mpeg"  # an MPEG audio frame without an ID3 tag
    head = data[:1024].lstrip(_SPACE)
    if head.startswith(b"<svg") or (head.startswith(_XML_STARTS) and b"<svg" in head):
        return "image/svg+xml"
    return None


def _media_type_for(data: bytes, filename: str | None, kind: str | None) -> str:
    detected = detect_media_type(data)
    if filename is None:
        where, its, holds = "the bytes", "their", "hold"
    else:
        where, its, holds = f"file {filename!r}", "its", "holds"
    if detected is None:
        msg = (
            f"Cannot tell the media type of {where}: {its} first bytes "
            f"{data[:8]!r} match no supported image, audio or video format."
        )
        raise MediaError(msg, "data")
    # The bytes first; then, for a container that holds sound alone or video, the file
    # extension or the kind asked for says which of the two it is.
    other = _OTHER_KIND.get(detected)
    if other is not None:
        extension = os.path.splitext(filename)[1].lower() if filename is not None else ""
        if _EXTENSIONS.get(extension) == other or (
            kind is not None and other.startswith(f"{kind}/")
        ):
            detected = other
    if kind is not None and not detected.startswith(f"{kind}/"):
        msg = f"`kind` is {kind!r}, but {where} {holds} {detected}."
        raise MediaError(msg, "kind")
    return detected


def _check_kind(kind: str | None) -> None:
    if kind is not None and kind not in _KINDS:
        msg = f"`kind` must be one of 'image', 'audio', 'video' or None, not {show(kind)}."
        raise MediaError(msg, "kind")


def block_from_bytes(
    data: bytes, media_type: str | None = None, *, kind: str | None = None
) -> dict[str, Any]:
    """Return an image, audio or video block carrying *data* as base64.

    Args:
        data: The media bytes.
        media_type: The MIME type; detected from the bytes when not given.
        kind: ``"image"``, ``"audio"`` or ``"video"`` to insist on one kind of block.

    Raises:
        MediaError: *data* is not bytes, or its format cannot be told, or it is not of
            *kind*, or *media_type* contradicts the bytes.

    Example:
        >>> from agentmsg import block_from_bytes
        >>> block = block_from_bytes(b"GIF89a" + bytes(10))
        >>> block["type"], block["source"]["media_type"]
        ('image', 'image/gif')

    .. versionadded:: 0.1.0
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        msg = f"`data` must be bytes, not {type(data).__name__}: {show(data)}."
        raise MediaError(msg, "data")
    _check_kind(kind)
    data = bytes(data)
    if media_type is None:
        media_type = _media_type_for(data, None, kind)
    else:
        if type(media_type) is not str:
            msg = f"`media_type` must be a string or None, not {show(media_type)}."
            raise MediaError(msg, "media_type")
        from ._validate_media import check_payload

        check_payload(data, media_type, "media_type")
        if kind is not None and media_type.partition("/")[0] != kind:
            msg = f"`kind` is {kind!r}, but `media_type` is {media_type!r}."
            raise MediaError(msg, "kind")
    return _block(data, media_type)


def _block(data: bytes, media_type: str) -> dict[str, Any]:
    import base64

    block = {
        "type": media_type.partition("/")[0],
        "source": {
            "type": "base64",
            "media_type": media_type,
            "data": base64.b64encode(data).decode("ascii"),
        },
    }
    return check_block(block, "block")


def block_from_file(path: str | os.PathLike[str], *, kind: str | None = None) -> dict[str, Any]:
    """Return an image, audio or video block with the file's bytes as base64.

    The media type is detected from the file's bytes, so a file must hold one of the
    formats :func:`detect_media_type` recognises. WebM, MP4 and Ogg hold either sound
    alone or video: for them the file extension (``.weba``, ``.m4a``, ``.ogv``, ...)
    or *kind* then says which block to make. An extension never overrides the bytes.

    Raises:
        MediaError: The file is missing or unreadable, or its format is not supported,
            or it is not of *kind*.

    .. versionadded:: 0.1.0
    """
    _check_kind(kind)
    try:
        name = os.fspath(path)
    except TypeError:
        msg = f"`path` must be a str or os.PathLike, not {type(path).__name__}: {show(path)}."
        raise MediaError(msg, "path") from None
    if not isinstance(name, str):  # a bytes path
        name = os.fsdecode(name)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        msg = f"`path` names no file: {name!r}."
        raise MediaError(msg, "path") from None
    except OSError as error:
        msg = f"`path` cannot be read ({error.strerror}): {name!r}."
        raise MediaError(msg, "path") from None
    return _block(data, _media_type_for(data, name, kind))


def block_from_url(url: str, *, kind: str | None = None) -> dict[str, Any]:
    """Return an image, audio or video block whose source is *url*; nothing is fetched.

    The kind of block comes from *kind*, else from the URL's file extension (or the
    media type of a ``data:`` URL).

    Raises:
        MessageError: The URL is not http, https or data:, or the kind cannot be told.

    Example:
        >>> from agentmsg import block_from_url
        >>> block_from_url("https://example.com/cat.png")
        {'type': 'image', 'source': {'type': 'url', 'url': 'https://example.com/cat.png'}}

    .. versionadded:: 0.1.0
    """
    _check_kind(kind)
    if type(url) is not str:
        msg = f"`url` must be a string, not {show(url)}."
        raise MediaError(msg, "url")
    if kind is None:
        if url.startswith("data:"):
            guessed = url[5:].partition(";")[0].partition(",")[0]
        else:
            tail = url.split("?", 1)[0].split("#", 1)[0]
            guessed = _EXTENSIONS.get(os.path.splitext(tail)[1].lower(), "")
        kind = guessed.partition("/")[0]
        if kind not in _KINDS:
            msg = f"Cannot tell whether {show(url)} is an image, audio or video; pass `kind`."
            raise MediaError(msg, "kind")
    return check_block({"type": kind, "source": {"type": "url", "url": url}}, "block")
