"""The provider conversions: what they write, what they read back, what they report."""

from __future__ import annotations

import contextlib
import json
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agentmsg
from agentmsg import (
    AIMessage,
    FunctionMessage,
    HumanMessage,
    Loss,
    MessageError,
    Msg,
    SystemMessage,
    from_anthropic,
    from_gemini,
    from_openai_chat,
    from_openai_responses,
    to_anthropic,
    to_gemini,
    to_openai_chat,
    to_openai_responses,
)
from agentmsg.providers._common import Report, media_of
from interpreter import printed_by
from message_strategies import hostile_values
from provider_strategies import (
    ANYTHING,
    CARRIED,
    FORMATS,
    PNG,
    atoms,
    conversations,
    converters,
    normal,
)
from samples import json_paths

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def weather_conversation() -> list[Msg]:
    """A tool-use conversation every format carries, apart from the sender names."""
    return [
        Msg("system", "Answer in one sentence.", "system"),
        Msg("user", "Is it raining in Lima?", "user"),
        Msg(
            "assistant",
            [
                {"type": "text", "text": "Let me check."},
                {
                    "type": "tool_use",
                    "id": "call_1",
                    "name": "get_weather",
                    "input": {"city": "Lima"},
                },
            ],
            "assistant",
        ),
        Msg(
            "system",
            [
                {
                    "type": "tool_result",
                    "id": "call_1",
                    "name": "get_weather",
                    "output": "cloudy, 19 °C",
                }
            ],
            "system",
        ),
        Msg("assistant", "No: it is cloudy and 19 °C.", "assistant"),
    ]


class TestLoss:
    """:class:`agentmsg.Loss`."""

    def test_reads_as_a_sentence(self):
        """``str()`` names the path, the thing and why; a substitute says what was done."""
        dropped = Loss("messages[1].content[0]", "thinking block", "no field for it")
        moved = Loss("messages[2]", "image", "tool messages hold text", "sent in a user message")

        assert "messages[1].content[0]: thinking block dropped: no field for it" == str(dropped)
        assert "messages[2]: image sent in a user message: tool messages hold text" == str(moved)
        assert (True, False) == (dropped.dropped, moved.dropped)

    def test_is_a_named_tuple(self):
        """A loss unpacks and compares like a tuple, and names the package in its repr."""
        path, what, why, substitute = Loss("p", "w", "y")

        assert ("p", "w", "y", None) == (path, what, why, substitute)
        assert "agentmsg" == Loss.__module__


