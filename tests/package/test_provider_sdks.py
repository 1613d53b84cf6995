"""The provider conversions against the providers' own SDK types (offline: no client is
made, nothing is sent).

Request payloads are validated with pydantic: the ``openai`` and ``anthropic`` request
types are ``TypedDict``s, checked with a strict ``TypeAdapter`` whose result must equal
the payload (a key the type does not know would be left out of the result); the
``google-genai`` types are pydantic models that forbid unknown keys, validated from the
payload's JSON as the REST API reads it. Responses are built with the SDKs' response
models and converted back.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic.types
import pytest
from google.genai import types as genai
from hypothesis import HealthCheck, given, settings
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
from openai.types.responses import Response, ResponseInputParam
from pydantic import TypeAdapter

from agentmsg import (
    Msg,
    from_anthropic,
    from_gemini,
    from_openai_chat,
    from_openai_responses,
    to_gemini,
    to_openai_responses,
)
from provider_strategies import (
    ANYTHING,
    CARRIED,
    FORMATS,
    PNG,
    conversations,
    converters,
    tool_rounds,
)

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CHAT_MESSAGES = TypeAdapter(list[ChatCompletionMessageParam])
RESPONSES_INPUT = TypeAdapter(ResponseInputParam)
ANTHROPIC_MESSAGES = TypeAdapter(list[anthropic.types.MessageParam])
ANTHROPIC_SYSTEM = TypeAdapter(str | list[anthropic.types.TextBlockParam])


def materialized(value: Any) -> Any:
    """A validated TypedDict value as plain dicts and lists (pydantic validates an
    ``Iterable`` field lazily: listing it runs the validation)."""
    if isinstance(value, dict):
        return {key: materialized(item) for key, item in value.items()}
    if value is None or isinstance(value, str | bytes | int | float | bool):
        return value
    return [materialized(item) for item in value]


def standard_base64(value: Any) -> Any:
    """A google-genai dump with its bytes in standard base64 (it writes the URL-safe
    alphabet; the REST API reads both, and the conversions write the standard one)."""
    if isinstance(value, dict):
        return {
            key: item.translate(str.maketrans("-_", "+/"))
            if key in ("data", "thought_signature") and isinstance(item, str)
            else standard_base64(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [standard_base64(item) for item in value]
    return value


def check_typed(adapter: TypeAdapter[Any], payload: Any) -> None:
    assert payload == materialized(adapter.validate_python(payload, strict=True))


def valid_payload(name: str, messages: list[Msg]) -> dict[str, Any]:
    """What *messages* convert to in format *name*, after :func:`check_payload`."""
    to, _ = converters(name)
    payload: dict[str, Any] = to(messages).payload
    check_payload(name, payload)
    return payload


def check_payload(name: str, payload: dict[str, Any]) -> None:
    """Raise unless *payload* validates against the SDK's request types for format *name*."""
    if name == "openai_chat":
        assert ["messages"] == list(payload)
        check_typed(CHAT_MESSAGES, payload["messages"])
    elif name == "openai_responses":
        assert ["input"] == list(payload)
        check_typed(RESPONSES_INPUT, payload["input"])
    elif name == "anthropic":
        assert set(payload) <= {"system", "messages"}
        check_typed(ANTHROPIC_MESSAGES, payload["messages"])
        if "system" in payload:
            check_typed(ANTHROPIC_SYSTEM, payload["system"])
    else:
        assert set(payload) <= {"contents", "system_instruction"}
        for content in payload["contents"]:
            model = genai.Content.model_validate_json(json.dumps(content))
            assert content == standard_base64(model.model_dump(mode="json", exclude_none=True))
        if "system_instruction" in payload:
            genai.Content.model_validate_json(json.dumps(payload["system_instruction"]))


def sdk_response(response_id: str, output: list[Any], **fields: Any) -> Response:
    """An OpenAI ``Response``, completed, of *output*."""
    return Response.model_validate(
        {
            "id": response_id,
            "object": "response",
            "created_at": 1_700_000_000,
            "model": "gpt-x",
            "status": "completed",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": output,
            **fields,
        }
    )


def sample_conversation() -> list[Msg]:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
    return [
        Msg("system", "Answer briefly.", "system"),
        Msg("Ada", [{"type": "text", "text": "What is on this picture?"}, image], "user"),
        Msg(
            "Jarvis",
            [
                {"type": "thinking", "thinking": "An icon; ask the tool."},
                {"type": "text", "text": "Let me look."},
                {"type": "tool_use", "id": "call_1", "name": "describe", "input": {"size": 16}},
            ],
            "assistant",
        ),
        Msg(
            "tools",
            [
                {
                    "type": "tool_result",
                    "id": "call_1",
                    "name": "describe",
                    "output": [{"type": "text", "text": "A disc."}, image],
                }
            ],
            "system",
        ),
        Msg("Jarvis", "A blue disc.", "assistant"),
    ]


