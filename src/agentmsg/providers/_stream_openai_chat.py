"""OpenAI Chat Completions: a streamed reply's chunks back into one ``ChatCompletion``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._stream import Stream, merge_into, reject, trusted_msg
from .openai_chat import from_openai_chat

if TYPE_CHECKING:
    from .._message import Msg
    from ._common import Parsed

__all__ = ["OpenAIChatStream"]

FORMAT = "Chat Completions"
# Top-level fields of a chunk that are not the response's: random padding, the chunk's type.
_NOT_KEPT = frozenset({"choices", "usage", "object", "obfuscation"})
_SAME = ("id", "model")
_QUICK_KEYS = frozenset({"choices", "usage", "object", "obfuscation"})
# A chunk has one of these at least.
_MARKS = frozenset({"choices", "usage", "object", "id"})
# The log-probability lists a chunk may extend the quick way.
_LOGPROB_KEYS = frozenset({"content", "refusal"})
# The fields of a message's audio that are replaced, not appended to, by a later piece.
_AUDIO_TEXT = frozenset({"data", "transcript"})


def _index(fragment: dict[str, Any], ids: list[str]) -> Any:
    """The number of the call a tool-call fragment is for: its ``index``; or, from a
    server that sends none (Mistral), the call with its id, a new call when the id is
    new, else the last call."""
    number = fragment.get("index")
    if number is not None:
        return number
    call_id = fragment.get("id")
    if type(call_id) is str and call_id:
        return ids.index(call_id) if call_id in ids else len(ids)
    return len(ids) - 1 if ids else None


class _Choice:
    """What one choice of the reply has received so far."""

    __slots__ = ("calls", "content", "extra", "finish", "logprobs", "refusal", "role", "texts")

    def __init__(self) -> None:
        self.role = "assistant"
        self.content: list[str] | None = None
        self.refusal: list[str] | None = None
        # Per tool call, by index: [id, type, name, argument pieces, other fields of the
        # call, other fields of its function].
        self.calls: list[list[Any]] = []
        self.finish: str | None = None
        self.logprobs: dict[str, Any] | None = None
        self.extra: dict[str, Any] = {}
        self.texts: dict[str, list[str]] = {}

    def dump(self, index: int) -> dict[str, Any]:
        message: dict[str, Any] = {"role": self.role}
        content = "".join(self.content) if self.content is not None else None
        refusal = "".join(self.refusal) if self.refusal is not None else None
        # The API's first delta opens the content with "": an unstreamed reply that
        # holds tool calls or a refusal has no content at all.
        if content == "" and (self.calls or refusal):
            content = None
        if refusal == "" and (self.calls or content):
            refusal = None
        if content is not None:
            message["content"] = content
        if refusal is not None:
            message["refusal"] = refusal
        if self.calls:
            message["tool_calls"] = [
                {
                    **extra,
                    "id": call_id,
                    "type": kind,
                    "function": {**function, "name": name, "arguments": "".join(pieces)},
                }
                for call_id, kind, name, pieces, extra, function in self.calls
            ]
        message.update(self.extra)
        for key, pieces in self.texts.items():
            message[key] = "".join(pieces)
        choice: dict[str, Any] = {"index": index, "message": message}
        if self.finish is not None:
            choice["finish_reason"] = self.finish
        if self.logprobs is not None:
            choice["logprobs"] = self.logprobs
        return choice


class OpenAIChatStream(Stream):
    """A reply streamed by OpenAI Chat Completions, assembled chunk by chunk.

    Feed it the ``ChatCompletionChunk`` objects of ``client.chat.completions.create(...,
    stream=True)`` (or their JSON as dicts) with :meth:`add`; :attr:`msg` is the reply so
    far, and :meth:`result`, once the stream has ended, gives what
    :func:`~agentmsg.from_openai_chat` gives for the unstreamed ``ChatCompletion``.

    The text, refusal and tool-call argument pieces are joined; a tool call's id and
    name come in its first fragment (by ``index``); usage comes in the last chunk when
    the request asks for it (``stream_options={"include_usage": True}``). The stream has
    ended when every choice has a finish reason; a usage chunk may still follow.

    Chunks carry no sequence number, so a repeated text piece cannot be told from a
    real one. A chunk without choices (usage, audio streams) is taken, and a usage chunk
    without choices ends the reply even when no finish reason came. Rejected are: an
    event of another API, a chunk of another response (another ``id`` or ``model``), a
    value of the wrong type, content after the usage chunk, a tool-call fragment whose
    call was not started by a first fragment with an id and a name, or that names
    another id, and a chunk that holds an ``error`` (its message is in the error's).

    Example:
        >>> from agentmsg import OpenAIChatStream
        >>> stream = OpenAIChatStream()
        >>> head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
        ...         "model": "gpt-4.1"}
        >>> for delta, finish in [({"role": "assistant", "content": "Sun"}, None),
        ...                       ({"content": "ny."}, "stop")]:
        ...     choice = {"index": 0, "delta": delta, "finish_reason": finish}
        ...     stream.add({**head, "choices": [choice]})
        ...     print(repr(stream.msg.content))
        'Sun'
        'Sunny.'
        >>> stream.result().messages[0].metadata["stop_reason"]
        'stop'
    """

    __slots__ = ("_choices", "_closed", "_envelope", "_finished", "_head", "_keys", "_usage")
    _FORMAT = FORMAT
    _LAST = "a chunk with a finish reason"

    def __init__(self) -> None:
        super().__init__()
        self._head: dict[str, Any] | None = None
        self._choices: dict[int, _Choice] = {}
        self._usage: dict[str, Any] | None = None
        self._finished = 0
        self._closed = False
        self._keys: frozenset[str] = frozenset()
        # The partial message's metadata and id while the reply is text alone; made
        # again after any chunk that does more than add text.
        self._envelope: tuple[dict[str, Any] | None, str | None] | None = None

    def _take(self, event: dict[str, Any], index: int) -> None:
        head = self._head
        # Most chunks bring one more piece of text: take it with the fewest checks
        # that still catch a chunk of another stream or out of its place.
        if head is not None and self._keys.issuperset(event):
            choices = event.get("choices")
            if type(choices) is list and len(choices) == 1:
                choice = choices[0]
                delta = choice.get("delta") if type(choice) is dict else None
                number = choice.get("index", 0) if type(choice) is dict else None
                if (
                    type(delta) is dict
                    and type(number) is int
                    and len(delta) == 1
                    and choice.get("finish_reason") is None
                    and event.get("usage") is None
                    and event.get("id") == head.get("id")
                    and event.get("model") == head.get("model")
                    and event.get("object") == "chat.completion.chunk"
                ):
                    text = delta.get("content")
                    state = self._choices.get(number)
                    logprobs = choice.get("logprobs")
                    if logprobs and not (
                        type(logprobs) is dict
                        and state is not None
                        and state.logprobs is not None
                        and _LOGPROB_KEYS.issuperset(logprobs)
                        and all(
                            type(value) is list and type(state.logprobs.get(key)) is list
                            for key, value in logprobs.items()
                            if value is not None
                        )
                    ):
                        state = None  # the slow way checks and merges them
                    if state is not None and state.finish is None:
                        if text is None and not logprobs:
                            # The next piece of another text field (``reasoning``).
                            ((key, piece),) = delta.items()
                            pieces = state.texts.get(key)
                            if pieces is not None and type(piece) is str:
                                pieces.append(piece)
                                return
                        if type(text) is str and state.content is not None:
                            state.content.append(text)
                            if logprobs:
                                # Each chunk's tokens extend the lists: no copy per chunk.
                                merged = state.logprobs
                                for key, value in logprobs.items():
                                    if value is not None:
                                        merged[key].extend(value)  # type: ignore[index]
                            return
                        # The next piece of a started tool call's arguments.
                        fragments = delta.get("tool_calls")
                        if type(fragments) is list and len(fragments) == 1:
                            fragment = fragments[0]
                            function = fragment.get("function") if type(fragment) is dict else None
                            call = fragment.get("index") if type(function) is dict else None
                            if (
                                type(call) is int
                                and 0 <= call < len(state.calls)
                                and len(fragment) == 2
                                and len(function) == 1  # type: ignore[arg-type]
                                and type(function.get("arguments")) is str  # type: ignore[union-attr]
                            ):
                                state.calls[call][3].append(function["arguments"])  # type: ignore[index]
                                return
        self._envelope = None
        self._refuse_foreign(event, index)
        error = event.get("error")
        if error is not None:
            message = error.get("message") if isinstance(error, dict) else error
            reject(FORMAT, index, "error", message, "the API ended the stream with an error")
        if _MARKS.isdisjoint(event):
            reject(FORMAT, index, "", event, "it is not a Chat Completions chunk")
        kind = event.get("object")
        if kind is not None and kind != "chat.completion.chunk" and kind != "":
            reject(FORMAT, index, "object", kind, "a stream holds 'chat.completion.chunk' objects")
        if head is not None:
            for key in _SAME:
                value = event.get(key)
                if not value or not head.get(key) or value == head[key]:
                    continue
                reject(FORMAT, index, key, value, f"the stream's first chunk has {head[key]!r}")
            if self._closed and event.get("choices"):
                # After the usage chunk only fields of the whole reply come (moderation).
                reject(FORMAT, index, "", event, "the reply ended with its usage chunk")
        choices = event.get("choices")
        if choices is None:
            choices = ()
        elif not isinstance(choices, list):
            reject(FORMAT, index, "choices", choices, "it must be a list")
        usage = event.get("usage")
        if usage is not None and not isinstance(usage, dict):
            reject(FORMAT, index, "usage", usage, "it must be an object")
        # Check every choice first, so that a rejected chunk changes nothing.
        for position, choice in enumerate(choices):
            self._check(choice, position, index)
        if head is None:
            head = self._head = {}
        for key, value in event.items():
            if value is not None and key not in _NOT_KEPT and (value != "" or key not in head):
                if key in _SAME and key in head and head[key]:
                    continue  # the first chunk's id and model stand
                head[key] = value
        # The keys a text chunk may have for the quick way: those seen with a value.
        self._keys = frozenset(head) | _QUICK_KEYS
        for choice in choices:
            self._apply(choice)
        if usage is not None:
            self._usage = usage
            if not choices:
                # The usage chunk comes last: audio streams may send no finish reason.
                self._closed = True

    def _check(self, choice: Any, position: int, index: int) -> None:
        where = f"choices[{position}]"
        if not isinstance(choice, dict):
            reject(FORMAT, index, where, choice, "a choice is an object")
        number = choice.get("index", 0)
        if type(number) is not int or number < 0:
            reject(FORMAT, index, f"{where}.index", number, "it must be an integer >= 0")
        state = self._choices.get(number)
        delta = choice.get("delta")
        if delta is None:
            delta = {}
        elif not isinstance(delta, dict):
            reject(FORMAT, index, f"{where}.delta", delta, "a delta is an object")
        # A finished choice may still get pieces: some servers repeat the finish reason
        # on every chunk, or send a last one with empty fields; the last reason stands.
        finish = choice.get("finish_reason")
        if finish is not None and type(finish) is not str:
            reject(FORMAT, index, f"{where}.finish_reason", finish, "it must be text")
        for key in ("content", "refusal", "role"):
            value = delta.get(key)
            if value is not None and type(value) is not str:
                reject(FORMAT, index, f"{where}.delta.{key}", value, "it must be text")
        audio = delta.get("audio")
        if audio is not None and not isinstance(audio, dict):
            reject(FORMAT, index, f"{where}.delta.audio", audio, "it must be an object")
        logprobs = choice.get("logprobs")
        if logprobs is not None:
            if not isinstance(logprobs, dict):
                reject(FORMAT, index, f"{where}.logprobs", logprobs, "it must be an object")
            for key, value in logprobs.items():
                if value is not None and not isinstance(value, list):
                    reject(FORMAT, index, f"{where}.logprobs.{key}", value, "it must be a list")
        calls = delta.get("tool_calls")
        if calls is None:
            return
        if not isinstance(calls, list):
            reject(FORMAT, index, f"{where}.delta.tool_calls", calls, "it must be a list")
        started = len(state.calls) if state is not None else 0
        ids = [known[0] for known in state.calls] if state is not None else []
        for place, fragment in enumerate(calls):
            here = f"{where}.delta.tool_calls[{place}]"
            if not isinstance(fragment, dict):
                reject(FORMAT, index, here, fragment, "a tool-call fragment is an object")
            call = _index(fragment, ids)
            if type(call) is not int or call < 0 or call > started:
                why = (
                    f"tool call {started} is the next one: a fragment is missing or out of order"
                    if type(call) is int
                    else "it must be an integer >= 0"
                )
                reject(FORMAT, index, f"{here}.index", call, why)
            function = fragment.get("function")
            if function is None:
                function = {}
            elif not isinstance(function, dict):
                reject(FORMAT, index, f"{here}.function", function, "it must be an object")
            call_id, name = fragment.get("id"), function.get("name")
            arguments = function.get("arguments")
            if arguments is not None and type(arguments) is not str:
                reject(FORMAT, index, f"{here}.function.arguments", arguments, "it must be text")
            kind = fragment.get("type")
            if kind is not None and type(kind) is not str:
                reject(FORMAT, index, f"{here}.type", kind, "it must be text")
            if call == started:
                if type(call_id) is not str or not call_id:
                    reject(
                        FORMAT,
                        index,
                        f"{here}.id",
                        call_id,
                        f"the first fragment of tool call {call} has its id",
                    )
                if type(name) is not str or not name:
                    reject(
                        FORMAT,
                        index,
                        f"{here}.function.name",
                        name,
                        f"the first fragment of tool call {call} names its function",
                    )
                started += 1
                ids.append(call_id)
                continue
            known = state.calls[call] if state is not None else None
            if known is not None and call_id and call_id != known[0]:
                reject(FORMAT, index, f"{here}.id", call_id, f"tool call {call} is {known[0]!r}")
            if known is not None and name and name != known[2]:
                reject(
                    FORMAT,
                    index,
                    f"{here}.function.name",
                    name,
                    f"tool call {call} calls {known[2]!r}",
                )

    def _apply(self, choice: dict[str, Any]) -> None:
        number = choice.get("index", 0)
        state = self._choices.get(number)
        if state is None:
            state = self._choices[number] = _Choice()
        delta = choice.get("delta")
        if delta:
            for key, value in delta.items():
                if value is None:
                    continue
                if key == "content":
                    if state.content is None:
                        state.content = [value]
                    else:
                        state.content.append(value)
                elif key == "tool_calls":
                    self._calls(state, value)
                elif key == "refusal":
                    if state.refusal is None:
                        state.refusal = [value]
                    else:
                        state.refusal.append(value)
                elif key == "role":
                    state.role = value
                elif key == "audio":
                    # The id comes with every piece: only the audio and its words grow.
                    audio = state.extra.get("audio")
                    if audio is None:
                        audio = state.extra["audio"] = {}
                    for field, piece in value.items():
                        old = audio.get(field)
                        if field in _AUDIO_TEXT and type(piece) is str and type(old) is str:
                            audio[field] = old + piece
                        elif piece is not None:
                            audio[field] = piece
                elif type(value) is str:
                    # Text of a field agentmsg has no place for (``reasoning``): its
                    # pieces kept, joined when read, as the content's are.
                    texts = state.texts.get(key)
                    if texts is None:
                        if key in state.extra:
                            merge_into(state.extra, {key: value})
                            continue
                        texts = state.texts[key] = []
                    texts.append(value)
                else:
                    merge_into(state.extra, {key: value})
        logprobs = choice.get("logprobs")
        if logprobs:
            if state.logprobs is None:
                state.logprobs = {}
            merge_into(state.logprobs, logprobs)
        finish = choice.get("finish_reason")
        if finish is not None:
            if state.finish is None:
                self._finished += 1
            state.finish = finish

    @staticmethod
    def _calls(state: _Choice, fragments: list[dict[str, Any]]) -> None:
        calls = state.calls
        for fragment in fragments:
            function = fragment.get("function") or {}
            arguments = function.get("arguments")
            number = _index(fragment, [call[0] for call in calls])
            if number == len(calls):
                extra = {
                    key: value
                    for key, value in fragment.items()
                    if value is not None and key not in ("index", "id", "type", "function")
                }
                others = {
                    key: value
                    for key, value in function.items()
                    if value is not None and key not in ("name", "arguments")
                }
                pieces = [] if arguments is None else [arguments]
                kind = fragment.get("type") or "function"
                calls.append([fragment["id"], kind, function["name"], pieces, extra, others])
            elif arguments:
                calls[number][3].append(arguments)

    def _built(self) -> Msg | None:
        # The most frequent partial message, a reply of text alone, made without
        # converting the whole response at each chunk.
        choices = self._choices
        state = choices.get(0)
        if len(choices) != 1 or state is None or self._head is None:
            return None
        pieces = state.content
        if pieces is None or state.calls or state.refusal or state.role != "assistant":
            return None
        if state.extra.get("audio") is not None:
            return None
        text = "".join(pieces)
        if not text:
            return None
        if len(pieces) > 1:
            pieces[:] = [text]  # joined once: the next read joins two pieces
        envelope = self._envelope
        made = None
        if envelope is None:
            snapshot = self._snapshot()
            assert snapshot is not None  # the head is there
            choice = {"index": 0, "message": {"role": "assistant", "content": "-"}}
            if state.finish is not None:
                choice["finish_reason"] = state.finish
            made = from_openai_chat({**snapshot, "choices": [choice]}).messages[0]
            envelope = self._envelope = (made.to_dict()["metadata"], made.invocation_id)
        return trusted_msg(text, envelope[0], envelope[1], made)

    def _ended(self) -> bool:
        if self._closed and self._head is not None:
            return True
        return bool(self._choices) and self._finished == len(self._choices)

    def _snapshot(self) -> dict[str, Any] | None:
        head = self._head
        if head is None:
            return None
        response: dict[str, Any] = dict(head)
        if not response.get("id"):
            response.pop("id", None)  # Azure's first chunk: an empty id, no reply yet
        if not response.get("model"):
            response.pop("model", None)
        response["object"] = "chat.completion"
        response["choices"] = [
            self._choices[number].dump(number) for number in sorted(self._choices)
        ]
        if self._usage is not None:
            response["usage"] = self._usage
        return response

    def _convert(self, response: dict[str, Any], strict: bool) -> Parsed:
        if not response["choices"]:
            response["choices"] = [{"index": 0, "message": {"role": "assistant"}}]
        return from_openai_chat(response, strict=strict)