class TestToOpenAIChat:
    """:func:`agentmsg.to_openai_chat`."""

    def test_tool_round_trip_payload(self):
        """Tool calls become ``tool_calls`` and tool results ``tool`` messages, ids kept."""
        sent = to_openai_chat(weather_conversation())

        assert () == sent.losses
        assert [
            {"role": "system", "content": "Answer in one sentence."},
            {"role": "user", "content": "Is it raining in Lima?"},
            {
                "role": "assistant",
                "content": [{"type": "text", "text": "Let me check."}],
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Lima"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "cloudy, 19 °C"},
            {"role": "assistant", "content": "No: it is cloudy and 19 °C."},
        ] == sent.payload["messages"]

    def test_thinking_is_reported_dropped(self):
        """A thinking block is dropped and the report says where and why."""
        msg = Msg(
            "assistant",
            [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "Hi"}],
            "assistant",
        )

        sent = to_openai_chat([msg])

        assert [{"role": "assistant", "content": [{"type": "text", "text": "Hi"}]}] == sent.payload[
            "messages"
        ]
        assert (
            Loss(
                "messages[0].content[0]", "thinking block", "Chat Completions has no field for it"
            ),
        ) == sent.losses

    def test_strict_raises_for_a_drop(self):
        """Strict mode raises MessageError naming the path instead of dropping."""
        msg = Msg("assistant", [{"type": "thinking", "thinking": "hmm"}], "assistant")

        with pytest.raises(MessageError) as caught:
            to_openai_chat([msg], strict=True)

        assert "messages[0].content[0]" == caught.value.path
        assert str(caught.value).startswith(
            "`messages[0].content[0]`: thinking block cannot be carried"
        )
        assert str(caught.value).endswith("{'type': 'thinking', 'thinking': 'hmm'}.")

    def test_strict_allows_a_substitute(self):
        """A thing that still travels another way is reported but does not raise."""
        result = Msg(
            "system",
            [{"type": "tool_result", "id": "c", "name": "f", "output": {"a": 1}}],
            "system",
        )
        call = Msg(
            "assistant", [{"type": "tool_use", "id": "c", "name": "f", "input": {}}], "assistant"
        )

        sent = to_openai_chat([call, result], strict=True)

        assert ["sent as JSON text"] == [loss.substitute for loss in sent.losses]
        assert '{"a": 1}' == sent.payload["messages"][1]["content"]

    def test_tool_result_image_moves_to_a_user_message(self):
        """An image in a tool result follows the tool messages in a user message."""
        image = {
            "type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": PNG},
        }
        call = Msg(
            "assistant", [{"type": "tool_use", "id": "c", "name": "icon", "input": {}}], "assistant"
        )
        result = Msg(
            "system",
            [
                {
                    "type": "tool_result",
                    "id": "c",
                    "name": "icon",
                    "output": [{"type": "text", "text": "An icon."}, image],
                }
            ],
            "system",
        )

        sent = to_openai_chat([call, result])

        assert [
            {
                "role": "tool",
                "tool_call_id": "c",
                "content": [{"type": "text", "text": "An icon."}],
            },
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}
                ],
            },
        ] == sent.payload["messages"][1:]
        assert ["sent in a user message after the tool messages"] == [
            loss.substitute for loss in sent.losses
        ]

    def test_names(self):
        """A sender name travels in ``name``; one the API refuses is sent with underscores."""
        sent = to_openai_chat(
            [Msg("Ada Lovelace", "Hi", "user"), Msg("Jarvis", "Hello", "assistant")]
        )

        assert ["Ada_Lovelace", "Jarvis"] == [entry["name"] for entry in sent.payload["messages"]]
        assert ["messages[0].name"] == [loss.path for loss in sent.losses]

    def test_audio_and_video(self):
        """WAV and MP3 audio are sent as ``input_audio``; a video is reported dropped."""
        wav = {
            "type": "audio",
            "source": {"type": "base64", "media_type": "audio/wav", "data": "UklGRg=="},
        }
        video = {"type": "video", "source": {"type": "url", "url": "https://example.org/v.mp4"}}

        sent = to_openai_chat([Msg("user", [wav, video], "user")])

        assert [
            {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}
        ] == sent.payload["messages"][0]["content"]
        assert ["messages[0].content[1]"] == [loss.path for loss in sent.losses]

    def test_role_messages(self):
        """Role messages are converted through their Msg form."""
        call = {"name": "multiply", "arguments": '{"a": 7, "b": 8}', "id": "call_7"}
        conversation = [
            SystemMessage("Be brief."),
            HumanMessage("What is 7 times 8?"),
            AIMessage("", function_call=call),
            FunctionMessage("multiply", "56", call_id="call_7"),
        ]

        sent = to_openai_chat(conversation)

        assert ["system", "user", "assistant", "tool"] == [
            entry["role"] for entry in sent.payload["messages"]
        ]
        assert "call_7" == sent.payload["messages"][3]["tool_call_id"]
        [loss] = sent.losses  # the call's arguments text, which comes back parsed only
        assert ("messages[2].content[0].raw_input", "sent as the call's arguments") == (
            loss.path,
            loss.substitute,
        )

    @pytest.mark.parametrize(
        "bad", [None, "Hi", {"role": "user"}, [1], [Msg("a", "b", "user"), "c"]]
    )
    def test_rejects_what_is_not_a_conversation(self, bad):
        """Anything but a list of messages raises MessageError."""
        with pytest.raises(MessageError, match="must be a"):
            to_openai_chat(bad)

    def test_rejects_a_strict_that_is_not_a_bool(self):
        """``strict`` must be True or False."""
        with pytest.raises(MessageError, match=r"`strict` must be True or False, not 'yes'\."):
            to_openai_chat([], strict="yes")


