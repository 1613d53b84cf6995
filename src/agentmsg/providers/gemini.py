"""Google Gemini: ``contents`` and ``system_instruction`` both ways, and a streamed
reply's ``GenerateContentResponse`` pieces back into one (:class:`GeminiStream`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Sequence
from operator import itemgetter
from typing import Any

from .._blocks import MEDIA_KINDS
from .._errors import MessageError
from .._message import Msg
from .._validate import show
from ._common import (
    DEFAULT_NAMES,
    STATE_KEY,
    CallIds,
    Conversion,
    Pairing,
    Parsed,
    Reader,
    Writer,
    duplicate_why,
    media_type_of_url,
)
from ._stream import (
    _BIG,
    Stream,
    check_value,
    clean_text,
    joined,
    merge_into,
    reject,
    trusted_msg,
)

__all__ = ["GeminiStream", "from_gemini", "to_gemini"]

FORMAT = "Gemini"
STATE_FORMAT = "gemini"
_URLSAFE = str.maketrans("-_", "+/")


# -- to ----------------------------------------------------------------------------------


def to_gemini(messages: Any, *, strict: bool = False) -> Conversion:
    """Convert a conversation to the ``contents`` and ``system_instruction`` of a Gemini
    ``generateContent`` request.

    {writer args}

    Returns:
        A :class:`~agentmsg.Conversion` whose payload holds ``contents``, and
        ``system_instruction`` when there is a system message, with what could not be
        carried as it was. The keys are the API's snake_case names, which the REST API
        and the ``google-genai`` types accept.

    {writer raises}

    The text of the system messages becomes the system instruction; assistant messages
    are ``model`` turns. Thinking blocks are sent as thought parts, tool calls as
    ``function_call`` parts and tool results as ``function_response`` parts, whose
    ``response`` is ``{"output": ...}`` (any JSON value) and whose images travel as the
    response's parts. Gemini has no sender names. See :ref:`provider-formats`.

    Example:
        >>> from agentmsg import Msg, to_gemini
        >>> to_gemini([Msg("user", "Hi", "user")]).payload
        {'contents': [{'role': 'user', 'parts': [{'text': 'Hi'}]}]}
    """
    writer = _Writer(FORMAT, strict)
    writer.start(messages)
    texts, _ = writer.system_prompt()
    for index, msg in enumerate(writer.conversation):
        writer.message(msg, index)
    writer.end()
    payload: dict[str, Any] = {"contents": writer.out}
    if texts:
        payload["system_instruction"] = {"parts": [{"text": text} for text in texts]}
    return Conversion(payload, tuple(writer.losses))


#: The rules of :ref:`rules-gemini` that the writer enforces, as Loss texts.
UNANSWERED = (
    "Gemini wants a function response for each function call of a model turn, in the "
    "turn right after it"
)
ORPHAN = (
    "Gemini takes a function response only in the turn right after the model turn with "
    "its function call"
)
ONE_TURN = (
    "Gemini wants the responses to one model turn's calls in one turn, as many as there "
    "were calls; they come back as one message"
)
CALL_AFTER = (
    "Gemini wants a turn with function calls right after a user turn or a turn of "
    "function responses; they come back as one message"
)
ALTERNATE = (
    "Gemini wants user and model turns to alternate; consecutive turns of one role come back "
    "as one message"
)
FIRST_USER = "Gemini wants the contents to start with a user turn"
DUPLICATE = duplicate_why(FORMAT)
REPEATED_ID = (
    "Gemini finds the call a function response answers by its id, so the calls of one "
    "model turn need ids of their own; the call's response follows the new id, and they "
    "come back with it"
)
EMPTY_PART = "Gemini refuses empty text parts"
EMPTY_TURN = "Gemini refuses a turn without parts"
NO_SIGNATURE = (
    "a Gemini thought signature is bytes the model gave, and an empty one holds none; "
    "from_gemini reads none from it"
)


class _Writer(Writer):
    """The Gemini contents of one conversation, and the report of what they cost.

    ``pairing`` knows which function calls of the last model turn wait for a response;
    ``model_at`` is where that turn is in ``out`` and ``answers_at`` where the turn of its
    responses is (-1 before there is one).
    """

    __slots__ = ("answers_at", "model_at", "pairing")

    def __init__(self, format: str, strict: object) -> None:
        Writer.__init__(self, format, strict)
        self.pairing = Pairing(CallIds(REPEATED_ID), per_turn=True)
        self.model_at = -1
        self.answers_at = -1

    def message(self, msg: Any, index: int) -> None:
        role = msg.role
        content: Any = msg.content
        if isinstance(content, str):
            if role != "system":
                self.name(msg, index, DEFAULT_NAMES[role])
                if content:
                    self.turn(role, [{"text": content}], index)
                else:
                    self.change(f"messages[{index}]", "empty message", "not sent", EMPTY_TURN)
            return
        if any(block["type"] == "tool_result" for block in content):
            self.responses(msg, content, index)
            if self.is_results(msg):
                return
        if role == "system":
            return
        self.name(msg, index, DEFAULT_NAMES[role])
        parts: list[dict[str, Any]] = []
        calls: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
        state = self.kept(msg, STATE_FORMAT) if role == "assistant" else {}
        for position, block in enumerate(content):
            kind = block["type"]
            if kind == "text" and len(block) == 2 and block["text"] and not state:
                parts.append({"text": block["text"]})  # the common case
                continue
            if kind == "tool_result":
                continue
            path = f"messages[{index}].content[{position}]"
            part = _BLOCK_PARTS[kind](self, block, role, path)
            if part is None:
                continue
            signature = block.get("thought_signature")
            if signature is None and state:
                signature = self.field(state, position, "thought_signature")
            if signature is not None:
                if role != "assistant":
                    self.signature(block, path, model_turn=False)
                    signature = None
                elif not signature:
                    where = f"{path}.thought_signature"
                    self.drop(where, "empty thought signature", NO_SIGNATURE, "")
                    signature = None
                else:
                    part["thought_signature"] = signature
            if signature is None and part.get("text") == "":
                self.change(path, "empty text block", "not sent", EMPTY_PART)
                continue
            if kind == "tool_use":
                calls.append((position, block, part))
            parts.append(part)
        if parts:
            self.turn(role, parts, index, calls)
        elif not content:
            self.change(f"messages[{index}]", "empty message", "not sent", EMPTY_TURN)

    def turn(
        self,
        role: str,
        parts: list[dict[str, Any]],
        index: int,
        calls: Sequence[tuple[int, dict[str, Any], dict[str, Any]]] = (),
    ) -> None:
        """Append a user or model turn, after settling the calls it leaves unanswered; a
        turn of the role of the turn before it is merged with that one."""
        self.settle()
        out = self.out
        ours = "user" if role == "user" else "model"
        if ours == "model" and not out and self.user_after(index):
            what = "assistant message before any user message"
            self.drop(f"messages[{index}]", what, FIRST_USER, self.conversation[index].content)
            return
        if out and out[-1]["role"] == ours:
            why = CALL_AFTER if calls else ALTERNATE
            what = f"{ours} turn right after another"
            self.change(f"messages[{index}]", what, "merged with it", why)
            out[-1]["parts"] = out[-1]["parts"] + parts
        else:
            out.append({"role": ours, "parts": parts})
        if ours == "user":
            return
        self.model_at = len(out) - 1
        self.answers_at = -1
        if calls:
            self.pairing.begin(index, (block["id"] for _, block, _ in calls))
        for position, block, part in calls:
            part["function_call"]["id"] = self.pairing.call(self, block, index, position)

    def user_after(self, index: int) -> bool:
        """Whether a user message (not tool results) comes after message *index*: then the
        request is a conversation, which must start with a user turn; model turns alone
        are a piece of one, sent as they are for the caller to place."""
        return any(
            msg.role == "user" and not self.is_results(msg)
            for msg in self.conversation[index + 1 :]
        )

    # -- the parts of the blocks of a user or model turn (see _BLOCK_PARTS) -------------

    def text(self, block: dict[str, Any], role: str, path: str) -> Any:
        return {"text": block["text"]}

    def thinking(self, block: dict[str, Any], role: str, path: str) -> Any:
        if role != "assistant":
            why = "Gemini takes thoughts from the model only"
            self.drop(path, "thinking block in a user message", why, block)
            return None
        self.signature(block, path)
        return {"text": block["thinking"], "thought": True}

    def tool_use(self, block: dict[str, Any], role: str, path: str) -> Any:
        if role != "assistant":
            why = "Gemini function calls come from the model only"
            self.drop(path, "tool call in a user message", why, block)
            return None
        if "raw_input" in block:
            self.raw_input(block, path)
        return {"function_call": {"id": block["id"], "name": block["name"], "args": block["input"]}}

    def part(self, block: dict[str, Any], role: str, path: str) -> Any:
        kind = block["type"]
        media = self.media(block, path)
        if media is None:
            return None
        if media.form == "base64":
            return {"inline_data": {"mime_type": media.media_type, "data": media.data}}
        if media.form == "data_url":
            what = f"{kind} in a data: URL that is not base64"
            self.drop(path, what, "Gemini takes base64 data or a file URI", block)
            return None
        media_type = media_type_of_url(media.data)
        if media_type is None or not media_type.startswith(kind):
            why = (
                "Gemini needs the media type of a file URI, and agentmsg reads it from the "
                "extension"
            )
            self.drop(path, f"{kind} URL without a known file extension", why, block)
            return None
        return {"file_data": {"mime_type": media_type, "file_uri": media.data}}

    # -- function responses and the pairing of calls -----------------------------------

    def responses(self, msg: Any, content: Any, index: int) -> None:
        parts = [
            {"function_response": self.response(block, path, sent)}
            for path, sent, block in self.pairing.results(self, msg, content, index, ORPHAN)
        ]
        if not parts:
            return
        if self.answers_at >= 0 and self.answers_at == len(self.out) - 1:
            what = "tool results right after other tool results"
            self.change(f"messages[{index}]", what, "merged with them", ONE_TURN)
            self.out[-1]["parts"].extend(parts)
            return
        self.out.append({"role": "user", "parts": parts})
        self.answers_at = len(self.out) - 1

    def response(self, block: dict[str, Any], path: str, sent: str) -> dict[str, Any]:
        output = block["output"]
        name = self.pairing.names[sent]
        why = (
            "a Gemini function response names the function of its call, and the call "
            "this result answers names another"
        )
        self.tool_name(block, path, name, why)
        response: dict[str, Any] = {"id": sent, "name": name}
        if not self.is_blocks(output):
            # {"error": ...} (with or without "output") is the API's own shape: kept as it
            # is, so an error goes back as an error
            if isinstance(output, dict) and "error" in output and set(output) <= _RESPONSE_KEYS:
                response["response"] = output
            else:
                response["response"] = {"output": output}
            return response
        texts: list[Any] = []
        media = []
        for item_index, item in enumerate(output):
            item_path = f"{path}.output[{item_index}]"
            if item["type"] == "text":
                if len(texts) < item_index:  # a media block came before it
                    thing = "text block after a media block in a tool result"
                    rule = "Gemini keeps a function response's images apart from its output"
                    self.change(item_path, thing, "moved before the images", rule)
                texts.append({"type": "text", "text": item["text"]})
            elif item["type"] != "image":
                what = f"{item['type']} block in a tool result"
                self.drop(item_path, what, "Gemini function responses carry images only", item)
            else:
                part = self.part(item, "user", item_path)
                if part is not None:
                    media.append(part)
        response["response"] = {"output": texts}
        if media:
            response["parts"] = media
        return response

    def settle(self) -> None:
        """Drop the calls of the last model turn that no response answered in time."""
        self.unanswered(self.pairing, self.model_at, "parts", _call_id, UNANSWERED)

    def end(self) -> None:
        """Settle the calls of the last model turn, unless the conversation ends with it."""
        if len(self.out) - 1 != self.model_at:
            self.settle()


def _call_id(part: dict[str, Any]) -> str | None:
    return part["function_call"]["id"] if "function_call" in part else None


_RESPONSE_KEYS = frozenset({"output", "error"})
_BLOCK_PARTS = {
    "text": _Writer.text,
    "thinking": _Writer.thinking,
    "tool_use": _Writer.tool_use,
    "image": _Writer.part,
    "audio": _Writer.part,
    "video": _Writer.part,
}


# -- from --------------------------------------------------------------------------------

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_PART_KEYS = frozenset(
    {"text", "thought", "inline_data", "file_data", "function_call", "function_response"}
)


def _snake(data: dict[str, Any]) -> dict[str, Any]:
    """The keys of one REST object in snake_case (``inlineData`` -> ``inline_data``)."""
    if not any(any("A" <= char <= "Z" for char in key) for key in data):
        return data
    return {_CAMEL.sub("_", key).lower(): value for key, value in data.items()}


def from_gemini(data: Any, *, strict: bool = False) -> Parsed:
    """Read messages from Gemini data.

    Args:
        data: A request payload (a dict with ``contents`` and maybe
            ``system_instruction``), a list of contents, or a response: a
            ``GenerateContentResponse`` of the ``google-genai`` package or its JSON as a
            dict. Keys may be snake_case or the REST API's camelCase.
        strict: Raise instead of reporting something dropped.

    {reader returns}

    A response gives the first candidate's content. A function call without an id gets
    ``call_<name>``, and a function response without an id answers the oldest unanswered
    call of its name. A ``function_response`` whose ``response`` is ``{"output": ...}``
    gives that output back; any other response dict is the output itself. A part's
    thought signature goes to the message's metadata, under ``provider_state``, for
    :func:`to_gemini` to send back.
    """
    reader = _Reader(FORMAT, strict)
    data = reader.plain(data)
    turns = reader.turns
    if isinstance(data, dict):
        data = _snake(data)
    if isinstance(data, list):
        contents, base = data, "contents"
    elif isinstance(data, dict) and _blocked(data) is not None:
        feedback = _blocked(data) or {}
        reason = feedback.get("block_reason")
        said = feedback.get("block_reason_message")
        msg = (
            f"`prompt_feedback.block_reason` is {show(reason)}: Gemini blocked the prompt, "
            f"and the response holds no reply{f' ({show(said)})' if type(said) is str else ''}."
        )
        raise MessageError(msg, "prompt_feedback.block_reason")
    elif isinstance(data, dict) and "candidates" in data:
        candidates = reader.array(data["candidates"], "candidates")
        if not candidates:
            reader.refuse_empty("candidates")
        reader.envelope(data, candidates)
        candidate = _snake(reader.obj(candidates[0], "candidates[0]"))
        # A candidate stopped for safety has no content; a candidate's content is the
        # model's, whether it says so or not (Vertex AI's replies leave out the role).
        content = candidate.get("content")
        content = _snake(reader.obj({} if content is None else content, "candidates[0].content"))
        if "role" not in content:
            content = {"role": "model", **content}
        reader.content(content, "candidates[0].content")
        turns.flush("candidates[0].content")
        if not turns.messages:
            # A reply whose every part was dropped still brings its id, usage and reason.
            turns.add("assistant", [], "assistant", "candidates[0].content")
        return reader.parsed()
    elif isinstance(data, dict) and "contents" in data:
        system = data.get("system_instruction")
        if system is not None:
            system = _snake(reader.obj(system, "system_instruction"))
            blocks = reader.each(
                system.get("parts", []),
                "system_instruction.parts",
                lambda part, at: reader.part(_snake(reader.obj(part, at)), at, "system"),
            )
            turns.add("system", blocks, "system", "system_instruction")
        contents, base = reader.array(data["contents"], "contents"), "contents"
    else:
        shapes = "a request payload with `contents`, a list of contents or a response with "
        reader.refuse(data, shapes + "`candidates`")
    for index, content in enumerate(contents):
        path = f"{base}[{index}]"
        content = _snake(reader.obj(content, path))
        if content.get("error") is not None and "parts" not in content:
            # An array of streamed responses that the API ended with its error.
            reader.refuse(content, "")
        reader.content(content, path)
    turns.flush(base)
    return reader.parsed()


#: What a candidate holds that agentmsg has no place for, with how a loss names it.
_CANDIDATE_DROPPED = (
    ("citation_metadata", "citations"),
    ("grounding_metadata", "grounding sources"),
    ("logprobs_result", "log probabilities"),
    ("avg_logprobs", "average log probability"),
    ("finish_message", "finish message"),
    ("safety_ratings", "safety ratings"),
)
#: The finish reasons Vertex AI and the Gemini API number alike, by number.
_FINISH_NAMES = ("FINISH_REASON_UNSPECIFIED", "STOP", "MAX_TOKENS", "SAFETY", "RECITATION", "OTHER")
_USAGE = ("prompt_token_count", "candidates_token_count", "thoughts_token_count")


def _blocked(data: dict[str, Any]) -> dict[str, Any] | None:
    """The prompt feedback of a response whose prompt Gemini blocked (it has no
    candidates), in snake_case; None for any other data."""
    feedback = data.get("prompt_feedback")
    if not isinstance(feedback, dict) or data.get("candidates"):
        return None
    feedback = _snake(feedback)
    return feedback if feedback.get("block_reason") else None


class _Reader(Reader):
    """Reads Gemini requests and responses. ``unanswered`` holds the ids of the function
    calls read without a response, by name, for responses that name no id."""

    __slots__ = ("unanswered",)

    def __init__(self, format: str, strict: object) -> None:
        Reader.__init__(self, format, strict)
        self.unanswered: dict[str, list[str]] = {}

    def call_id(self, name: str, given: str | None) -> str:
        call_id = given
        if call_id is None:
            call_id = f"call_{name}"
            number = 1
            while call_id in self.names:
                number += 1
                call_id = f"call_{name}_{number}"
        self.names[call_id] = name
        self.unanswered.setdefault(name, []).append(call_id)
        return call_id

    def answer(self, name: str, given: str | None) -> str:
        waiting = self.unanswered.get(name, [])
        if given is not None:
            if given in waiting:
                waiting.remove(given)
            return given
        if waiting:
            return waiting.pop(0)
        return f"call_{name}"

    def finish_number(self, number: int) -> str | None:
        """The name of a finish reason sent as a number (``enum-encoding=int``, as Vertex
        AI's REST client asks), or None, reported, past the numbers the APIs share."""
        if 0 <= number < len(_FINISH_NAMES):
            return _FINISH_NAMES[number]
        why = "Vertex AI and the Gemini API number their finish reasons apart after 5"
        self.drop("candidates[0].finish_reason", "finish reason number", why, number)
        return None

    def envelope(self, data: dict[str, Any], candidates: list[Any]) -> None:
        metadata: dict[str, Any] = {}
        self.meta(metadata, "model", data, "model_version")
        candidate = _snake(self.obj(candidates[0], "candidates[0]"))
        finish = candidate.get("finish_reason")
        if type(finish) is int:
            finish = self.finish_number(finish)
        if finish is not None:
            metadata["stop_reason"] = self.text(finish, "candidates[0].finish_reason")
        for key, what in _CANDIDATE_DROPPED:
            if candidate.get(key):
                why = "agentmsg's messages have no place for them"
                self.drop(f"candidates[0].{key}", what, why, candidate[key])
        if data.get("prompt_feedback"):
            why = "agentmsg's messages have no place for it"
            self.drop("prompt_feedback", "prompt feedback", why, data["prompt_feedback"])
        for extra in range(1, len(candidates)):
            why = "a message holds one reply; convert the first candidate only"
            self.drop(f"candidates[{extra}]", "another candidate", why, candidates[extra])
        usage = data.get("usage_metadata")
        if usage is not None:
            usage = _snake(self.obj(usage, "usage_metadata"))
            keys = (*_USAGE, "total_token_count")
            prompt, candidate_count, thoughts, total = self.usage(usage, "usage_metadata", keys, 0)
            metadata["token_usage"] = {
                "prompt_tokens": prompt,
                "completion_tokens": candidate_count + thoughts,
                "total_tokens": total,
            }
        self.begin(data, metadata, "response_id")

    def content(self, content: dict[str, Any], path: str) -> None:
        turns = self.turns
        self.extra(content, "role parts", path)
        roles = ("user", "model", "function")
        role = self.choice(content.get("role", "user"), f"{path}.role", roles)
        ours = "assistant" if role == "model" else "user"
        parts = self.array(content.get("parts", []), f"{path}.parts")
        pending: list[Any] = []
        keep: dict[str, Any] = {}
        for position, part in enumerate(parts):
            part_path = f"{path}.parts[{position}]"
            part = _snake(self.obj(part, part_path))
            signature = part.get("thought_signature")
            if "function_response" in part:
                if pending:
                    turns.add(DEFAULT_NAMES[ours], pending, ours, path, (STATE_FORMAT, keep))
                    pending, keep = [], {}
                self.extra(part, _PART_KEYS, part_path)
                self.response(part["function_response"], f"{part_path}.function_response")
                continue
            block = self.part(part, part_path, ours)
            if block is not None:
                if not pending:
                    turns.flush(part_path)
                here = f"{part_path}.thought_signature"
                if signature == "":
                    self.drop(here, "empty thought signature", NO_SIGNATURE, "")
                elif signature is not None:
                    keep[str(len(pending))] = {"thought_signature": _base64(signature, here)}
                pending.append(block)
            elif signature not in (None, ""):
                what = "thought signature of a part agentmsg has no block for"
                why = "agentmsg keeps a signature with the block it belongs to"
                self.drop(f"{part_path}.thought_signature", what, why, signature)
        if pending or not parts:
            turns.add(DEFAULT_NAMES[ours], pending, ours, path, (STATE_FORMAT, keep))
        turns.flush(path)  # a content's function responses stay apart from the next one's

    def part(self, part: dict[str, Any], path: str, role: str) -> Any:
        self.extra(part, _PART_KEYS | {"thought_signature"}, path)
        if "text" in part:
            text = self.text(part["text"], f"{path}.text")
            if part.get("thought"):
                return {"type": "thinking", "thinking": text}
            return {"type": "text", "text": text}
        if "inline_data" in part or "file_data" in part:
            return self.media_block(part, path)
        if "function_call" in part:
            here = f"{path}.function_call"
            call, name, given = self.named(part["function_call"], here, "id name args")
            args = self.obj(call.get("args", {}), f"{here}.args")
            return {
                "type": "tool_use",
                "id": self.call_id(name, given),
                "name": name,
                "input": args,
            }
        self.unknown(path, "part", part)
        return None

    def media_block(self, part: dict[str, Any], path: str) -> Any:
        """The block of an ``inline_data`` or ``file_data`` part, or None (reported)."""
        if "inline_data" in part:
            path = f"{path}.inline_data"
            blob = _snake(self.obj(part["inline_data"], path))
            self.extra(blob, "mime_type data", path)
            media_type = self.text_at(blob, "mime_type", path)
            data = self.text_at(blob, "data", path).translate(_URLSAFE)
            kind = media_type.partition("/")[0]
            if kind not in MEDIA_KINDS:
                why = "agentmsg has image, audio and video blocks only"
                self.drop(path, f"{media_type} data", why, media_type)
                return None
            source = {"type": "base64", "media_type": media_type, "data": data}
            return {"type": kind, "source": source}
        path = f"{path}.file_data"
        file = _snake(self.obj(part["file_data"], path))
        self.extra(file, "mime_type file_uri", path)
        uri = self.text_at(file, "file_uri", path)
        media_type = file.get("mime_type") or media_type_of_url(uri) or ""
        kind = str(media_type).partition("/")[0]
        if kind not in MEDIA_KINDS or not uri.startswith(("https://", "http://")):
            why = "agentmsg's URL sources hold http and https URLs of images, audio and video"
            self.drop(path, "file", why, file)
            return None
        return {"type": kind, "source": {"type": "url", "url": uri}}

    def named(self, data: Any, path: str, keys: str) -> tuple[dict[str, Any], str, str | None]:
        """A function call or response in snake_case, checked (no key but *keys*), with its
        name and its id (or None)."""
        data = _snake(self.obj(data, path))
        self.extra(data, keys, path)
        name = self.ident_at(data, "name", path)
        given = data.get("id")
        return data, name, None if given is None else self.ident(given, f"{path}.id")

    def response(self, response: Any, path: str) -> None:
        response, name, given = self.named(response, path, "id name response parts")
        body = self.obj(response.get("response", {}), f"{path}.response")
        output: Any = body["output"] if len(body) == 1 and "output" in body else body
        media_parts = response.get("parts")
        if media_parts:
            media = []
            for position, part in enumerate(self.array(media_parts, f"{path}.parts")):
                here = f"{path}.parts[{position}]"
                part = _snake(self.obj(part, here))
                self.extra(part, "inline_data file_data", here)
                if "inline_data" in part or "file_data" in part:
                    block = self.media_block(part, here)
                    if block is not None:
                        media.append(block)
                else:
                    self.unknown(here, "part", part)
            if output == [] or (
                self.is_blocks(output) and all(item.get("type") == "text" for item in output)
            ):
                texts = output
            elif type(output) is str:
                texts = [{"type": "text", "text": output}] if output else []
            else:
                what = "function response with data and images"
                why = "agentmsg's tool output is blocks or data, not both"
                self.change(path, what, "its data kept as JSON text", why)
                texts = [{"type": "text", "text": self.dumps(output)}]
            output = texts + media if texts or media else ""
        self.result(self.answer(name, given), name, output)


def _base64(value: Any, path: str) -> str:
    """Base64 text in the standard alphabet (the SDK's dump writes the URL-safe one)."""
    return Reader.ident(value, path).translate(_URLSAFE)


# Unlike _CAMEL, a run of capitals stays one word (kept as the stream module had it).
_STREAM_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
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
# The keys of a piece that may take the quick way, in both spellings.
_QUICK_PIECE = frozenset(
    {
        "candidates",
        "usageMetadata",
        "usage_metadata",
        "modelVersion",
        "model_version",
        "responseId",
        "response_id",
    }
)
_USAGE_KEYS = ("usageMetadata", "usage_metadata")


def _reader(keys: list[str]) -> Callable[[dict[str, Any]], Any]:
    """What reads the values of *keys* in a dict at once: a tuple of two or more, the
    value of one (a usage with one count then has it checked whole), () of none."""
    return itemgetter(*keys) if keys else _nothing


def _nothing(data: dict[str, Any]) -> tuple[()]:
    return ()


_STREAMED = frozenset({"partial_args", "will_continue"})
_VALUE_KEYS = ("string_value", "number_value", "bool_value")
# The keys of a part the quick partial message shows (text or thought text).
_PLAIN = frozenset({"text", "thought", "thought_signature"})
_PATH = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\['([^']*)'\]|\[\"([^\"]*)\"\]")


