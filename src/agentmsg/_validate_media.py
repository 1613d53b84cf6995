"""The checks of media payloads that building a message leaves out: base64 data decoded
and compared with its media type, ``data:`` URLs, and local files read
(:meth:`Msg.check_media <agentmsg.Msg.check_media>`)."""

from __future__ import annotations

from typing import Any

from ._errors import MediaError
from ._media import detect_media_type, same_format
from ._validate import is_block_list, show

__all__ = ["check_content_media", "check_payload"]

_KINDS = ("image", "audio", "video")


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


def check_content_media(content: Any, path: str = "content") -> None:
    """Check every base64 payload and data: URL in *content* (tool outputs included)."""
    if type(content) is not list:
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