class TestFromOpenAIChat:
    """:func:`agentmsg.from_openai_chat`."""

    RESPONSE: ClassVar[dict[str, Any]] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-x",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_9",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                        }
                    ],
                },
            }
        ],
        "usage": {"prompt_tokens": 20, "completion_tokens": 5, "total_tokens": 25},
    }

    def test_response(self):
        """A response gives an assistant message with the call, the id and the usage."""
        reply = from_openai_chat(self.RESPONSE)

        [msg] = reply.messages
        assert [
            {"type": "tool_use", "id": "call_9", "name": "get_weather", "input": {"city": "Oslo"}}
        ] == msg.content
        assert ("assistant", "assistant", "chatcmpl-1") == (msg.role, msg.name, msg.invocation_id)
        assert {
            "model": "gpt-x",
            "stop_reason": "tool_calls",
            "token_usage": {"prompt_tokens": 20, "completion_tokens": 5, "total_tokens": 25},
        } == msg.metadata
        assert () == reply.losses

    def test_usage_reaches_an_ai_message(self):
        """The usage in the metadata is what AIMessage.from_msg reads."""
        msg = from_openai_chat(self.RESPONSE).messages[0]

        assert 5 == AIMessage.from_msg(msg).token_count

    def test_tool_message_takes_the_call_name(self):
        """A tool message's result is named after the call with the same id."""
        payload = to_openai_chat(weather_conversation()).payload

        messages = from_openai_chat(payload).messages

        assert "get_weather" == messages[3].content[0]["name"]

    def test_unknown_fields_are_losses(self):
        """A provider field agentmsg has no place for is reported dropped."""
        payload = {
            "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi", "cache": 1}]}]
        }

        reply = from_openai_chat(payload)

        assert ["messages[0].content[0].cache"] == [loss.path for loss in reply.losses]

    def test_other_choices_are_losses(self):
        """Only the first choice is read; the others are reported."""
        response = {
            **self.RESPONSE,
            "choices": [*self.RESPONSE["choices"], {**self.RESPONSE["choices"][0], "index": 1}],
        }

        assert ["choices[1]"] == [loss.path for loss in from_openai_chat(response).losses]

    def test_refusal_is_kept_as_text(self):
        """A refusal becomes a text block, reported as a substitute."""
        response = {
            **self.RESPONSE,
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": None, "refusal": "I cannot."},
                }
            ],
        }

        reply = from_openai_chat(response)

        assert [{"type": "text", "text": "I cannot."}] == reply.messages[0].content
        assert ["kept as a text block"] == [loss.substitute for loss in reply.losses]

    def test_arguments_that_are_not_json(self):
        """Arguments that are not a JSON object leave an empty input and are kept, as the
        model wrote them, in the block's ``raw_input``: nothing is lost reading them.
        Sending the conversation back sends the input, and reports the text it leaves."""
        response = json.loads(json.dumps(self.RESPONSE))
        response["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = "{oops"

        reply = from_openai_chat(response)

        call = reply.messages[0].content[0]
        assert ({}, "{oops", ()) == (call["input"], call["raw_input"], reply.losses)
        sent = to_openai_chat(reply.messages)
        arguments = sent.payload["messages"][0]["tool_calls"][0]["function"]["arguments"]
        assert ("{}", ["messages[0].content[0].raw_input"]) == (
            arguments,
            [loss.path for loss in sent.losses],
        )

    @pytest.mark.parametrize(
        ("data", "path"),
        [
            ({"messages": [{"role": "robot", "content": "x"}]}, "messages[0].role"),
            ({"messages": [{"role": "user"}]}, "messages[0].content"),
            ({"messages": [{"role": "user", "content": 3}]}, "messages[0].content"),
            ({"messages": [{"role": "tool", "content": "x"}]}, "messages[0].tool_call_id"),
            ({"messages": "x"}, "messages"),
            ({"choices": []}, "choices"),
        ],
    )
    def test_bad_data_names_the_path(self, data, path):
        """Data that is not Chat Completions data raises MessageError naming the path."""
        with pytest.raises(MessageError) as caught:
            from_openai_chat(data)

        assert path == caught.value.path


_CALL = {"id": "call_9", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}
#: Values put in place of one value of a tool call (beside hostile_values).
_ODD_CALL_VALUES_LIST = [None, "", "x", "\ud800", "custom", "function", "[1]", "{", "null"]
_ODD_CALL_VALUES_LIST += [
    5,
    [],
    {},
    {"name": "f"},
    "\ud800{}",
    '{"a": "\\ud800"}',
    '{"a": "\ud800"}',
]


class _Agreeable(str):
    """A text equal to any other: a tool call's ``type`` that is every type at once."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


_ODD_CALL_VALUES_LIST.append(_Agreeable("function"))
_ODD_CALL_VALUES = st.sampled_from(_ODD_CALL_VALUES_LIST)


@st.composite
def odd_tool_calls(draw: st.DrawFn) -> Any:
    """A Chat Completions tool call with one value replaced, one key taken out or one
    added, at its top or in its function (or left as it is)."""
    call = json.loads(json.dumps(_CALL))
    holder = draw(st.sampled_from([call, call["function"]]))
    key = draw(st.sampled_from([*holder, "extra"]))
    change = draw(st.sampled_from(["value", "drop", "keep"]))
    if change == "drop" and key in holder:
        del holder[key]
    elif change == "value":
        holder[key] = draw(_ODD_CALL_VALUES | hostile_values)
    return call


class TestFromOpenAIChatQuickCalls:
    """The usual tool call is read the quick way; it agrees with the full check."""

    @staticmethod
    def read(call: Any, strict: bool, quick: bool) -> Any:
        """What a reader makes of *call*, the quick way or the full way: the block or
        the error, the losses and the tool names."""
        from agentmsg.providers.openai_chat import _Reader

        reader = _Reader("Chat Completions", strict)
        method = reader.tool_call if quick else reader.checked_call
        try:
            made = method(call, "choices[0].message.tool_calls[0]")
        except Exception as error:  # the two ways must fail alike, whatever the error
            made = (type(error).__name__, getattr(error, "path", None), str(error))
        return made, reader.losses, reader.names

    @pytest.mark.parametrize("value", _ODD_CALL_VALUES_LIST)
    @pytest.mark.parametrize("place", ["id", "type", "function", "name", "arguments", "extra"])
    def test_each_value_in_each_place(self, place, value):
        """Each odd value in each place of the usual call gives the same block or error
        and losses both ways."""
        call = json.loads(json.dumps(_CALL))
        (call["function"] if place in ("name", "arguments") else call)[place] = value

        assert self.read(call, False, False) == self.read(call, False, True)

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(call=odd_tool_calls(), strict=st.booleans())
    def test_a_tool_call_is_read_as_the_full_check_reads_it(self, call, strict):
        """Any tool call, of the usual shape or not, valid or not (hostile mappings whose
        reading raises included), gives the same block or error, losses and tool names
        the quick way and the full way."""
        assert self.read(call, strict, False) == self.read(call, strict, True)


class TestToOpenAIResponses:
    """:func:`agentmsg.to_openai_responses`."""

    def test_tool_round_trip_payload(self):
        """Tool calls and results become ``function_call`` and ``function_call_output`` items."""
        sent = to_openai_responses(weather_conversation())

        assert () == sent.losses
        assert [
            {"type": "message", "role": "system", "content": "Answer in one sentence."},
            {"type": "message", "role": "user", "content": "Is it raining in Lima?"},
            {"type": "message", "role": "assistant", "content": "Let me check."},
            {
                "type": "function_call",
                "call_id": "call_1",
                "name": "get_weather",
                "arguments": '{"city": "Lima"}',
            },
            {"type": "function_call_output", "call_id": "call_1", "output": "cloudy, 19 °C"},
            {"type": "message", "role": "assistant", "content": "No: it is cloudy and 19 °C."},
        ] == sent.payload["input"]

    def test_names_and_audio_are_reported(self):
        """Responses has no sender names and no audio input."""
        wav = {
            "type": "audio",
            "source": {"type": "base64", "media_type": "audio/wav", "data": "UklGRg=="},
        }

        sent = to_openai_responses([Msg("Ada", [wav], "user")])

        assert ["messages[0].name", "messages[0].content[0]"] == [loss.path for loss in sent.losses]


class TestFromOpenAIResponses:
    """:func:`agentmsg.from_openai_responses`."""

    def test_response_with_reasoning(self):
        """Reasoning, text and calls of one response make one assistant message."""
        response = {
            "id": "resp_1",
            "object": "response",
            "model": "gpt-x",
            "status": "completed",
            "output": [
                {
                    "type": "reasoning",
                    "id": "rs_1",
                    "summary": [{"type": "summary_text", "text": "Check the weather."}],
                },
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_2",
                    "name": "get_weather",
                    "arguments": '{"city": "Lima"}',
                },
            ],
            "usage": {"input_tokens": 10, "output_tokens": 4, "total_tokens": 14},
        }

        reply = from_openai_responses(response)

        [msg] = reply.messages
        assert [
            {"type": "thinking", "thinking": "Check the weather."},
            {"type": "tool_use", "id": "call_2", "name": "get_weather", "input": {"city": "Lima"}},
        ] == msg.content
        assert {"prompt_tokens": 10, "completion_tokens": 4, "total_tokens": 14} == msg.metadata[
            "token_usage"
        ]
        assert {"openai_responses": {"0": {"id": "rs_1"}, "1": {"id": "fc_1"}}} == msg.metadata[
            "provider_state"
        ]
        assert () == reply.losses

    def test_reasoning_goes_back_with_its_id(self):
        """A thinking block read from a reasoning item is sent back as that item, followed
        by the item it belongs to with its id."""
        item = {
            "type": "reasoning",
            "id": "rs_2",
            "summary": [{"type": "summary_text", "text": "Compare the two."}],
            "encrypted_content": "ZW5jcnlwdGVk",
        }
        call = {
            "type": "function_call",
            "call_id": "c1",
            "name": "f",
            "arguments": "{}",
            "id": "fc_1",
        }

        messages = from_openai_responses([item, call]).messages
        sent = to_openai_responses(messages)

        assert [item, call] == sent.payload["input"]
        assert () == sent.losses

    def test_summary_parts_are_joined(self):
        """Several summary parts make one thinking block; the parts stay in the provider
        state, to go back as they came, with the item's id and status."""
        parts = [{"type": "summary_text", "text": "One."}, {"type": "summary_text", "text": "Two."}]
        item = {"type": "reasoning", "id": "rs_3", "summary": parts, "status": "completed"}
        call = {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}

        reply = from_openai_responses([item, call])

        assert [{"type": "thinking", "thinking": "One.\n\nTwo."}] == reply.messages[0].content[:1]
        assert () == reply.losses
        call["id"] = "fc_3"  # the item after the reasoning item keeps its id
        reply = from_openai_responses([item, call])
        assert [item, call] == to_openai_responses(reply.messages).payload["input"]

    def test_summary_parts_without_an_id_are_reported_joined(self):
        """Without an id the reasoning item cannot go back: its parts are joined, reported."""
        parts = [{"type": "summary_text", "text": "One."}, {"type": "summary_text", "text": "Two."}]

        reply = from_openai_responses([{"type": "reasoning", "summary": parts}])

        assert [{"type": "thinking", "thinking": "One.\n\nTwo."}] == reply.messages[0].content
        assert ["joined into one thinking block"] == [loss.substitute for loss in reply.losses]

    def test_request_with_instructions(self):
        """``instructions`` become a system message and a string input a user message."""
        messages = from_openai_responses({"instructions": "Be brief.", "input": "Hi"}).messages

        assert [("system", "Be brief."), ("user", "Hi")] == [(m.role, m.content) for m in messages]


class TestToAnthropic:
    """:func:`agentmsg.to_anthropic`."""

    def test_tool_round_trip_payload(self):
        """The system prompt goes apart; tool results travel in a user message."""
        sent = to_anthropic(weather_conversation())

        assert () == sent.losses
        assert "Answer in one sentence." == sent.payload["system"]
        assert [
            {"role": "user", "content": "Is it raining in Lima?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Let me check."},
                    {
                        "type": "tool_use",
                        "id": "call_1",
                        "name": "get_weather",
                        "input": {"city": "Lima"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "call_1", "content": "cloudy, 19 °C"}
                ],
            },
            {"role": "assistant", "content": "No: it is cloudy and 19 °C."},
        ] == sent.payload["messages"]

    def test_a_late_system_message_moves_to_the_system_prompt(self):
        """A system message in the middle joins the system prompt, reported."""
        sent = to_anthropic([Msg("user", "Hi", "user"), Msg("system", "Be brief.", "system")])

        assert "Be brief." == sent.payload["system"]
        assert ["moved to the system prompt"] == [loss.substitute for loss in sent.losses]

    def test_signature_is_kept_for_the_way_back(self):
        """A thinking block keeps its text, and its signature goes to the provider state,
        from which to_anthropic sends it back."""
        response = {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "content": [
                {"type": "thinking", "thinking": "Easy.", "signature": "c2ln"},
                {"type": "text", "text": "56"},
            ],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": 3, "output_tokens": 2},
        }

        reply = from_anthropic(response)

        assert [
            {"type": "thinking", "thinking": "Easy."},
            {"type": "text", "text": "56"},
        ] == reply.messages[0].content
        assert () == reply.losses
        assert 5 == reply.messages[0].metadata["token_usage"]["total_tokens"]
        sent = to_anthropic(reply.messages)
        assert response["content"] == sent.payload["messages"][0]["content"]

    def test_redacted_thinking_goes_back(self):
        """Redacted thinking is kept as an empty thinking block and sent back as it came."""
        content = [
            {"type": "redacted_thinking", "data": "c2VjcmV0"},
            {"type": "text", "text": "Done."},
        ]

        reply = from_anthropic([{"role": "assistant", "content": content}])

        assert [
            {"type": "thinking", "thinking": ""},
            {"type": "text", "text": "Done."},
        ] == reply.messages[0].content
        assert content == to_anthropic(reply.messages).payload["messages"][0]["content"]

    def test_thinking_without_a_signature_is_dropped(self):
        """A thinking block the metadata keeps no signature for cannot be sent."""
        blocks = [{"type": "thinking", "thinking": "Hmm."}, {"type": "text", "text": "Hi"}]

        sent = to_anthropic([Msg("assistant", blocks, "assistant")])

        assert [{"type": "text", "text": "Hi"}] == sent.payload["messages"][0]["content"]
        assert [("messages[0].content[0]", True)] == [
            (loss.path, loss.dropped) for loss in sent.losses
        ]

    def test_user_message_with_results_and_text_is_split(self):
        """Tool results and the text beside them come back as two messages."""
        payload = {
            "messages": [
                {
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}],
                },
                {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": "t1", "content": "ok"},
                        {"type": "text", "text": "Thanks"},
                    ],
                },
            ]
        }

        messages = from_anthropic(payload).messages

        assert ["assistant", "system", "user"] == [msg.role for msg in messages]
        assert "f" == messages[1].content[0]["name"]


