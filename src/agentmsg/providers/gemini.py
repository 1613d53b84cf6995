"""Google Gemini: ``contents`` and ``system_instruction`` both ways."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .._blocks import MEDIA_KINDS
from .._errors import MessageError
from .._validate import (
    check_array,
    check_choice,
    check_key,
    check_name,
    check_object,
    check_str,
    is_block_list,
    show,
)
from ._common import (
    DEFAULT_NAMES,
    CallIds,
    Conversion,
    Pairing,
    Parsed,
    Report,
    Turns,
    duplicate_why,
    is_tool_results,
    media_of,
    media_type_of_url,
    messages_in,
    output_text,
    plain,
    report_local,
    report_raw_input,
    report_signature,
    state_field,
    state_of,
    system_prompt,
)
from ._stream import report_counts

__all__ = ["from_gemini", "to_gemini"]

FORMAT = "Gemini"
STATE_FORMAT = "gemini"
_KINDS = MEDIA_KINDS
_URLSAFE = str.maketrans("-_", "+/")


# -- to ----------------------------------------------------------------------------------


def to_gemini(messages: Any, *, strict: bool = False) -> Conversion:
    """Convert a conversation to the ``contents`` and ``system_instruction`` of a Gemini
    ``generateContent`` request.

    Args:
        messages: A list of :class:`~agentmsg.Msg` and role messages, oldest first.
        strict: Raise instead of reporting something dropped.

    Returns:
        A :class:`~agentmsg.Conversion` whose payload holds ``contents``, and
        ``system_instruction`` when there is a system message, with what could not be
        carried as it was. The keys are the API's snake_case names, which the REST API
        and the ``google-genai`` types accept.

    Raises:
        MessageError: The conversation is not a list of messages; in strict mode,
            also when something would be dropped (the text names its path).

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
    conversation = messages_in(messages)
    writer.conversation = conversation
    texts, _ = system_prompt(writer, conversation)
    for index, msg in enumerate(conversation):
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