@pytest.mark.parametrize("name", FORMATS)
class TestPayloadsValidate:
    """Every payload the conversions write is valid for the provider's SDK."""

    def test_sample_conversation(self, name):
        """A conversation with text, an image, thinking, a tool call and an image result."""
        valid_payload(name, sample_conversation())

    def test_the_checker_notices_a_stray_key(self, name):
        """The check fails for a payload with a key the SDK type does not have."""
        to, _ = converters(name)
        payload = to([Msg("user", [{"type": "text", "text": "Hi"}], "user")]).payload
        key = next(key for key in payload if key != "system_instruction")
        payload[key][0]["bogus"] = 1

        with pytest.raises(Exception):  # noqa: B017  AssertionError or ValidationError
            check_payload(name, payload)

    @SETTINGS
    @given(conversation=conversations(**ANYTHING))
    def test_any_conversation(self, name, conversation):
        """Whatever the conversation holds, the payload validates."""
        valid_payload(name, conversation)

    @SETTINGS
    @given(conversation=conversations(**ANYTHING))
    def test_what_comes_back_converts_to_a_valid_payload(self, name, conversation):
        """Messages read back from a payload convert to a valid payload again."""
        to, back = converters(name)

        valid_payload(name, back(to(conversation).payload).messages)

    @SETTINGS
    @given(conversation=tool_rounds())
    def test_renamed_call_ids(self, name, conversation):
        """Calls whose ids repeat, collide once cleaned, or are too long go out in a valid
        payload, and so do the messages read back from it."""
        _, back = converters(name)

        payload = valid_payload(name, conversation)

        valid_payload(name, back(payload).messages)