class TestGemini:
    """:func:`agentmsg.to_gemini` and :func:`agentmsg.from_gemini`."""

    def test_safety_ratings_and_prompt_feedback_are_reported(self):
        """A reply's safety ratings (of its candidate) and prompt feedback (of the
        response), as the REST API sends them, are reported dropped; the reply is read
        as before."""
        ratings = [
            {"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "NEGLIGIBLE"},
            {"category": "HARM_CATEGORY_HARASSMENT", "probability": "NEGLIGIBLE"},
        ]
        candidate = {"content": {"parts": [{"text": "Cheyenne"}]}, "finishReason": "STOP"}
        response = {
            "candidates": [{**candidate, "index": 0, "safetyRatings": ratings}],
            "promptFeedback": {"safetyRatings": ratings},
        }

        read = from_gemini(response)

        assert [
            ("candidates[0].safety_ratings", "safety ratings", True),
            ("prompt_feedback", "prompt feedback", True),
        ] == [(loss.path, loss.what, loss.dropped) for loss in read.losses]
        assert from_gemini({"candidates": [candidate]}).messages[0].content == (
            read.messages[0].content
        )
        with pytest.raises(MessageError, match=r"^`candidates\[0\]\.safety_ratings`"):
            from_gemini({"candidates": [{**candidate, "safetyRatings": ratings}]}, strict=True)

    def test_tool_round_trip_payload(self):
        """Calls and responses keep their ids; the output sits under ``output``."""
        sent = to_gemini(weather_conversation())

        assert () == sent.losses
        assert {"parts": [{"text": "Answer in one sentence."}]} == sent.payload[
            "system_instruction"
        ]
        assert {
            "role": "user",
            "parts": [
                {
                    "function_response": {
                        "id": "call_1",
                        "name": "get_weather",
                        "response": {"output": "cloudy, 19 °C"},
                    }
                }
            ],
        } == sent.payload["contents"][2]

    def test_camel_case_response(self):
        """The REST API's camelCase JSON is read as the snake_case one is."""
        response = {
            "responseId": "r1",
            "modelVersion": "gemini-x",
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [
                            {
                                "functionCall": {"name": "get_weather", "args": {"city": "Rome"}},
                                "thoughtSignature": "c2ln",
                            }
                        ],
                    },
                    "finishReason": "STOP",
                }
            ],
            "usageMetadata": {
                "promptTokenCount": 7,
                "candidatesTokenCount": 3,
                "totalTokenCount": 10,
            },
        }

        reply = from_gemini(response)

        [msg] = reply.messages
        assert [
            {
                "type": "tool_use",
                "id": "call_get_weather",
                "name": "get_weather",
                "input": {"city": "Rome"},
            }
        ] == msg.content
        assert ("r1", "gemini-x") == (msg.invocation_id, msg.metadata["model"])
        assert () == reply.losses
        [part] = to_gemini(reply.messages).payload["contents"][0]["parts"]
        assert "c2ln" == part["thought_signature"]

    def test_response_without_id_answers_the_oldest_call(self):
        """A function response without an id pairs with the unanswered call of its name."""
        contents = [
            {
                "role": "model",
                "parts": [
                    {"function_call": {"name": "f", "args": {}}},
                    {"function_call": {"name": "f", "args": {"x": 1}}},
                ],
            },
            {
                "role": "user",
                "parts": [
                    {"function_response": {"name": "f", "response": {"output": 1}}},
                    {"function_response": {"name": "f", "response": {"output": 2}}},
                ],
            },
        ]

        messages = from_gemini(contents).messages

        assert ["call_f", "call_f_2"] == [block["id"] for block in messages[0].content]
        assert [("call_f", 1), ("call_f_2", 2)] == [
            (b["id"], b["output"]) for b in messages[1].content
        ]

    def test_json_output_travels_as_json(self):
        """Gemini carries a JSON output as it is: nothing is reported."""
        call = Msg(
            "assistant", [{"type": "tool_use", "id": "c", "name": "f", "input": {}}], "assistant"
        )
        result = Msg(
            "system",
            [{"type": "tool_result", "id": "c", "name": "f", "output": {"sky": "sunny"}}],
            "system",
        )

        sent = to_gemini([call, result])

        assert () == sent.losses
        assert {"sky": "sunny"} == from_gemini(sent.payload).messages[1].content[0]["output"]


