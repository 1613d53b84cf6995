"""Gemini: a streamed reply's ``GenerateContentResponse`` pieces back into one."""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from ._common import STATE_KEY
from ._stream import Stream, merge_into, reject, trusted_msg
from .gemini import STATE_FORMAT, _base64, from_gemini

if TYPE_CHECKING:
    from .._message import Msg
    from ._common import Parsed

__all__ = ["GeminiStream"]

FORMAT = "Gemini"
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# The snake_case name of each key met.
_KEYS: dict[str, str] = {}
# The snake_case names of each set of keys met (None: they are snake_case already).
_NAMES: dict[tuple[str, ...], tuple[str, ...] | None] = {}
_SAME = ("response_id", "model_version")
_TEXT_KEYS = frozenset({"text", "thought", "thought_signature"})
# A piece has one of these at least.
_MARKS = frozenset(
    {
        "candidates",
        "usage_metadata",
        "prompt_feedback",
        "model_version",
        "response_id",
        "create_time",
    }
)
_QUICK_CANDIDATE = frozenset({"content", "index"})


def _key(key: str) -> str:
    name = _CAMEL.sub("_", key).lower()
    if len(_KEYS) < 4096:  # the keys of one API are few
        _KEYS[key] = name
    return name


_STREAMED = frozenset({"partial_args", "will_continue"})
# The keys of a part the quick partial message shows (text or thought text).
_PLAIN = frozenset({"text", "thought", "thought_signature"})
_PATH = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\['([^']*)'\]|\[\"([^\"]*)\"\]")


_COUNTS = (
    "prompt_token_count",
    "candidates_token_count",
    "thoughts_token_count",
    "total_token_count",
)


@functools.lru_cache(maxsize=64)
def _standard(signature: str) -> str:
    """A thought signature in the standard base64 alphabet, as the conversion keeps it
    (remembered: the partial message shows the same signatures at every piece)."""
    return _base64(signature, "")


def _token_usage(usage: Any) -> dict[str, int] | None:
    """The token usage the conversion makes of ``usage_metadata`` ({} without one; None
    when it holds something the conversion would refuse: then it is left to it)."""
    if usage is None:
        return {}
    if not isinstance(usage, dict):
        return None
    usage = _snake(usage)
    counts = [usage.get(key, 0) for key in _COUNTS]
    if any(type(count) is not int or count < 0 for count in counts):
        return None
    prompt, candidates, thoughts, total = counts
    return {
        "prompt_tokens": prompt,
        "completion_tokens": candidates + thoughts,
        "total_tokens": total,
    }


def _check_call(call: dict[str, Any], index: int, where: str) -> dict[str, Any]:
    """A function call in snake_case, its streamed argument pieces checked."""
    call = _snake(call)
    pieces = call.get("partial_args")
    if pieces is not None:
        if not isinstance(pieces, list):
            reject(FORMAT, index, f"{where}.partial_args", pieces, "it must be a list")
        checked = []
        for number, piece in enumerate(pieces):
            here = f"{where}.partial_args[{number}]"
            if not isinstance(piece, dict):
                reject(FORMAT, index, here, piece, "it must be an object")
            piece = _snake(piece)
            path = piece.get("json_path")
            if type(path) is not str or _steps(path) is None:
                reject(
                    FORMAT,
                    index,
                    f"{here}.json_path",
                    path,
                    "it must be a JSON path such as '$.a[0].b'",
                )
            checked.append(piece)
        call = {**call, "partial_args": checked}
    for key in ("name", "id"):
        value = call.get(key)
        if value is not None and type(value) is not str:
            reject(FORMAT, index, f"{where}.{key}", value, "it must be text")
    args = call.get("args")
    if args is not None and not isinstance(args, dict):
        reject(FORMAT, index, f"{where}.args", args, "it must be an object")
    return call


