"""Media: the media type of bytes, media blocks from files, bytes and URLs, and the checks
of media payloads that building a message leaves out.

Those checks (:meth:`Msg.check_media <agentmsg.Msg.check_media>`) decode base64 data and
compare it with its media type and decode ``data:`` URLs. Local files (``file://`` URLs,
absolute and relative paths) are read only when the caller names a folder: then only
regular files inside that folder, up to a size limit, and no error quotes their bytes.
A message may come from anyone; what it merely names is never read. Remote URLs are
never fetched.
"""

from __future__ import annotations

import os
import stat
from typing import Any, NamedTuple

from ._blocks import MEDIA_KINDS
from ._errors import MediaError
from ._validate import (
    check_block,
    is_block_list,
    is_local_file,
    must_be,
    show,
)

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
    """
    if type(data) is not bytes:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise must_be("data", "bytes", data, MediaError, typed=True)
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
        # The bytes of a file are never quoted: an error text may travel further than
        # the file was meant to.
        shown = "" if filename is not None else f" {data[:8]!r}"
        msg = (
            f"Cannot tell the media type of {where}: {its} first bytes{shown} "
            f"match no supported image, audio or video format."
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
    if kind is not None and kind not in MEDIA_KINDS:
        raise must_be("kind", "one of 'image', 'audio', 'video' or None", kind, MediaError)


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
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise must_be("data", "bytes", data, MediaError, typed=True)
    _check_kind(kind)
    data = bytes(data)
    if media_type is None:
        media_type = _media_type_for(data, None, kind)
    else:
        if type(media_type) is not str:
            raise must_be("media_type", "a string or None", media_type, MediaError)
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


FILE_LIMIT = 64 * 1024 * 1024
"""The size, in bytes, above which a local file is not read (the default *max_bytes* of
:func:`block_from_file` and :meth:`Msg.check_media <agentmsg.Msg.check_media>`)."""


def block_from_file(
    path: str | os.PathLike[str], *, kind: str | None = None, max_bytes: int = FILE_LIMIT
) -> dict[str, Any]:
    """Return an image, audio or video block with the file's bytes as base64.

    The media type is detected from the file's bytes, so a file must hold one of the
    formats :func:`detect_media_type` recognises. WebM, MP4 and Ogg hold either sound
    alone or video: for them the file extension (``.weba``, ``.m4a``, ``.ogv``, ...)
    or *kind* then says which block to make. An extension never overrides the bytes.
    Only a regular file of at most *max_bytes* bytes is read (never a pipe or a device).

    Raises:
        MediaError: The file is missing, unreadable, not a regular file or larger than
            *max_bytes*, or its format is not supported, or it is not of *kind*.
    """
    _check_kind(kind)
    name = _fs_path(path, "path", "a str or os.PathLike", typed=True)
    _check_limit(max_bytes)
    data = read_local_file(name, "path", name, max_bytes, None)
    return _block(data, _media_type_for(data, name, kind))


def _fs_path(value: Any, field: str, requirement: str, *, typed: bool = False) -> str:
    """*value*, a str or ``os.PathLike`` (of bytes too), as a str path."""
    try:
        name = os.fspath(value)
    except TypeError:
        raise must_be(field, requirement, value, MediaError, typed=typed) from None
    return name if isinstance(name, str) else os.fsdecode(name)


def _check_limit(max_bytes: object) -> None:
    if type(max_bytes) is not int or max_bytes < 0:
        raise must_be("max_bytes", "an integer >= 0", max_bytes, MediaError)


def read_local_file(
    filename: str, path: str, shown: str, max_bytes: int, head: int | None
) -> bytes:
    """The bytes (the first *head*, or all) of *filename*, a regular file of at most
    *max_bytes* (opened without waiting: never a pipe or a device); errors name *path* and
    the file as *shown*, never its bytes."""
    if "\0" in filename:
        msg = f"`{path}` names no valid file (a path cannot hold a NUL character): {shown!r}."
        raise MediaError(msg, path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(filename, flags | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        msg = f"`{path}` names no file: {shown!r}."
        raise MediaError(msg, path) from None
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not a valid path"
        msg = f"`{path}` cannot be read ({reason}): {shown!r}."
        raise MediaError(msg, path) from None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            msg = f"`{path}` must name a regular file, not a folder, pipe or device: {shown!r}."
            raise MediaError(msg, path)
        if status.st_size > max_bytes:
            msg = (
                f"`{path}` names a file of {status.st_size:,} bytes, over the limit of "
                f"{max_bytes:,} bytes (`max_bytes`): {shown!r}."
            )
            raise MediaError(msg, path)
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            data = handle.read(max_bytes + 1 if head is None else min(head, max_bytes + 1))
    except OSError as error:
        msg = f"`{path}` cannot be read ({error.strerror}): {shown!r}."
        raise MediaError(msg, path) from None
    finally:
        os.close(descriptor)
    if len(data) > max_bytes:  # it grew since it was looked at
        msg = (
            f"`{path}` names a file over the limit of {max_bytes:,} bytes (`max_bytes`): {shown!r}."
        )
        raise MediaError(msg, path)
    return data


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
    """
    _check_kind(kind)
    if type(url) is not str:
        raise must_be("url", "a string", url, MediaError)
    if kind is None:
        if url.startswith("data:"):
            guessed = url[5:].partition(";")[0].partition(",")[0]
        else:
            tail = url.split("?", 1)[0].split("#", 1)[0]
            guessed = _EXTENSIONS.get(os.path.splitext(tail)[1].lower(), "")
        kind = guessed.partition("/")[0]
        if kind not in MEDIA_KINDS:
            msg = f"Cannot tell whether {show(url)} is an image, audio or video; pass `kind`."
            raise MediaError(msg, "kind")
    return check_block({"type": kind, "source": {"type": "url", "url": url}}, "block")