class _Writer(Report):
    """The Gemini contents of one conversation, and the report of what they cost.

    ``pairing`` knows which function calls of the last model turn wait for a response;
    ``model_at`` is where that turn is in ``out`` and ``answers_at`` where the turn of its
    responses is (-1 before there is one).
    """

    __slots__ = ("answers_at", "conversation", "model_at", "out", "pairing")

    def __init__(self, format: str, strict: object) -> None:
        Report.__init__(self, format, strict)
        self.conversation: list[Any] = []
        self.out: list[dict[str, Any]] = []
        self.pairing = Pairing(ids=CallIds(REPEATED_ID), per_turn=True)
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
        if role == "system" or is_tool_results(msg):
            return
        self.name(msg, index, DEFAULT_NAMES[role])
        parts: list[dict[str, Any]] = []
        calls: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
        state = state_of(msg, STATE_FORMAT) if role == "assistant" else {}
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
                signature = state_field(state, position, "thought_signature")
            if signature is not None:
                if role != "assistant":
                    report_signature(self, block, path, model_turn=False)
                    signature = None
                elif not signature:
                    self.drop(
                        f"{path}.thought_signature", "empty thought signature", NO_SIGNATURE, ""
                    )
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
            self.drop(
                f"messages[{index}]",
                "assistant message before any user message",
                FIRST_USER,
                self.conversation[index].content,
            )
            return
        if out and out[-1]["role"] == ours:
            why = CALL_AFTER if calls else ALTERNATE
            self.change(
                f"messages[{index}]", f"{ours} turn right after another", "merged with it", why
            )
            out[-1]["parts"] = out[-1]["parts"] + parts
        else:
            out.append({"role": ours, "parts": parts})
        if ours == "user":
            return
        self.model_at = len(out) - 1
        self.answers_at = -1
        if calls:
            self.pairing.begin(index, [block["id"] for _, block, _ in calls])
        for position, block, part in calls:
            part["function_call"]["id"] = self.pairing.call(self, block, index, position)

    def user_after(self, index: int) -> bool:
        """Whether a user message (not tool results) comes after message *index*: then the
        request is a conversation, which must start with a user turn; model turns alone
        are a piece of one, sent as they are for the caller to place."""
        return any(
            msg.role == "user" and not is_tool_results(msg)
            for msg in self.conversation[index + 1 :]
        )

    # -- the parts of the blocks of a user or model turn (see _BLOCK_PARTS) -------------

    def text(self, block: dict[str, Any], role: str, path: str) -> Any:
        return {"text": block["text"]}

    def thinking(self, block: dict[str, Any], role: str, path: str) -> Any:
        if role != "assistant":
            self.drop(
                path,
                "thinking block in a user message",
                "Gemini takes thoughts from the model only",
                block,
            )
            return None
        report_signature(self, block, path)
        return {"text": block["thinking"], "thought": True}

    def tool_use(self, block: dict[str, Any], role: str, path: str) -> Any:
        if role != "assistant":
            self.drop(
                path,
                "tool call in a user message",
                "Gemini function calls come from the model only",
                block,
            )
            return None
        if "raw_input" in block:
            report_raw_input(self, block, path)
        return {"function_call": {"id": block["id"], "name": block["name"], "args": block["input"]}}

    def media(self, block: dict[str, Any], role: str, path: str) -> Any:
        return _media(self, block, path)

    # -- function responses and the pairing of calls -----------------------------------

    def responses(self, msg: Any, content: Any, index: int) -> None:
        parts = [
            {"function_response": self.response(block, path, sent)}
            for path, sent, block in self.pairing.results(self, msg, content, index, ORPHAN)
        ]
        if not parts:
            return
        if self.answers_at >= 0 and self.answers_at == len(self.out) - 1:
            self.change(
                f"messages[{index}]",
                "tool results right after other tool results",
                "merged with them",
                ONE_TURN,
            )
            self.out[-1]["parts"].extend(parts)
            return
        self.out.append({"role": "user", "parts": parts})
        self.answers_at = len(self.out) - 1

    def response(self, block: dict[str, Any], path: str, sent: str) -> dict[str, Any]:
        output = block["output"]
        name = self.pairing.names[sent]
        if name != block["name"]:
            self.drop(
                f"{path}.name",
                f"tool name {block['name']!r} of a tool result",
                "a Gemini function response names the function of its call, and the call "
                "this result answers names another",
                block["name"],
            )
        response: dict[str, Any] = {"id": sent, "name": name}
        if not is_block_list(output):
            # {"error": ...} (with or without "output") is the API's own shape: kept as it
            # is, so an error goes back as an error
            if isinstance(output, dict) and "error" in output and set(output) <= _RESPONSE_KEYS:
                response["response"] = output
            else:
                response["response"] = {"output": output}
            return response
        texts = []
        media = []
        seen_media = False
        for item_index, item in enumerate(output):
            item_path = f"{path}.output[{item_index}]"
            if item["type"] == "text":
                if seen_media:
                    self.change(
                        item_path,
                        "text block after a media block in a tool result",
                        "moved before the images",
                        "Gemini keeps a function response's images apart from its output",
                    )
                texts.append({"type": "text", "text": item["text"]})
                continue
            seen_media = True
            if item["type"] != "image":
                self.drop(
                    item_path,
                    f"{item['type']} block in a tool result",
                    "Gemini function responses carry images only",
                    item,
                )
                continue
            part = _media(self, item, item_path)
            if part is not None:
                media.append(part)
        response["response"] = {"output": texts}
        if media:
            response["parts"] = media
        return response

    def settle(self) -> None:
        """Drop the calls of the last model turn that no response answered in time."""
        if not self.pairing.waiting:
            return
        turn = self.out[self.model_at]
        dropped = set(self.pairing.unanswered(self, self.conversation, UNANSWERED))
        turn["parts"] = [
            part
            for part in turn["parts"]
            if "function_call" not in part or part["function_call"]["id"] not in dropped
        ]
        if not turn["parts"]:
            del self.out[self.model_at]  # nothing of that model turn is left to send

    def end(self) -> None:
        """Settle the calls of the last model turn, unless the conversation ends with it."""
        if len(self.out) - 1 != self.model_at:
            self.settle()