class TestMedia:
    """How media sources reach the formats."""

    def test_local_file_urls_are_reported(self):
        """A file: URL (or a path) is never read: every format reports it dropped."""
        report = Report("X", False)

        assert "local" == media_of({"type": "url", "url": "file:///tmp/a.png"}).form
        assert "local" == media_of({"type": "url", "url": "/tmp/a.png"}).form

        report.local("messages[0].content[0]", "image block", "file:///tmp/a.png")
        assert [True] == [loss.dropped for loss in report.losses]

    def test_data_url_is_base64(self):
        """A base64 data: URL is read as a base64 source."""
        media = media_of({"type": "url", "url": f"data:image/png;base64,{PNG}"})

        assert ("base64", "image/png", PNG) == tuple(media)


class TestRawInput:
    """A tool call's ``raw_input`` (when agentmsg's tool use block has one)."""

    def test_raw_input_is_sent_as_the_arguments(self):
        """Arguments text that says the same as the input is sent as it is."""
        from agentmsg.providers._common import arguments_text

        block = {
            "type": "tool_use",
            "id": "c",
            "name": "f",
            "input": {"a": 1},
            "raw_input": '{ "a" : 1 }',
        }

        assert '{ "a" : 1 }' == arguments_text(block)
        assert '{"a": 1}' == arguments_text({**block, "raw_input": '{"a": 2}'})

    def test_raw_input_that_differs_is_reported(self):
        """A raw_input the input does not match is reported dropped."""
        report = Report("Anthropic Messages", False)
        report.raw_input({"input": {"a": 1}, "raw_input": "{oops"}, "messages[0].content[0]")

        assert ["messages[0].content[0].raw_input"] == [loss.path for loss in report.losses]