def _steps(path: str) -> list[str | int] | None:
    """The keys and indexes of a JSON path (``$.a[0]['b']``), or None if it is not one."""
    if not path.startswith("$"):
        return None
    steps: list[str | int] = []
    at = 1
    while at < len(path):
        found = _PATH.match(path, at)
        if found is None:
            return None
        name, number, quoted, doubled = found.groups()
        steps.append(int(number) if number is not None else (name or quoted or doubled or ""))
        at = found.end()
    return steps or None


def _set_path(args: dict[str, Any], piece: dict[str, Any]) -> None:
    """Put one streamed argument piece at its path: text pieces of one path append."""
    steps = _steps(piece["json_path"])
    assert steps is not None  # checked with the event
    holder: Any = args
    for step, following in zip(steps, [*steps[1:], None], strict=True):
        if following is None:
            break
        empty: Any = [] if type(following) is int else {}
        if type(step) is int:
            if not isinstance(holder, list):
                return
            while len(holder) <= step:
                holder.append(None)
            if not isinstance(holder[step], (dict, list)):
                holder[step] = empty
            holder = holder[step]
        else:
            if not isinstance(holder, dict):
                return
            if not isinstance(holder.get(step), (dict, list)):
                holder[step] = empty
            holder = holder[step]
    last = steps[-1]
    if "string_value" in piece:
        value: Any = piece["string_value"]
    elif "number_value" in piece:
        value = piece["number_value"]
    elif "bool_value" in piece:
        value = piece["bool_value"]
    else:
        value = None
    if type(last) is int:
        if not isinstance(holder, list):
            return
        while len(holder) <= last:
            holder.append(None)
        old = holder[last]
        holder[last] = old + value if type(old) is str and type(value) is str else value
    elif isinstance(holder, dict):
        old = holder.get(last)
        holder[last] = old + value if type(old) is str and type(value) is str else value


def _snake(data: dict[str, Any]) -> dict[str, Any]:
    """The keys of one object in snake_case, as the SDK dumps them (REST sends camelCase)."""
    keys = tuple(data)
    if keys in _NAMES:
        names = _NAMES[keys]
    else:
        snake = tuple(_CAMEL.sub("_", key).lower() for key in keys)
        names = None if snake == keys else snake
        if len(_NAMES) < 4096:  # the key sets of one API are few
            _NAMES[keys] = names
    return data if names is None else dict(zip(names, data.values(), strict=True))


class _Candidate:
    """One candidate so far: its parts (a run of text pieces grows the last one)."""

    __slots__ = ("call", "extra", "finish", "parts", "role", "texts")

    def __init__(self) -> None:
        # The function call whose arguments are still streaming (willContinue), if any.
        self.call: dict[str, Any] | None = None
        self.parts: list[dict[str, Any]] = []
        # The pieces of the last part while it is text that may still grow, else None.
        self.texts: list[str] | None = None
        self.role = "model"
        self.finish: str | None = None
        self.extra: dict[str, Any] = {}

    def dump(self, number: int) -> dict[str, Any]:
        parts = self.parts
        if self.texts is not None and len(self.texts) > 1:
            parts = list(parts)
            parts[-1] = {**parts[-1], "text": "".join(self.texts)}
        candidate = {**self.extra, "content": {"role": self.role, "parts": parts}}
        if number or "index" in self.extra:
            candidate["index"] = number
        if self.finish is not None:
            candidate["finish_reason"] = self.finish
        return candidate