_Read = Callable[[dict[str, Any]], tuple[Any, ...]]  # reads a usage's four counts
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


def _token_usage(
    usage: Any, read: _Read | None = None
) -> tuple[dict[str, int] | None, _Read | None]:
    """The token usage the conversion makes of ``usage_metadata`` ({} without one; None
    when it holds something the conversion would refuse: then it is left to it), and
    what read its counts; *read*, that of a usage known to have the same keys."""
    if usage is None:
        return {}, None
    if not isinstance(usage, dict):
        return None, None
    if read is None:
        keys = tuple(usage)
        read = _USAGE_READERS.get(keys)
        if read is None:
            # The key of each count in this spelling, as _snake reads it (the last of two
            # spellings of one name stands); an absent count is 0.
            snake = {_STREAM_CAMEL.sub("_", key).lower(): key for key in keys}
            names = [snake.get(count) for count in _COUNTS]
            read = _counts_reader(names)
            if len(_USAGE_READERS) < 4096:  # the key sets of one API are few
                _USAGE_READERS[keys] = read
    prompt, candidates, thoughts, total = read(usage)
    # Four integers, none below 0 (then neither is their bitwise or).
    if not type(prompt) is type(candidates) is type(thoughts) is type(total) is int:
        return None, read
    if (prompt | candidates | thoughts | total) < 0:
        return None, read
    converted = {
        "prompt_tokens": prompt,
        "completion_tokens": candidates + thoughts,
        "total_tokens": total,
    }
    return converted, read


