"""The checks of media payloads that building a message leaves out: base64 data decoded
and compared with its media type, ``data:`` URLs decoded, and local files (``file://``
URLs and absolute paths) read (:meth:`Msg.check_media <agentmsg.Msg.check_media>`).
Remote URLs are never fetched."""

from __future__ import annotations

import os
from typing import Any

from ._errors import MediaError
from ._media import detect_media_type, is_of_kind, same_format
from ._validate import is_block_list, is_file_url, is_local_path, show

__all__ = ["check_content_media", "check_payload"]

_KINDS = ("image", "audio", "video")
_HEAD_BYTES = 4096  # enough for every signature detect_media_type looks for


def check_payload(data: bytes, declared: str, path: str) -> None:
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


def _check_source(source: dict[str, Any], kind: str, path: str) -> None:
    if source["type"] == "base64":
        data = _decode_base64(source["data"], f"{path}.data")
        check_payload(data, source["media_type"], f"{path}.media_type")
        return
    url: str = source["url"]
    if is_local_path(url) or is_file_url(url):
        _check_local_file(url, kind, f"{path}.url")
        return
    if not url.startswith("data:"):
        return  # nothing is fetched
    header, _, payload = url.partition(",")
    media_type, *params = header[5:].split(";")
    here = f"{path}.url"
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
    local = unquote(rest)
    if os.name == "nt":  # file:///C:/photos/cat.png names C:\photos\cat.png
        return local.replace("/", "\\") if local[1:2] == ":" else "\\" + local.replace("/", "\\")
    return "/" + local


def _check_local_file(url: str, kind: str, path: str) -> None:
    """Read the first bytes of the local file *url* names; they must be *kind* media."""
    filename = file_url_path(url, path) if url.startswith("file://") else url
    try:
        with open(filename, "rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except FileNotFoundError:
        msg = f"`{path}` names no file: {url!r}."
        raise MediaError(msg, path) from None
    except OSError as error:
        msg = f"`{path}` cannot be read ({error.strerror}): {url!r}."
        raise MediaError(msg, path) from None
    detected = detect_media_type(head)
    if detected is None or not is_of_kind(detected, kind):
        found = detected or f"of no supported format: {head[:8]!r}"
        msg = f"`{path}` must name a file of {kind} data, but its bytes are {found}: {url!r}."
        raise MediaError(msg, path)


def check_content_media(content: Any, path: str = "content") -> None:
    """Check every base64 payload, data: URL and local file in *content* (tool outputs
    included)."""
    if isinstance(content, str):
        return
    for index, block in enumerate(content):
        here = f"{path}[{index}]"
        kind = block["type"]
        if kind in _KINDS:
            _check_source(block["source"], kind, f"{here}.source")
        elif kind == "tool_result" and is_block_list(block["output"]):
            for inner, item in enumerate(block["output"]):
                if item["type"] in _KINDS:
                    _check_source(item["source"], item["type"], f"{here}.output[{inner}].source")