class TestImport:
    """``import agentmsg`` stays light."""

    def test_conversions_are_imported_on_first_use(self):
        """The provider modules are loaded only when a conversion name is used."""
        code = (
            "import sys, agentmsg; before = 'agentmsg.providers' in sys.modules; "
            "agentmsg.to_gemini; print(before, 'agentmsg.providers' in sys.modules)"
        )
        printed = printed_by(code)

        assert "False True" == printed.strip()

    def test_unknown_names_raise_attribute_error(self):
        """The lazy loader does not invent names."""
        with pytest.raises(AttributeError, match="no attribute 'to_nowhere'"):
            agentmsg.to_nowhere  # noqa: B018


# -- properties ------------------------------------------------------------------------


@pytest.mark.parametrize("name", FORMATS)
class TestRoundTrips:
    """Random conversations through each format."""

    @SETTINGS
    @given(data=st.data())
    def test_what_the_format_carries_comes_back_whole(self, name, data):
        """A conversation of what the format carries converts with no loss and comes back
        equal (roles, names, content)."""
        to, back = converters(name)
        conversation = data.draw(conversations(**CARRIED[name]))

        sent = to(conversation)
        returned = back(sent.payload)

        assert () == sent.losses
        assert () == returned.losses
        assert normal(conversation) == normal(returned.messages)

    @SETTINGS
    @given(conversation=conversations(**ANYTHING))
    def test_to_from_to_is_stable(self, name, conversation):
        """Converting what came back gives the same payload again (ids and names kept)."""
        to, back = converters(name)

        sent = to(conversation)

        assert sent.payload == to(back(sent.payload).messages).payload

    @SETTINGS
    @given(conversation=conversations(**ANYTHING))
    def test_only_what_is_reported_is_lost(self, name, conversation):
        """Every block comes back unless a loss names it (or a part of it), and every
        block reported dropped is absent from what comes back."""
        to, back = converters(name)
        sent = to(conversation)
        returned = back(sent.payload).messages
        came_back = set(atoms(returned).values())
        reported = [loss.path for loss in sent.losses]

        for path, block in atoms(conversation).items():
            named = [p for p in reported if p == path or _within(p, path) or _within(path, p)]
            if not named:
                assert block in came_back, f"{path} lost without a report: {block}"
        for loss in sent.losses:
            if loss.dropped and loss.path in atoms(conversation):
                assert atoms(conversation)[loss.path] not in came_back, str(loss)

    @SETTINGS
    @given(conversation=conversations(**ANYTHING))
    def test_strict_raises_exactly_when_something_is_dropped(self, name, conversation):
        """Strict mode raises when the report holds a drop, and otherwise gives the same."""
        to, _ = converters(name)
        sent = to(conversation)

        if any(loss.dropped for loss in sent.losses):
            with pytest.raises(MessageError):
                to(conversation, strict=True)
        else:
            assert sent == to(conversation, strict=True)


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copied = json.loads(json.dumps(value))
    target = copied
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return copied


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=5)
    | st.sampled_from(["user", "text", "tool", "model", "image_url", "function_call"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["role", "type", "content", "text", "id", "name", "parts", "x"]),
            inner,
            max_size=3,
        )
    ),
    max_leaves=6,
)