class TestResponsesFromTheSDKs:
    """Responses built with the SDKs' own models convert to messages."""

    def test_openai_chat_completion(self):
        """A ChatCompletion with a tool call gives the call, id and usage."""
        response = ChatCompletion.model_validate(
            {
                "id": "chatcmpl-7",
                "object": "chat.completion",
                "created": 1_700_000_000,
                "model": "gpt-x",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "tool_calls",
                        "logprobs": None,
                        "message": {
                            "role": "assistant",
                            "content": "Checking.",
                            "tool_calls": [
                                {
                                    "id": "call_a",
                                    "type": "function",
                                    "function": {
                                        "name": "get_weather",
                                        "arguments": '{"city": "Lima"}',
                                    },
                                }
                            ],
                        },
                    }
                ],
                "usage": {"prompt_tokens": 12, "completion_tokens": 9, "total_tokens": 21},
            }
        )

        reply = from_openai_chat(response)

        [msg] = reply.messages
        assert [
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "call_a", "name": "get_weather", "input": {"city": "Lima"}},
        ] == msg.content
        assert ("chatcmpl-7", 9) == (
            msg.invocation_id,
            msg.metadata["token_usage"]["completion_tokens"],
        )
        assert () == reply.losses
        valid_payload("openai_chat", reply.messages)

    def test_openai_response(self):
        """A Response with a message and a function call gives one assistant message."""
        response = sdk_response(
            "resp_7",
            [
                {
                    "type": "message",
                    "id": "msg_1",
                    "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": "Checking.", "annotations": []}],
                },
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_b",
                    "name": "get_weather",
                    "arguments": '{"city": "Oslo"}',
                    "status": "completed",
                },
            ],
            usage={
                "input_tokens": 30,
                "output_tokens": 8,
                "total_tokens": 38,
                "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                "output_tokens_details": {"reasoning_tokens": 0},
            },
        )

        reply = from_openai_responses(response)

        [msg] = reply.messages
        assert [
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "call_b", "name": "get_weather", "input": {"city": "Oslo"}},
        ] == msg.content
        assert "resp_7" == msg.invocation_id
        valid_payload("openai_responses", reply.messages)

    def test_anthropic_message(self):
        """An anthropic Message with text and tool use gives the blocks and the usage."""
        response = anthropic.types.Message.model_validate(
            {
                "id": "msg_7",
                "type": "message",
                "role": "assistant",
                "model": "claude-x",
                "content": [
                    {"type": "text", "text": "Checking."},
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "get_weather",
                        "input": {"city": "Rome"},
                    },
                ],
                "stop_reason": "tool_use",
                "stop_sequence": None,
                "usage": {"input_tokens": 40, "output_tokens": 11},
            }
        )

        reply = from_anthropic(response)

        [msg] = reply.messages
        assert "toolu_1" == msg.content[1]["id"]
        assert {"prompt_tokens": 40, "completion_tokens": 11, "total_tokens": 51} == msg.metadata[
            "token_usage"
        ]
        assert () == reply.losses
        valid_payload("anthropic", reply.messages)

    def test_gemini_response(self):
        """A GenerateContentResponse with a thought, text and a call gives the blocks."""
        response = genai.GenerateContentResponse.model_validate(
            {
                "response_id": "r7",
                "model_version": "gemini-x",
                "candidates": [
                    {
                        "finish_reason": "STOP",
                        "content": {
                            "role": "model",
                            "parts": [
                                {"text": "The user wants weather.", "thought": True},
                                {"text": "Checking."},
                                {
                                    "function_call": {
                                        "id": "fc-1",
                                        "name": "get_weather",
                                        "args": {"city": "Pune"},
                                    }
                                },
                            ],
                        },
                    }
                ],
                "usage_metadata": {
                    "prompt_token_count": 9,
                    "candidates_token_count": 4,
                    "total_token_count": 13,
                },
            }
        )

        reply = from_gemini(response)

        [msg] = reply.messages
        assert ["thinking", "text", "tool_use"] == [block["type"] for block in msg.content]
        assert ("r7", "STOP") == (msg.invocation_id, msg.metadata["stop_reason"])
        assert () == reply.losses
        valid_payload("gemini", reply.messages)

    def test_signed_thinking_goes_back_valid(self):
        """Thinking read with its signature converts to a payload the SDK accepts, with
        the signature in it (Anthropic's ThinkingBlockParam requires one)."""
        response = anthropic.types.Message.model_validate(
            {
                "id": "msg_8",
                "type": "message",
                "role": "assistant",
                "model": "claude-x",
                "content": [
                    {"type": "thinking", "thinking": "Look it up.", "signature": "c2lnbmF0dXJl"},
                    {
                        "type": "tool_use",
                        "id": "toolu_2",
                        "name": "get_weather",
                        "input": {"city": "Rome"},
                    },
                ],
                "stop_reason": "tool_use",
                "stop_sequence": None,
                "usage": {"input_tokens": 40, "output_tokens": 11},
            }
        )

        payload = valid_payload("anthropic", from_anthropic(response).messages)

        assert "c2lnbmF0dXJl" == payload["messages"][0]["content"][0]["signature"]

    def test_gemini_thought_signature_goes_back_valid(self):
        """A thought signature (bytes in the SDK) comes back as the same base64 text."""
        signed = b"\xfb\xff signed"
        part = {
            "function_call": {"name": "get_weather", "args": {"city": "Pune"}},
            "thought_signature": signed,
        }
        response = genai.GenerateContentResponse.model_validate(
            {"candidates": [{"content": {"role": "model", "parts": [part]}}]}
        )

        payload = valid_payload("gemini", from_gemini(response).messages)

        text = payload["contents"][0]["parts"][0]["thought_signature"]
        assert (
            signed
            == genai.Part.model_validate_json(
                json.dumps({"thought_signature": text})
            ).thought_signature
        )

    def test_responses_reasoning_goes_back_valid(self):
        """A reasoning item converts back to a valid input item with its id."""
        response = sdk_response(
            "resp_8",
            [
                {"type": "reasoning", "id": "rs_8", "summary": [], "encrypted_content": "ZW5j"},
                {
                    "type": "function_call",
                    "id": "fc_8",
                    "call_id": "call_8",
                    "name": "f",
                    "arguments": "{}",
                    "status": "completed",
                },
            ],
        )

        payload = valid_payload("openai_responses", from_openai_responses(response).messages)

        assert response.model_dump(mode="json", exclude_none=True)["output"] == payload["input"]

    def test_responses_reasoning_summary_parts_and_status_go_back_valid(self):
        """A reasoning item of several summary parts, with its status, followed by a
        message and a call: all go back as they came, ids included, valid."""
        output = [
            {
                "type": "reasoning",
                "id": "rs_9",
                "summary": [
                    {"type": "summary_text", "text": "Porto first."},
                    {"type": "summary_text", "text": "Then Bergen."},
                ],
                "encrypted_content": "ZW5j",
                "status": "completed",
            },
            {
                "type": "message",
                "id": "msg_9",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "Checking.", "annotations": []}],
            },
            {
                "type": "function_call",
                "id": "fc_9",
                "call_id": "call_9",
                "name": "f",
                "arguments": "{}",
                "status": "completed",
            },
        ]
        parsed = from_openai_responses({"input": output})

        sent = to_openai_responses(parsed.messages)

        check_payload("openai_responses", sent.payload)
        assert output == sent.payload["input"]
        assert () == parsed.losses + sent.losses

    def test_gemini_inline_data_round_trip(self):
        """Inline bytes come back as the same base64 text after the SDK's own dump."""
        content = to_gemini(sample_conversation()).payload["contents"][0]
        model = genai.Content.model_validate_json(json.dumps(content))

        messages = from_gemini([model]).messages

        assert PNG == messages[0].content[1]["source"]["data"]


@pytest.mark.parametrize("name", FORMATS)
class TestCarriedConversationsValidate:
    """The conversations each format carries whole validate too."""

    @SETTINGS
    @given(data=__import__("hypothesis").strategies.data())
    def test_carried(self, name, data):
        """A loss-free conversion still writes a valid payload."""
        valid_payload(name, data.draw(conversations(**CARRIED[name])))