def _media(report: Report, block: dict[str, Any], path: str) -> dict[str, Any] | None:
    kind = block["type"]
    media = media_of(block["source"])
    if media.form == "base64":
        return {"inline_data": {"mime_type": media.media_type, "data": media.data}}
    if media.form == "local":
        report_local(report, path, f"{kind} block", media.data)
        return None
    if media.form == "data_url":
        report.drop(
            path,
            f"{kind} in a data: URL that is not base64",
            "Gemini takes base64 data or a file URI",
            block,
        )
        return None
    media_type = media_type_of_url(media.data)
    if media_type is None or not media_type.startswith(kind):
        report.drop(
            path,
            f"{kind} URL without a known file extension",
            "Gemini needs the media type of a file URI, and agentmsg reads it from the extension",
            block,
        )
        return None
    return {"file_data": {"mime_type": media_type, "file_uri": media.data}}


_RESPONSE_KEYS = frozenset({"output", "error"})
_BLOCK_PARTS = {
    "text": _Writer.text,
    "thinking": _Writer.thinking,
    "tool_use": _Writer.tool_use,
    "image": _Writer.media,
    "audio": _Writer.media,
    "video": _Writer.media,
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

    Returns:
        The messages and what agentmsg could not carry, as a
        :class:`~agentmsg.Parsed`.

    Raises:
        MessageError: The data is not data of this format (the text names the path
            and the value); in strict mode, also when something would be dropped.

    A response gives the first candidate's content. A function call without an id gets
    ``call_<name>``, and a function response without an id answers the oldest unanswered
    call of its name. A ``function_response`` whose ``response`` is ``{"output": ...}``
    gives that output back; any other response dict is the output itself. A part's
    thought signature goes to the message's metadata, under ``provider_state``, for
    :func:`to_gemini` to send back.
    """
    report = Report(FORMAT, strict)
    data = plain(data)
    turns = Turns()
    calls = _Calls()
    if isinstance(data, dict):
        data = _snake(data)
    if isinstance(data, list):
        contents, base = data, "contents"
    elif isinstance(data, dict) and "candidates" in data:
        candidates = check_array(data["candidates"], "candidates")
        if not candidates:
            raise MessageError("`candidates` is empty: the response holds no reply.", "candidates")
        _envelope(report, turns, data, candidates)
        candidate = _snake(check_object(candidates[0], "candidates[0]"))
        content = check_object(
            check_key(candidate, "content", "candidates[0]"), "candidates[0].content"
        )
        _content(report, turns, _snake(content), "candidates[0].content", calls)
        turns.flush("candidates[0].content")
        if not turns.messages:
            # A reply whose every part was dropped still brings its id, usage and reason.
            turns.add("assistant", [], "assistant", "candidates[0].content")
        return Parsed(turns.messages, tuple(report.losses))
    elif isinstance(data, dict) and "contents" in data:
        system = data.get("system_instruction")
        if system is not None:
            system = _snake(check_object(system, "system_instruction"))
            blocks = _parts(
                report, system.get("parts", []), "system_instruction.parts", "system", calls
            )
            turns.add("system", blocks, "system", "system_instruction")
        contents, base = check_array(data["contents"], "contents"), "contents"
    else:
        msg = (
            "Gemini data must be a request payload with `contents`, a list of contents or "
            f"a response with `candidates`, not {show(data)}."
        )
        raise MessageError(msg)
    for index, content in enumerate(contents):
        path = f"{base}[{index}]"
        _content(report, turns, _snake(check_object(content, path)), path, calls)
    turns.flush(base)
    return Parsed(turns.messages, tuple(report.losses))


class _Calls:
    """The function calls read so far: ids by name, for responses that name no id."""

    __slots__ = ("names", "unanswered")

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.unanswered: dict[str, list[str]] = {}

    def call(self, name: str, given: str | None) -> str:
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


def _envelope(report: Report, turns: Turns, data: dict[str, Any], candidates: list[Any]) -> None:
    metadata: dict[str, Any] = {}
    if data.get("model_version") is not None:
        metadata["model"] = check_str(data["model_version"], "model_version")
    candidate = _snake(check_object(candidates[0], "candidates[0]"))
    if candidate.get("finish_reason") is not None:
        metadata["stop_reason"] = check_str(
            candidate["finish_reason"], "candidates[0].finish_reason"
        )
    for key, what in (
        ("citation_metadata", "citations"),
        ("grounding_metadata", "grounding sources"),
        ("logprobs_result", "log probabilities"),
        ("avg_logprobs", "average log probability"),
        ("finish_message", "finish message"),
    ):
        if candidate.get(key):
            report.drop(
                f"candidates[0].{key}",
                what,
                "agentmsg's messages have no place for them",
                candidate[key],
            )
    for extra in range(1, len(candidates)):
        report.drop(
            f"candidates[{extra}]",
            "another candidate",
            "a message holds one reply; convert the first candidate only",
            candidates[extra],
        )
    usage = data.get("usage_metadata")
    if usage is not None:
        usage = _snake(check_object(usage, "usage_metadata"))
        counts = {}
        for key in (
            "prompt_token_count",
            "candidates_token_count",
            "thoughts_token_count",
            "total_token_count",
        ):
            value = usage.get(key, 0)
            if type(value) is not int or value < 0:
                msg = f"`usage_metadata.{key}` must be an integer >= 0, not {show(value)}."
                raise MessageError(msg, f"usage_metadata.{key}")
            counts[key] = value
        metadata["token_usage"] = {
            "prompt_tokens": counts["prompt_token_count"],
            "completion_tokens": counts["candidates_token_count"] + counts["thoughts_token_count"],
            "total_tokens": counts["total_token_count"],
        }
        report_counts(report, usage, "usage_metadata", frozenset(counts))
    turns.metadata = metadata or None
    if data.get("response_id") is not None:
        turns.invocation_id = check_name(data["response_id"], "response_id")


def _content(
    report: Report, turns: Turns, content: dict[str, Any], path: str, calls: _Calls
) -> None:
    report.extra(content, frozenset({"role", "parts"}), path)
    role = check_choice(content.get("role", "user"), f"{path}.role", ("user", "model", "function"))
    ours = "assistant" if role == "model" else "user"
    parts = check_array(content.get("parts", []), f"{path}.parts")
    pending: list[Any] = []
    keep: dict[str, Any] = {}
    for position, part in enumerate(parts):
        part_path = f"{path}.parts[{position}]"
        part = _snake(check_object(part, part_path))
        if "function_response" in part:
            if pending:
                turns.add(DEFAULT_NAMES[ours], pending, ours, path, (STATE_FORMAT, keep))
                pending, keep = [], {}
            report.extra(part, _PART_KEYS, part_path)
            turns.tool_result(
                _function_response(
                    report, part["function_response"], f"{part_path}.function_response", calls
                )
            )
            continue
        block = _part(report, part, part_path, ours, calls)
        if block is not None:
            if not pending:
                turns.flush(part_path)
            signature = part.get("thought_signature")
            if signature == "":
                report.drop(
                    f"{part_path}.thought_signature", "empty thought signature", NO_SIGNATURE, ""
                )
            elif signature is not None:
                here = f"{part_path}.thought_signature"
                keep[str(len(pending))] = {"thought_signature": _base64(signature, here)}
            pending.append(block)
        elif part.get("thought_signature") not in (None, ""):
            report.drop(
                f"{part_path}.thought_signature",
                "thought signature of a part agentmsg has no block for",
                "agentmsg keeps a signature with the block it belongs to",
                part["thought_signature"],
            )
    if pending or not parts:
        turns.add(DEFAULT_NAMES[ours], pending, ours, path, (STATE_FORMAT, keep))
    turns.flush(path)  # a content's function responses stay apart from the next one's


def _parts(report: Report, parts: Any, path: str, role: str, calls: _Calls) -> list[Any]:
    blocks = []
    for position, part in enumerate(check_array(parts, path)):
        part_path = f"{path}[{position}]"
        block = _part(report, _snake(check_object(part, part_path)), part_path, role, calls)
        if block is not None:
            blocks.append(block)
    return blocks


def _part(report: Report, part: dict[str, Any], path: str, role: str, calls: _Calls) -> Any:
    report.extra(part, _PART_KEYS | {"thought_signature"}, path)
    if "text" in part:
        text = check_str(part["text"], f"{path}.text")
        if part.get("thought"):
            return {"type": "thinking", "thinking": text}
        return {"type": "text", "text": text}
    if "inline_data" in part:
        return _inline(report, part["inline_data"], f"{path}.inline_data")
    if "file_data" in part:
        return _file(report, part["file_data"], f"{path}.file_data")
    if "function_call" in part:
        call = _snake(check_object(part["function_call"], f"{path}.function_call"))
        here = f"{path}.function_call"
        report.extra(call, frozenset({"id", "name", "args"}), here)
        name = check_name(check_key(call, "name", here), f"{here}.name")
        given = call.get("id")
        if given is not None:
            given = check_name(given, f"{here}.id")
        args = check_object(call.get("args", {}), f"{here}.args")
        return {"type": "tool_use", "id": calls.call(name, given), "name": name, "input": args}
    report.drop(path, "part", "agentmsg has no block for it", part)
    return None


def _base64(value: Any, path: str) -> str:
    """Base64 text in the standard alphabet (the SDK's dump writes the URL-safe one)."""
    return check_name(value, path).translate(_URLSAFE)


def _inline(report: Report, blob: Any, path: str) -> Any:
    blob = _snake(check_object(blob, path))
    report.extra(blob, frozenset({"mime_type", "data"}), path)
    media_type = check_str(check_key(blob, "mime_type", path), f"{path}.mime_type")
    data = check_str(check_key(blob, "data", path), f"{path}.data").translate(_URLSAFE)
    kind = media_type.partition("/")[0]
    if kind not in _KINDS:
        report.drop(
            path,
            f"{media_type} data",
            "agentmsg has image, audio and video blocks only",
            media_type,
        )
        return None
    return {"type": kind, "source": {"type": "base64", "media_type": media_type, "data": data}}


def _file(report: Report, file: Any, path: str) -> Any:
    file = _snake(check_object(file, path))
    report.extra(file, frozenset({"mime_type", "file_uri"}), path)
    uri = check_str(check_key(file, "file_uri", path), f"{path}.file_uri")
    media_type = file.get("mime_type") or media_type_of_url(uri) or ""
    kind = str(media_type).partition("/")[0]
    if kind not in _KINDS or not uri.startswith(("https://", "http://")):
        report.drop(
            path,
            "file",
            "agentmsg's URL sources hold http and https URLs of images, audio and video",
            file,
        )
        return None
    return {"type": kind, "source": {"type": "url", "url": uri}}


def _function_response(report: Report, response: Any, path: str, calls: _Calls) -> dict[str, Any]:
    response = _snake(check_object(response, path))
    report.extra(response, frozenset({"id", "name", "response", "parts"}), path)
    name = check_name(check_key(response, "name", path), f"{path}.name")
    given = response.get("id")
    if given is not None:
        given = check_name(given, f"{path}.id")
    body = check_object(response.get("response", {}), f"{path}.response")
    output: Any = body["output"] if len(body) == 1 and "output" in body else body
    media_parts = response.get("parts")
    if media_parts:
        media = []
        for position, part in enumerate(check_array(media_parts, f"{path}.parts")):
            here = f"{path}.parts[{position}]"
            part = _snake(check_object(part, here))
            report.extra(part, frozenset({"inline_data", "file_data"}), here)
            if "inline_data" in part:
                block = _inline(report, part["inline_data"], f"{here}.inline_data")
            elif "file_data" in part:
                block = _file(report, part["file_data"], f"{here}.file_data")
            else:
                report.drop(here, "part", "agentmsg has no block for it", part)
                block = None
            if block is not None:
                media.append(block)
        if output == [] or (
            is_block_list(output) and all(item.get("type") == "text" for item in output)
        ):
            texts = output
        elif type(output) is str:
            texts = [{"type": "text", "text": output}] if output else []
        else:
            report.change(
                path,
                "function response with data and images",
                "its data kept as JSON text",
                "agentmsg's tool output is blocks or data, not both",
            )
            texts = [{"type": "text", "text": output_text(output)}]
        output = texts + media if texts or media else ""
    return {"type": "tool_result", "id": calls.answer(name, given), "name": name, "output": output}