class GeminiStream(Stream):
    """A reply streamed by Gemini, assembled piece by piece.

    Feed it the ``GenerateContentResponse`` pieces of
    ``client.models.generate_content_stream(...)`` (or their JSON as dicts, in the REST
    API's camelCase or the SDK's snake_case) with :meth:`add`; :attr:`msg` is the reply
    so far, and :meth:`result`, once a piece has brought the finish reason, gives what
    :func:`~agentmsg.from_gemini` gives for the unstreamed response.

    Each piece holds the next parts of the candidate. Text pieces in a row (of the same
    kind, thought or answer) make one text part, as in the unstreamed response; a thought
    signature ends the part it comes with, so the signature that Gemini sends in a last
    empty text piece lands on the text before it. Function calls come one part each.
    ``usage_metadata`` is a running total: the last one stands.

    A function call whose arguments come in pieces (``partialArgs`` with
    ``willContinue``) is put together into one call. The finish reason may come before
    the last piece, or with every piece: the parts after it still count. Pieces carry no
    sequence number, so a repeated text piece cannot be told from a real one; rejected
    are: a piece of another response (another ``response_id`` or model version), an
    event of another API, a value of the wrong type, and an ``error``.

    Example:
        >>> from agentmsg import GeminiStream
        >>> stream = GeminiStream()
        >>> for text, finish in [("Sun", None), ("ny.", "STOP")]:
        ...     candidate = {"content": {"role": "model", "parts": [{"text": text}]}}
        ...     if finish:
        ...         candidate["finishReason"] = finish
        ...     stream.add({"candidates": [candidate], "responseId": "r1"})
        >>> stream.result().messages[0].content
        [{'type': 'text', 'text': 'Sunny.'}]
    """

    __slots__ = ("_candidates", "_envelope", "_head")
    _FORMAT = FORMAT
    _LAST = "a piece with a finish reason"

    def __init__(self) -> None:
        super().__init__()
        self._head: dict[str, Any] | None = None
        self._candidates: dict[int, _Candidate] = {}
        # The partial message's metadata and id while the reply is text and thoughts
        # alone; made again after any piece that does more than add text.
        self._envelope: tuple[dict[str, Any] | None, str | None] | None = None

    def _take(self, event: dict[str, Any], index: int) -> None:
        head = self._head
        text = None if head is None else self._more_text(event.get("candidates"))
        if text is not None and head is not None:
            # Checked first, written after: a rejected piece changes nothing.
            for key, value in event.items():
                name = _KEYS.get(key) or _key(key)
                if name in _SAME and value and head.get(name) and value != head[name]:
                    reject(
                        FORMAT, index, name, value, f"the stream's first piece has {head[name]!r}"
                    )
            for key, value in event.items():
                if value is not None and key != "candidates":
                    name = _KEYS.get(key) or _key(key)
                    if head.get(name) != value:
                        head[name] = value
                        if name != "usage_metadata":  # the partial Msg reads that anew
                            self._envelope = None
            self._candidates[0].texts.append(text)  # type: ignore[union-attr]
            return
        self._envelope = None
        self._refuse_foreign(event, index)
        if "error" in event:
            error = event["error"]
            message = error.get("message", error) if isinstance(error, dict) else error
            reject(
                FORMAT, index, "error.message", message, "the API ended the stream with an error"
            )
        event = _snake(event)
        if _MARKS.isdisjoint(event):
            reject(FORMAT, index, "", event, "it is not a Gemini response piece")
        if head is not None:
            for key in _SAME:
                value = event.get(key)
                if value and head.get(key) and value != head[key]:
                    reject(FORMAT, index, key, value, f"the stream's first piece has {head[key]!r}")
        candidates = event.get("candidates")
        if candidates is None:
            candidates = []
        elif not isinstance(candidates, list):
            reject(FORMAT, index, "candidates", candidates, "it must be a list")
        ready = []
        for position, candidate in enumerate(candidates):
            ready.append(self._check(candidate, position, index))
        if head is None:
            head = self._head = {}
        for key, value in event.items():
            if value is not None and key != "candidates":
                # Usage and feedback are totals so far: the last one stands.
                head[key] = value
        for number, candidate, parts in ready:
            self._apply(number, candidate, parts)

    def _more_text(self, candidates: Any) -> str | None:
        """The text of a piece that only continues the open text part, the most frequent
        kind, checked in fewer steps than :meth:`_check` (None: another kind of piece)."""
        if type(candidates) is not list or len(candidates) != 1:
            return None
        candidate = candidates[0]
        if type(candidate) is not dict or not _QUICK_CANDIDATE.issuperset(candidate):
            return None
        content = candidate.get("content")
        if type(content) is not dict or content.get("role", "model") != "model":
            return None
        parts = content.get("parts")
        if type(parts) is not list or len(parts) != 1 or candidate.get("index", 0) != 0:
            return None
        part = parts[0]
        state = self._candidates.get(0)
        if type(part) is not dict or len(part) != 1 or state is None or state.texts is None:
            return None
        text = part.get("text")
        if type(text) is not str or state.finish is not None or state.parts[-1].get("thought"):
            return None
        return text

    def _check(
        self, candidate: Any, position: int, index: int
    ) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
        where = f"candidates[{position}]"
        if not isinstance(candidate, dict):
            reject(FORMAT, index, where, candidate, "a candidate is an object")
        candidate = _snake(candidate)
        number = candidate.get("index", 0)
        if type(number) is not int or number < 0:
            reject(FORMAT, index, f"{where}.index", number, "it must be an integer >= 0")
        content = candidate.get("content")
        if content is None:
            content = {}
        elif not isinstance(content, dict):
            reject(FORMAT, index, f"{where}.content", content, "it must be an object")
        content = _snake(content)
        parts = content.get("parts")
        if parts is None:
            parts = []
        elif not isinstance(parts, list):
            reject(FORMAT, index, f"{where}.content.parts", parts, "it must be a list")
        checked = []
        for place, part in enumerate(parts):
            if not isinstance(part, dict):
                reject(FORMAT, index, f"{where}.content.parts[{place}]", part, "it is an object")
            part = _snake(part)
            text = part.get("text")
            if text is not None and type(text) is not str:
                here = f"{where}.content.parts[{place}].text"
                reject(FORMAT, index, here, text, "it must be text")
            call = part.get("function_call")
            if call is not None:
                if not isinstance(call, dict):
                    here = f"{where}.content.parts[{place}].function_call"
                    reject(FORMAT, index, here, call, "it must be an object")
                part = {
                    **part,
                    "function_call": _check_call(
                        call, index, f"{where}.content.parts[{place}].function_call"
                    ),
                }
            checked.append(part)
        finish = candidate.get("finish_reason")
        if finish is not None and type(finish) is not str:
            reject(FORMAT, index, f"{where}.finish_reason", finish, "it must be text")
        # Gemini may send the finish reason before the last piece, or on every piece:
        # later parts still count, and the last reason stands.
        if content.get("role") not in (None, "model"):
            reject(FORMAT, index, f"{where}.content.role", content["role"], "a reply is 'model'")
        return number, candidate, checked

    def _apply(self, number: int, candidate: dict[str, Any], parts: list[dict[str, Any]]) -> None:
        state = self._candidates.get(number)
        if state is None:
            state = self._candidates[number] = _Candidate()
        for part in parts:
            call = part.get("function_call")
            if (
                call is not None
                and (state.call is not None or _STREAMED.intersection(call))
                and self._call_piece(state, part, call)
            ):
                continue
            text = part.get("text")
            texts = state.texts
            if (
                text is not None
                and texts is not None
                and bool(part.get("thought")) == bool(state.parts[-1].get("thought"))
                and _TEXT_KEYS.issuperset(part)
            ):
                texts.append(text)
                signature = part.get("thought_signature")
                if signature is not None:
                    state.parts[-1] = {
                        **state.parts[-1],
                        "text": "".join(texts),
                        "thought_signature": signature,
                    }
                    state.texts = None
                continue
            if texts is not None and len(texts) > 1:
                state.parts[-1] = {**state.parts[-1], "text": "".join(texts)}
            state.parts.append(part)
            state.texts = None
            if (
                type(text) is str
                and "thought_signature" not in part
                and _TEXT_KEYS.issuperset(part)
            ):
                state.texts = [text]
        for key, value in candidate.items():
            if value is None or key == "content" or key == "index":
                continue
            if key == "finish_reason":
                state.finish = value
            elif key == "citation_metadata":
                # Each piece cites the sources of its own text: together they cite all.
                merge_into(state.extra, {key: value})
            else:
                state.extra[key] = value

    def _built(self) -> Msg | None:
        # The most frequent partial message, text and thoughts alone, made without
        # converting the whole response at each piece.
        candidates = self._candidates
        state = candidates.get(0)
        if len(candidates) != 1 or state is None or self._head is None or state.call:
            return None
        content: list[dict[str, Any]] = []
        kept: dict[str, Any] = {}
        parts = state.parts
        last = len(parts) - 1
        for number, part in enumerate(parts):
            if not _PLAIN.issuperset(part) or type(part.get("text")) is not str:
                return None
            text = part["text"]
            if number == last and state.texts is not None and len(state.texts) > 1:
                text = "".join(state.texts)
                # Joined once: the next read joins two pieces.
                state.texts[:] = [text]
                parts[last] = {**part, "text": text}
            signature = part.get("thought_signature")
            if signature is not None:
                if type(signature) is not str or not signature:
                    return None
                kept[str(number)] = {"thought_signature": _standard(signature)}
            if part.get("thought"):
                content.append({"type": "thinking", "thinking": text})
            else:
                content.append({"type": "text", "text": text})
        usage = _token_usage(self._head.get("usage_metadata"))
        if usage is None:
            return None
        envelope = self._envelope
        made = None
        if envelope is None:
            # Converted without parts or usage: the model, stop reason and id.
            response = {k: v for k, v in self._head.items() if k != "usage_metadata"}
            response["candidates"] = [{**state.dump(0), "content": {"role": "model", "parts": []}}]
            made = from_gemini(response).messages[0]
            envelope = self._envelope = (made.to_dict()["metadata"], made.invocation_id)
        metadata = envelope[0]
        if usage:
            metadata = {**(metadata or {}), "token_usage": usage}
        if kept:
            metadata = {**(metadata or {}), STATE_KEY: {STATE_FORMAT: kept}}
        return trusted_msg(content, metadata, envelope[1], made)

    @staticmethod
    def _call_piece(state: _Candidate, part: dict[str, Any], call: dict[str, Any]) -> bool:
        """Take one piece of a function call streamed in pieces; False when *call* is a
        whole call of its own."""
        open_call = state.call
        pieces = call.get("partial_args") or ()
        more = bool(call.get("will_continue"))
        if open_call is None:
            if state.texts is not None and len(state.texts) > 1:
                state.parts[-1] = {**state.parts[-1], "text": "".join(state.texts)}
            state.texts = None
            whole = {key: value for key, value in call.items() if key not in _STREAMED}
            whole["args"] = dict(whole.get("args") or {})
            state.parts.append({**part, "function_call": whole})
            open_call = whole
        elif call.get("name") and call["name"] != open_call.get("name") and not pieces and not more:
            state.call = None
            return False  # a new whole call after the streamed one
        for piece in pieces:
            _set_path(open_call["args"], piece)
        state.call = open_call if more else None
        return True

    def _ended(self) -> bool:
        candidates = self._candidates
        return bool(candidates) and all(state.finish is not None for state in candidates.values())

    def _snapshot(self) -> dict[str, Any] | None:
        head = self._head
        if head is None:
            return None
        candidates = self._candidates
        response = dict(head)
        response["candidates"] = [candidates[number].dump(number) for number in sorted(candidates)]
        return response

    def _convert(self, response: dict[str, Any], strict: bool) -> Parsed:
        if not response["candidates"]:
            response["candidates"] = [{"content": {"role": "model", "parts": []}}]
        return from_gemini(response, strict=strict)