@pytest.mark.parametrize("name", FORMATS)
class TestBadProviderData:
    """Whatever the provider data, a ``from_*`` function returns or raises MessageError."""

    @SETTINGS
    @given(data=st.data())
    def test_never_a_foreign_exception(self, name, data):
        """A valid payload with any one value replaced converts or raises MessageError."""
        to, back = converters(name)
        payload = to(data.draw(conversations(**ANYTHING))).payload
        path = data.draw(st.sampled_from(json_paths(payload)))
        broken = _replace(payload, path, data.draw(JSON))

        with contextlib.suppress(MessageError):
            back(broken)

    @SETTINGS
    @given(value=JSON)
    def test_random_json(self, name, value):
        """Random JSON converts or raises MessageError."""
        _, back = converters(name)

        with contextlib.suppress(MessageError):
            back(value)


class TestMsgLayout:
    """The Chat Completions fast path reads a Msg's stored fields by their named slots."""

    def test_slots_match_the_properties(self):
        """NAME_SLOT, ROLE_SLOT and CONTENT_SLOT find what the properties return."""
        from agentmsg._message import CONTENT_SLOT, NAME_SLOT, ROLE_SLOT

        msg = Msg("Ada", [{"type": "text", "text": "Hi"}], "user")

        assert (msg.name, msg.role, msg.content) == (
            msg._values[NAME_SLOT],
            msg._values[ROLE_SLOT],
            msg._values[CONTENT_SLOT],
        )


def _within(path: str, parent: str) -> bool:
    """Whether *path* names a part of what *parent* names."""
    return path.startswith((f"{parent}.", f"{parent}["))