def _counts_reader(names: list[str | None]) -> _Read:
    """What reads the four counts of a usage whose keys are *names* (None: absent)."""
    if None not in names:
        return itemgetter(*names)

    def read(usage: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(0 if name is None else usage[name] for name in names)

    return read


_USAGE_READERS: dict[tuple[str, ...], _Read] = {}


def _objects(items: Any, index: int, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each object of the list *items* at *where*, in snake_case, with its path."""
    if not isinstance(items, list):
        reject(FORMAT, index, where, items, "it must be a list")
    for number, item in enumerate(items):
        here = f"{where}[{number}]"
        if not isinstance(item, dict):
            reject(FORMAT, index, here, item, "it must be an object")
        yield here, _snake_cached(item)


def _check_call(call: dict[str, Any], index: int, where: str) -> dict[str, Any]:
    """A function call in snake_case, its streamed argument pieces checked."""
    call = _snake_cached(call)
    pieces = call.get("partial_args")
    if pieces is not None:
        checked = []
        for here, piece in _objects(pieces, index, f"{where}.partial_args"):
            path = piece.get("json_path")
            if type(path) is not str or _steps(path) is None:
                why = "it must be a JSON path such as '$.a[0].b'"
                reject(FORMAT, index, f"{here}.json_path", path, why)
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
    value = next((piece[key] for key in _VALUE_KEYS if key in piece), None)
    holder: Any = args
    for step, following in zip(steps, [*steps[1:], None], strict=True):
        if type(step) is int and isinstance(holder, list):
            holder.extend([None] * (step + 1 - len(holder)))
            old = holder[step]
        elif type(step) is str and isinstance(holder, dict):
            old = holder.get(step)
        else:
            return  # the path goes through a value of another kind
        if following is None:
            holder[step] = old + value if type(old) is str and type(value) is str else value
        elif isinstance(old, (dict, list)):
            holder = old
        else:
            holder[step] = [] if type(following) is int else {}
            holder = holder[step]


def _snake_cached(data: dict[str, Any]) -> dict[str, Any]:
    """The keys of one object in snake_case, as the SDK dumps them (REST sends camelCase)."""
    keys = tuple(data)
    if keys in _NAMES:
        names = _NAMES[keys]
    else:
        snake = tuple(_STREAM_CAMEL.sub("_", key).lower() for key in keys)
        names = None if snake == keys else snake
        if len(_NAMES) < 4096:  # the key sets of one API are few
            _NAMES[keys] = names
    return data if names is None else dict(zip(names, data.values(), strict=True))


def _plain_part(
    part: dict[str, Any], text: Any, number: int, blocks: list[Any], kept: dict[str, Any]
) -> bool:
    """Add the block of a text or thought *part* whose text is *text* to *blocks* (its
    signature to *kept*), as the conversion makes it; False for a part of another kind
    (or a signature the conversion would refuse): then the conversion shows it."""
    if not _PLAIN.issuperset(part) or type(text) is not str:
        return False
    signature = part.get("thought_signature")
    if signature is not None:
        if type(signature) is not str or not signature:
            return False
        kept[str(number)] = {"thought_signature": _standard(signature)}
    if part.get("thought"):
        blocks.append({"type": "thinking", "thinking": text})
    else:
        blocks.append({"type": "text", "text": text})
    return True


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

    def close(self, **fields: Any) -> None:
        """End the open text part: its pieces joined into its text (beside *fields*)."""
        if self.texts is not None:
            self.parts[-1] = {**self.parts[-1], "text": "".join(self.texts), **fields}
        self.texts = None

    def dump(self, number: int) -> dict[str, Any]:
        parts = self.parts
        if self.texts is not None:
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

    __slots__ = (
        "_candidates",
        "_envelope",
        "_frame",
        "_head",
        "_open",
        "_shown_parts",
        "_slots",
        "_template",
        "_usage",
    )
    _FORMAT = FORMAT
    _EVENT_KEYS = frozenset(
        {"candidates", "usageMetadata", "usage_metadata", "promptFeedback", "prompt_feedback"}
    )
    _LAST = "a piece with a finish reason"

    def __init__(self) -> None:
        super().__init__()
        self._head: dict[str, Any] | None = None
        self._candidates: dict[int, _Candidate] = {}
        # The quick way (see _take and _ready): the last piece the full check took;
        # the content whose parts each piece puts in, the usage's key, what reads its
        # counts and its rest, and the width of a text part; the candidate it grows.
        self._template: dict[str, Any] | None = None
        self._slots: tuple[dict[str, Any], str | None, Any, int] = ({}, None, None, 1)
        self._open: _Candidate | None = None
        # For the partial message: the blocks (and kept signatures) of the parts before
        # the last, with their count; the usage last read, and what the conversion makes
        # of it.
        self._shown_parts: tuple[int, list[Any], dict[str, Any]] = (0, [], {})
        self._usage: tuple[Any, dict[str, int] | None] = (None, {})
        # While only the quick way takes pieces: the blocks before the last part, the
        # last part's block type, the kept signatures, the metadata without usage, the
        # invocation id, and the pieces of the last part's text.
        self._frame: tuple[Any, ...] | None = None
        # The partial message's metadata and id while the reply is text and thoughts
        # alone; made again after any piece that does more than add text.
        self._envelope: tuple[dict[str, Any] | None, str | None] | None = None

    def _take(self, event: dict[str, Any], index: int) -> None:
        # Most pieces repeat the last piece the full check took but for one more piece
        # of the open text part of the one candidate and the running usage: the piece is
        # compared whole with that one, its parts and usage put in (one comparison
        # checks every other value, in the same spelling), then its text is taken and
        # its usage checked for counts alone (bench streams.recorded, Gemini row: about
        # 4x fewer steps per piece than the full check). Anything else goes the full way.
        template = self._template
        if template is not None:
            try:  # what the comparison below then finds in the right place, or not
                candidate = event["candidates"][0]
                parts = candidate["content"]["parts"]
                part = parts[0]
                text = part["text"]
            except (KeyError, IndexError, TypeError):
                text = None
            if type(text) is str and type(parts) is list and len(parts) == 1:
                slot, usage_key, shape, width = self._slots
                slot["parts"] = parts
                usage = None
                if usage_key is not None:
                    usage = template[usage_key] = event.get(usage_key)
                # An index of 0.0 or False equals 0: refused the full way.
                if (
                    event == template
                    and type(part) is dict
                    and len(part) == width
                    and (width == 1 or part.get("thought") is True)
                    and type(candidate.get("index", 0)) is int
                    and (text.isascii() or clean_text(text))
                ):
                    top: dict[str, Any] = self._head  # type: ignore[assignment]
                    if usage is not None and usage is not top.get("usage_metadata"):
                        # Not the usage last taken (a client may resend one object): that
                        # one but for its counts, which hold integers a message can hold
                        # (their sizes summed), or else checked whole.
                        read, others, size, kept, _ = shape
                        try:
                            counts = read(usage)
                            fits = len(usage) == size and others(usage) == kept
                            total = sum(map(abs, counts))
                        except (KeyError, TypeError, OverflowError):  # a float, a huge count
                            fits = False
                        if not fits or type(total) is not int or total >= _BIG:
                            check_value(FORMAT, index, "usage_metadata", usage)
                            self._frame = None  # its keys may differ (see _built)
                        top["usage_metadata"] = usage
                    self._open.texts.append(text)  # type: ignore[union-attr]
                    return
        self._template = None
        self._envelope = None
        self._frame = None
        head = self._head
        raw = event
        self._refuse_foreign(event, index)
        if "error" in event:
            error = event["error"]
            message = error.get("message", error) if isinstance(error, dict) else error
            why = "the API ended the stream with an error"
            reject(FORMAT, index, "error.message", message, why)
        event = _snake_cached(event)
        if _MARKS.isdisjoint(event):
            reject(FORMAT, index, "", event, "it is not a Gemini response piece")
        check_value(FORMAT, index, "", event)  # kept and merged: checked as it comes
        if head is not None:
            for key in _SAME:
                value = event.get(key)
                if value and head.get(key) and value != head[key]:
                    why = f"the stream's first piece has {show(head[key])}"
                    reject(FORMAT, index, key, value, why)
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
        self._ready(raw)

    def _ready(self, event: dict[str, Any]) -> None:
        """Make ready the quick way for the pieces after *event* (just taken the full
        way) when they may take it: one candidate, its last part text that may grow, and
        *event* of that candidate's content alone, each key in one spelling."""
        self._open = None
        state = self._candidates.get(0)
        if (
            len(self._candidates) != 1
            or state is None
            or state.texts is None
            or state.finish is not None
            or state.call is not None
            or not _QUICK_PIECE.issuperset(event)
            or len(_snake_cached(event)) != len(event)
        ):
            return
        candidates = event.get("candidates")
        if type(candidates) is not list or len(candidates) != 1:
            return
        (candidate,) = candidates
        if "content" not in candidate or not _QUICK_CANDIDATE.issuperset(candidate):
            return
        slot = dict(candidate["content"])
        self._template = {**event, "candidates": [{**candidate, "content": slot}]}
        usage_key = next((key for key in _USAGE_KEYS if key in event), None)
        held = self._head.get("usage_metadata")  # type: ignore[union-attr]
        shape: tuple[Any, ...] = (None, None, -1, (), None)
        if type(held) is dict:
            # What reads the counts of the usage, which the next pieces' may raise, and
            # what reads the rest, which they repeat.
            counts = [key for key, value in held.items() if type(value) is int]
            others = _reader([key for key in held if key not in counts])
            # Last, what reads the four counts the partial message shows (see _built).
            shape = (_reader(counts), others, len(held), others(held), _token_usage(held)[1])
        # A thought piece is {text, thought: true}, an answer piece {text}.
        width = 2 if state.parts[-1].get("thought") else 1
        self._slots = (slot, usage_key, shape, width)
        self._open = state

    def _check(
        self, candidate: Any, position: int, index: int
    ) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
        where = f"candidates[{position}]"
        if not isinstance(candidate, dict):
            reject(FORMAT, index, where, candidate, "a candidate is an object")
        candidate = _snake_cached(candidate)
        number = candidate.get("index", 0)
        if type(number) is not int or number < 0:
            reject(FORMAT, index, f"{where}.index", number, "it must be an integer >= 0")
        content = candidate.get("content")
        if content is None:
            content = {}
        elif not isinstance(content, dict):
            reject(FORMAT, index, f"{where}.content", content, "it must be an object")
        content = _snake_cached(content)
        checked = []
        parts = content.get("parts")
        if parts is None:
            parts = []
        for here, part in _objects(parts, index, f"{where}.content.parts"):
            text = part.get("text")
            if text is not None and type(text) is not str:
                reject(FORMAT, index, f"{here}.text", text, "it must be text")
            call = part.get("function_call")
            if call is not None:
                here += ".function_call"
                if not isinstance(call, dict):
                    reject(FORMAT, index, here, call, "it must be an object")
                part = {**part, "function_call": _check_call(call, index, here)}
            checked.append(part)
        for key, value in candidate.items():
            if key != "content" and isinstance(value, (dict, list)):
                # Kept or merged (citations) level by level: within the depth limit.
                check_value(FORMAT, index, f"{where}.{key}", value)
        finish = candidate.get("finish_reason")
        if finish is not None and type(finish) is not str and type(finish) is not int:
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
                    state.close(thought_signature=signature)
                continue
            state.close()
            state.parts.append(part)
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
        # converting the whole response at each piece: the blocks of the parts before the
        # last are kept from read to read (a part changes only while it is the last), and
        # the last part's text grows in place (bench streams.recorded, Gemini rows:
        # reading after every piece from 5x accumulating to under 3x, flat in its length).
        head = self._head
        if head is None:
            return None
        raw_usage = head.get("usage_metadata")
        if raw_usage is not self._usage[0]:
            # With a frame, only the quick way has taken pieces since the last read, and a
            # usage it took has the keys of the one it compares with: read as that one is
            # (bench streams.recorded, Gemini row: reading / accumulating 3.0x -> 2.8x).
            read = self._slots[2][4] if self._frame is not None else None
            self._usage = (raw_usage, _token_usage(raw_usage, read)[0])
        usage = self._usage[1]
        if usage is None:
            return None
        frame, made = self._frame, None
        if frame is not None:
            # Since the last read only the quick way has taken pieces: the last part's
            # text has grown, and the usage may have changed.
            blocks, kind, kept_state, base, invocation_id, texts = frame
            content = [*blocks, {"type": kind, kind: joined(texts)}]
        else:
            candidates = self._candidates
            state = candidates.get(0)
            if len(candidates) != 1 or state is None or state.call:
                return None
            parts = state.parts
            last = len(parts) - 1
            count, blocks, kept = self._shown_parts
            if count != last:
                if count > last:
                    count, blocks, kept = 0, [], {}
                blocks, kept = list(blocks), dict(kept)
                for number in range(count, last):
                    part = parts[number]
                    if not _plain_part(part, part.get("text"), number, blocks, kept):
                        return None
                self._shown_parts = (last, blocks, kept)
            content = list(blocks)
            if last >= 0:
                part = parts[last]
                texts = state.texts
                last_text = part.get("text") if texts is None else joined(texts)
                if "thought_signature" in part:
                    kept = dict(kept)
                if not _plain_part(part, last_text, last, content, kept):
                    return None
            envelope = self._envelope
            if envelope is None:
                # Converted without parts or usage: the model, stop reason and id.
                response = {k: v for k, v in head.items() if k != "usage_metadata"}
                dumped = {**state.dump(0), "content": {"role": "model", "parts": []}}
                made = from_gemini({**response, "candidates": [dumped]}).messages[0]
                envelope = self._envelope = (made.to_dict()["metadata"], made.invocation_id)
            base, invocation_id = envelope
            kept_state = {STATE_FORMAT: kept} if kept else None
            if last >= 0 and state is self._open and state.texts is not None:
                kind = content[-1]["type"]
                self._frame = (blocks, kind, kept_state, base, invocation_id, state.texts)
        metadata = base
        if usage:
            metadata = {**(metadata or {}), "token_usage": usage}
        if kept_state is not None:
            metadata = {**(metadata or {}), STATE_KEY: kept_state}
        return trusted_msg(content, metadata, invocation_id, made)

    @staticmethod
    def _call_piece(state: _Candidate, part: dict[str, Any], call: dict[str, Any]) -> bool:
        """Take one piece of a function call streamed in pieces; False when *call* is a
        whole call of its own."""
        open_call = state.call
        pieces = call.get("partial_args") or ()
        more = bool(call.get("will_continue"))
        if open_call is None:
            state.close()
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
        if not candidates:
            # A blocked prompt ends the stream at its one piece, without candidates.
            return self._head is not None and _blocked(self._head) is not None
        return all(state.finish is not None for state in candidates.values())

    def _snapshot(self) -> dict[str, Any] | None:
        head = self._head
        if head is None:
            return None
        candidates = self._candidates
        response = dict(head)
        response["candidates"] = [candidates[number].dump(number) for number in sorted(candidates)]
        return response

    def _convert(self, response: dict[str, Any], strict: bool) -> Parsed:
        if not response["candidates"] and _blocked(response) is None:
            response["candidates"] = [{"content": {"role": "model", "parts": []}}]
        return from_gemini(response, strict=strict)