# -- the checks of Msg.check_media ------------------------------------------------

_HEAD_BYTES = 4096  # enough for every signature detect_media_type looks for


def check_payload(data: bytes, declared: str, path: str) -> None:
    """Raise unless *data* is of a supported format that the media type *declared* names."""
    detected = detect_media_type(data)
    if detected is None:
        msg = f"`{path}` says {declared!r}, but the bytes match no supported format: {data[:8]!r}."
        raise MediaError(msg, path)
    if not same_format(declared, detected):
        msg = f"`{path}` says {declared!r}, but the bytes are {detected}."
        raise MediaError(msg, path)


def _decode_base64(text: str, path: str) -> bytes:
    import base64
    import binascii

    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        msg = f"`{path}` is not valid base64: {show(text)}."
        raise MediaError(msg, path) from None


class _Files(NamedTuple):
    """Where check_media may read local files: the folder (its real path), the size limit."""

    root: str
    max_bytes: int


def _check_source(source: dict[str, Any], kind: str, path: str, files: _Files | None) -> None:
    if source["type"] == "base64":
        data = _decode_base64(source["data"], f"{path}.data")
        check_payload(data, source["media_type"], f"{path}.media_type")
        return
    url: str = source["url"]
    if url.startswith("data:"):
        _check_data_url(url, kind, f"{path}.url")
    elif url.startswith(("http://", "https://")):
        return  # nothing is fetched
    elif files is not None and is_local_file(url):
        _check_local_file(url, kind, f"{path}.url", files)


def _check_data_url(url: str, kind: str, here: str) -> None:
    header, _, payload = url.partition(",")
    media_type, *params = header[5:].split(";")
    if any(param.lower() == "base64" for param in params):
        data = _decode_base64(payload, here)
    else:
        from urllib.parse import unquote_to_bytes

        data = unquote_to_bytes(payload)
    if media_type:
        check_payload(data, media_type, here)
        return
    detected = detect_media_type(data)
    if detected is None or not detected.startswith(f"{kind}/"):
        found = detected or f"of no supported format: {data[:8]!r}"
        msg = f"`{here}` must hold {kind} data, but its bytes are {found}."
        raise MediaError(msg, here)


def file_url_path(url: str, path: str) -> str:
    """The local path a ``file://`` URL names (percent-escapes decoded)."""
    from urllib.parse import unquote

    host, _, rest = url[7:].partition("/")
    if host not in ("", "localhost"):
        msg = f"`{path}` names a file on another host ({host!r}), which is not read: {url!r}."
        raise MediaError(msg, path)
    local = unquote(rest, errors="strict")
    if os.name == "nt":  # file:///C:/photos/cat.png names C:\photos\cat.png
        return local.replace("/", "\\") if local[1:2] == ":" else "\\" + local.replace("/", "\\")
    return "/" + local


def _check_local_file(url: str, kind: str, path: str, files: _Files) -> None:
    """Read the head of the local file *url* names, inside *files*' folder: *kind* media."""
    try:
        name = file_url_path(url, path) if url.startswith("file://") else url
    except UnicodeDecodeError:
        msg = f"`{path}` names no valid file (its escapes are not UTF-8): {url!r}."
        raise MediaError(msg, path) from None
    if "\0" in name:
        msg = f"`{path}` names no valid file (a path cannot hold a NUL character): {url!r}."
        raise MediaError(msg, path)
    # Where the path leads once `..` and links are followed, decided before anything is
    # opened: a file outside the folder is neither read nor said to exist.
    target = os.path.realpath(os.path.join(files.root, name))
    try:
        inside = os.path.commonpath([files.root, target]) == files.root
    except ValueError:  # on another drive (Windows)
        inside = False
    if not inside:
        msg = (
            f"`{path}` names a file outside the folder given to check_media, "
            f"which is not read: {url!r}."
        )
        raise MediaError(msg, path)
    head = read_local_file(target, path, url, files.max_bytes, _HEAD_BYTES)
    detected = detect_media_type(head)
    if detected is None or not is_of_kind(detected, kind):
        found = detected or "of no supported format"
        msg = f"`{path}` must name a file of {kind} data, but its bytes are {found}: {url!r}."
        raise MediaError(msg, path)


def check_content_media(
    content: Any,
    path: str = "content",
    *,
    root: str | os.PathLike[str] | None = None,
    max_bytes: int = FILE_LIMIT,
) -> None:
    """Check every base64 payload and data: URL in *content*, and with *root* every local
    file inside it."""
    files = None
    if root is not None:
        _check_limit(max_bytes)
        requirement = "a folder (str or os.PathLike) or None"
        folder = _fs_path(root, "root", requirement)
        if not folder or "\0" in folder:
            raise must_be("root", requirement, root, MediaError)
        files = _Files(os.path.realpath(folder), max_bytes)
    if isinstance(content, str):
        return
    for index, block in enumerate(content):
        here = f"{path}[{index}]"
        kind = block["type"]
        if kind in MEDIA_KINDS:
            _check_source(block["source"], kind, f"{here}.source", files)
        elif kind == "tool_result" and is_block_list(block["output"]):
            for inner, item in enumerate(block["output"]):
                if item["type"] in MEDIA_KINDS:
                    where = f"{here}.output[{inner}].source"
                    _check_source(item["source"], item["type"], where, files)
