"""The conversation rules each provider's API enforces (docs/api.rst, "Conversation rules"):
one test per rule, on conversations written the way agents and the APIs write them."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings

from agentmsg import (
    Msg,
    from_anthropic,
    from_gemini,
    from_openai_chat,
    from_openai_responses,
    to_anthropic,
    to_gemini,
    to_openai_chat,
    to_openai_responses,
)
from agentmsg.providers import FORMATS, anthropic, gemini, openai_chat, openai_responses
from agentmsg.providers._common import ambiguous_why
from provider_strategies import (
    colliding_conversations,
    converters,
    normal_content,
    pairing_faults,
    tool_blocks,
    tool_rounds,
)

PNG = (  # a 1x1 PNG
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def call(call_id: str, city: str, **extra: str) -> dict[str, object]:
    return {
        "type": "tool_use",
        "id": call_id,
        "name": "get_forecast",
        "input": {"city": city},
        **extra,
    }


def result(call_id: str, output: object) -> Msg:
    """A tool result in a message of its own, as FunctionMessage.to_msg and AgentScope write it."""
    return Msg(
        "system",
        [{"type": "tool_result", "id": call_id, "name": "get_forecast", "output": output}],
        "system",
    )


def two_calls() -> list[Msg]:
    """A question, two parallel calls, their results one message each, and the answer."""
    return [
        Msg("user", "Will it rain in Porto or in Bergen tomorrow?", "user"),
        Msg("assistant", [call("call_porto", "Porto"), call("call_bergen", "Bergen")], "assistant"),
        result("call_porto", "Porto: 80 % rain"),
        result("call_bergen", "Bergen: dry"),
        Msg("assistant", "Take an umbrella to Porto; Bergen stays dry.", "assistant"),
    ]


def whys(losses: tuple[object, ...]) -> list[str]:
    return [loss.why for loss in losses]  # type: ignore[attr-defined]


class TestOpenAIChat:
    def test_tool_messages_stay_together_when_results_hold_images(self):
        """The images of two results, one message each, follow the run of tool messages."""
        radar = [
            {"type": "text", "text": "radar"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        ]
        conversation = two_calls()
        conversation[2] = result("call_porto", radar)
        conversation[3] = result("call_bergen", radar)

        roles = [entry["role"] for entry in to_openai_chat(conversation).payload["messages"]]

        assert ["user", "assistant", "tool", "tool", "user", "assistant"] == roles

    def test_a_call_that_another_message_follows_unanswered_is_dropped(self):
        """A user message between a call and its result: the call and the result go."""
        conversation = two_calls()
        conversation.insert(2, Msg("user", "Hurry up, please.", "user"))

        sent = to_openai_chat(conversation)

        assert [
            openai_chat.UNANSWERED,
            openai_chat.UNANSWERED,
            openai_chat.ORPHAN,
            openai_chat.ORPHAN,
        ] == whys(sent.losses)
        assert ["user", "user", "assistant"] == [e["role"] for e in sent.payload["messages"]]

    def test_a_result_without_its_call_is_dropped(self):
        sent = to_openai_chat([Msg("user", "Hi", "user"), result("call_lost", "sunny")])

        assert [openai_chat.ORPHAN] == whys(sent.losses)
        assert [{"role": "user", "content": "Hi"}] == sent.payload["messages"]

    def test_a_conversation_may_end_with_calls(self):
        """The calls a conversation ends with wait for their results: sent as they are."""
        sent = to_openai_chat(two_calls()[:2])

        assert () == sent.losses
        assert 2 == len(sent.payload["messages"][1]["tool_calls"])

    def test_empty_content_beside_tool_calls_is_no_text(self):
        """`"content": ""` next to tool calls reads as no text, so no empty block reaches
        an API that refuses one."""
        reply = {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_forecast", "arguments": '{"city": "Porto"}'},
                }
            ],
        }

        [msg] = from_openai_chat([reply]).messages

        assert ["tool_use"] == [block["type"] for block in msg.content]
        assert [
            {"type": "tool_use", "id": "call_1", "name": "get_forecast", "input": {"city": "Porto"}}
        ] == to_anthropic([msg]).payload["messages"][0]["content"]

    def test_a_signature_held_on_a_block_is_reported(self):
        conversation = [
            Msg(
                "assistant",
                [{"type": "text", "text": "Done.", "thought_signature": "c2ln"}],
                "assistant",
            )
        ]

        [loss] = to_openai_chat(conversation).losses

        assert ("messages[0].content[0].thought_signature", "Gemini signature") == (
            loss.path,
            loss.what,
        )


class TestOpenAIResponses:
    OUTPUT: ClassVar[list[dict[str, Any]]] = [
        {
            "type": "reasoning",
            "id": "rs_7",
            "summary": [{"type": "summary_text", "text": "Porto first."}],
            "encrypted_content": "ZW5j",
        },
        {
            "type": "message",
            "id": "msg_7",
            "role": "assistant",
            "status": "completed",
            "content": [
                {"type": "output_text", "text": "Checking ", "annotations": []},
                {"type": "output_text", "text": "both.", "annotations": []},
            ],
        },
        {
            "type": "function_call",
            "id": "fc_7",
            "call_id": "call_porto",
            "name": "get_forecast",
            "arguments": '{"city": "Porto"}',
            "status": "completed",
        },
    ]

    def test_reasoning_goes_back_with_the_item_it_belongs_to(self):
        """The items after a reasoning item go back with their ids; the message's two parts
        as one item again."""
        messages = from_openai_responses({"output": self.OUTPUT, "id": "resp_1"}).messages
        answer = result("call_porto", "rain")

        sent = to_openai_responses([*messages, answer])

        assert self.OUTPUT == sent.payload["input"][:3]
        assert () == sent.losses

    def test_reasoning_without_the_id_of_what_follows_is_dropped(self):
        messages = from_openai_responses({"output": self.OUTPUT[:1], "id": "resp_1"}).messages
        messages[0].content = [messages[0].content[0], {"type": "text", "text": "Written by hand."}]

        sent = to_openai_responses(messages)

        assert [openai_responses.NOT_FOLLOWED] == whys(sent.losses)
        assert [
            {"type": "message", "role": "assistant", "content": "Written by hand."}
        ] == sent.payload["input"]

    def test_an_unanswered_call_and_an_orphan_output_are_dropped(self):
        conversation = two_calls()
        del conversation[3]
        conversation.append(result("call_elsewhere", "?"))
        conversation.append(Msg("user", "Thanks!", "user"))

        sent = to_openai_responses(conversation)

        assert [openai_responses.UNANSWERED, openai_responses.ORPHAN] == whys(sent.losses)

    def test_ids_of_other_items_are_reported(self):
        parsed = from_openai_responses(
            [{"type": "message", "id": "msg_u", "role": "user", "content": "Hi"}]
        )

        assert ["input[0].id"] == [loss.path for loss in parsed.losses]


class TestAnthropic:
    def test_results_one_message_each_pair_with_their_calls(self):
        """Two results in two messages answer the two calls: nothing is lost."""
        sent = to_anthropic(two_calls())

        assert () == sent.losses
        assert ["user", "assistant", "user", "user", "assistant"] == [
            e["role"] for e in sent.payload["messages"]
        ]

    def test_tool_results_move_before_other_content_of_the_user_turn(self):
        conversation = two_calls()
        conversation.insert(2, Msg("user", "Hurry up, please.", "user"))

        sent = to_anthropic(conversation)

        assert [anthropic.RESULTS_FIRST, anthropic.RESULTS_FIRST] == whys(sent.losses)
        turns = sent.payload["messages"]
        assert ["tool_result", "tool_result", "text"] == [
            turns[i]["content"][0]["type"] if isinstance(turns[i]["content"], list) else "text"
            for i in (2, 3, 4)
        ]

    def test_an_unanswered_call_and_an_orphan_result_are_dropped(self):
        conversation = two_calls()
        del conversation[3]
        conversation.append(result("call_bergen", "late"))

        sent = to_anthropic(conversation)

        assert [anthropic.UNANSWERED, anthropic.ORPHAN] == whys(sent.losses)

    def test_a_signature_on_the_block_is_sent(self):
        """AgentScope keeps the signature on the thinking block itself."""
        thinking = {"type": "thinking", "thinking": "Porto is wetter.", "signature": "EqQBCkYI"}
        sent = to_anthropic(
            [
                Msg("user", "Hi", "user"),
                Msg("assistant", [thinking, {"type": "text", "text": "Porto."}], "assistant"),
            ]
        )

        assert () == sent.losses
        assert thinking == sent.payload["messages"][1]["content"][0]

    def test_redacted_thinking_goes_back_and_is_no_empty_part_elsewhere(self):
        reply = {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "content": [
                {"type": "redacted_thinking", "data": "EmwKAhgBEgy3"},
                {"type": "text", "text": "Porto."},
            ],
        }
        [msg] = from_anthropic(reply).messages

        back = to_anthropic([Msg("user", "Hi", "user"), msg]).payload["messages"][1]["content"]
        elsewhere = to_gemini([Msg("user", "Hi", "user"), msg])

        assert {"type": "redacted_thinking", "data": "EmwKAhgBEgy3"} == back[0]
        assert [{"text": "Porto."}] == elsewhere.payload["contents"][1]["parts"]
        assert [gemini.EMPTY_PART] == whys(elsewhere.losses)

    def test_empty_text_and_empty_messages_are_not_sent(self):
        sent = to_anthropic(
            [
                Msg("user", [{"type": "text", "text": ""}, {"type": "text", "text": "Hi"}], "user"),
                Msg("assistant", [], "assistant"),
                Msg("user", "Still there?", "user"),
            ]
        )

        assert [anthropic.EMPTY_TEXT, anthropic.EMPTY_MESSAGE] == whys(sent.losses)
        assert 2 == len(sent.payload["messages"])


class TestGemini:
    def test_responses_to_one_turn_go_in_one_turn(self):
        sent = to_gemini(two_calls())

        turns = sent.payload["contents"]
        assert 2 == len(turns[2]["parts"])
        assert ["user", "model", "user", "model"] == [turn["role"] for turn in turns]
        assert gemini.ONE_TURN in whys(sent.losses)

    def test_an_error_goes_back_as_an_error(self):
        contents = [
            {"role": "user", "parts": [{"text": "Rain in Porto?"}]},
            {
                "role": "model",
                "parts": [
                    {
                        "function_call": {
                            "id": "c1",
                            "name": "get_forecast",
                            "args": {"city": "Porto"},
                        },
                        "thought_signature": "c2ln",
                    }
                ],
            },
            {
                "role": "user",
                "parts": [
                    {
                        "function_response": {
                            "id": "c1",
                            "name": "get_forecast",
                            "response": {"error": "service down"},
                        }
                    }
                ],
            },
        ]

        parsed = from_gemini(contents)
        sent = to_gemini(parsed.messages)

        assert contents == sent.payload["contents"]
        assert () == parsed.losses + sent.losses

    def test_thought_signatures_are_read_from_blocks_and_metadata(self):
        """A call keeps the signature given on its block (AgentScope) or in the metadata;
        a call without one goes without."""
        on_block = Msg("assistant", [call("c1", "Porto", thought_signature="c2ln")], "assistant")
        in_metadata = Msg(
            "assistant",
            [call("c2", "Bergen")],
            "assistant",
            {"provider_state": {"gemini": {"0": {"thought_signature": "bWV0YQ=="}}}},
        )
        bare = Msg("assistant", [call("c3", "Oslo")], "assistant")
        conversation = [
            Msg("user", "Go.", "user"),
            on_block,
            result("c1", "rain"),
            in_metadata,
            result("c2", "dry"),
            bare,
        ]

        sent = to_gemini(conversation)

        signatures = [
            part.get("thought_signature")
            for turn in sent.payload["contents"]
            for part in turn["parts"]
            if "function_call" in part
        ]
        assert ["c2ln", "bWV0YQ==", None] == signatures
        assert () == sent.losses

    def test_a_call_turn_right_after_a_model_turn_is_merged(self):
        conversation = [
            Msg("user", "Porto?", "user"),
            Msg("assistant", "Let me look.", "assistant"),
            Msg("assistant", [call("c1", "Porto", thought_signature="c2ln")], "assistant"),
        ]

        sent = to_gemini(conversation)

        assert [
            {"text": "Let me look."},
            {
                "function_call": {"id": "c1", "name": "get_forecast", "args": {"city": "Porto"}},
                "thought_signature": "c2ln",
            },
        ] == sent.payload["contents"][1]["parts"]
        assert [gemini.CALL_AFTER] == whys(sent.losses)

    def test_an_empty_part_with_a_signature_is_kept(self):
        """Gemini ends some replies with an empty text part that holds the signature."""
        reply = {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [{"text": "Porto."}, {"text": "", "thought_signature": "c2ln"}],
                    }
                }
            ]
        }
        [msg] = from_gemini(reply).messages

        sent = to_gemini([Msg("user", "Hi", "user"), msg])

        assert [{"text": "Porto."}, {"text": "", "thought_signature": "c2ln"}] == sent.payload[
            "contents"
        ][1]["parts"]

    def test_an_unanswered_call_and_an_orphan_response_are_dropped(self):
        conversation = two_calls()
        conversation[1].content[0]["thought_signature"] = "c2ln"
        conversation.insert(3, Msg("user", "Hurry up, please.", "user"))

        sent = to_gemini(conversation)

        assert [gemini.UNANSWERED, gemini.ALTERNATE, gemini.ORPHAN] == whys(sent.losses)


def per_turn_ids() -> list[Msg]:
    """Two rounds whose calls both have id "call_0", as agents that count calls per turn
    write them."""
    return [
        Msg("user", "Rain in Porto?", "user"),
        Msg("assistant", [call("call_0", "Porto")], "assistant"),
        result("call_0", "Porto: 80 % rain"),
        Msg("user", "And in Bergen?", "user"),
        Msg("assistant", [call("call_0", "Bergen")], "assistant"),
        result("call_0", "Bergen: dry"),
    ]


def twice_answered() -> list[Msg]:
    """A call answered by two results, in two messages."""
    conversation = two_calls()
    conversation.insert(3, result("call_porto", "Porto: dry after all"))
    return conversation


class TestSecondResults:
    """Every format takes one result per call: a second one is dropped, and said to be a
    second result, not a result without its call."""

    def test_openai_chat(self):
        sent = to_openai_chat(twice_answered())

        [second] = [loss for loss in sent.losses if loss.why == openai_chat.DUPLICATE]
        assert ("messages[3].content[0]", True) == (second.path, second.dropped)
        tools = [e["tool_call_id"] for e in sent.payload["messages"] if e["role"] == "tool"]
        assert ["call_porto", "call_bergen"] == tools

    def test_openai_chat_in_one_message(self):
        """Two results for one call in one message (the fast path of the writer)."""
        conversation = two_calls()[:2]
        conversation.append(
            Msg(
                "system",
                [
                    {"type": "tool_result", "id": i, "name": "get_forecast", "output": "ok"}
                    for i in ("call_porto", "call_porto", "call_bergen")
                ],
                "system",
            )
        )

        sent = to_openai_chat(conversation)

        assert [openai_chat.DUPLICATE] == whys(sent.losses)
        assert 2 == len([e for e in sent.payload["messages"] if e["role"] == "tool"])

    def test_openai_responses(self):
        sent = to_openai_responses(twice_answered())

        [second] = [loss for loss in sent.losses if loss.why == openai_responses.DUPLICATE]
        assert "messages[3].content[0]" == second.path
        outputs = [
            i["call_id"] for i in sent.payload["input"] if i["type"] == "function_call_output"
        ]
        assert ["call_porto", "call_bergen"] == outputs

    def test_anthropic(self):
        sent = to_anthropic(twice_answered())

        assert [anthropic.DUPLICATE] == whys(sent.losses)
        results = [
            block["tool_use_id"]
            for turn in sent.payload["messages"]
            if isinstance(turn["content"], list)
            for block in turn["content"]
            if block["type"] == "tool_result"
        ]
        assert ["call_porto", "call_bergen"] == results

    def test_gemini(self):
        sent = to_gemini(twice_answered())

        assert gemini.DUPLICATE in whys(sent.losses)
        responses = [
            part["function_response"]["id"]
            for turn in sent.payload["contents"]
            for part in turn["parts"]
            if "function_response" in part
        ]
        assert ["call_porto", "call_bergen"] == responses


class TestRepeatedCallIds:
    """Responses and Anthropic refuse a request in which two calls have one id: a call whose
    id an earlier call has is sent with a new id, and its results follow it."""

    def test_openai_responses(self):
        sent = to_openai_responses(per_turn_ids())

        pairs = [
            (item["type"], item["call_id"])
            for item in sent.payload["input"]
            if item["type"] in ("function_call", "function_call_output")
        ]
        assert [
            ("function_call", "call_0"),
            ("function_call_output", "call_0"),
            ("function_call", "call_0_2"),
            ("function_call_output", "call_0_2"),
        ] == pairs
        [loss] = sent.losses
        assert (
            "messages[4].content[0].id",
            "sent as 'call_0_2'",
            openai_responses.REPEATED_ID,
        ) == (
            loss.path,
            loss.substitute,
            loss.why,
        )

    def test_anthropic(self):
        sent = to_anthropic(per_turn_ids())

        ids = [
            block.get("id") or block.get("tool_use_id")
            for turn in sent.payload["messages"]
            if isinstance(turn["content"], list)
            for block in turn["content"]
        ]
        assert ["call_0", "call_0", "call_0_2", "call_0_2"] == ids
        assert [anthropic.REPEATED_ID] == whys(sent.losses)

    def test_anthropic_two_calls_of_one_id_in_one_turn(self):
        """The results answer the calls in order: the second result goes with the renamed
        second call, and each pairing in order is reported at the result."""
        conversation = [
            Msg("user", "Porto and Bergen?", "user"),
            Msg("assistant", [call("c", "Porto"), call("c", "Bergen")], "assistant"),
            result("c", "rain"),
            result("c", "dry"),
        ]

        sent = to_anthropic(conversation)

        answers = [turn["content"][0]["tool_use_id"] for turn in sent.payload["messages"][2:]]
        assert ["c", "c_2"] == answers
        ambiguous = ambiguous_why(anthropic.FORMAT)
        assert [anthropic.REPEATED_ID, ambiguous, ambiguous] == whys(sent.losses)
        assert ["messages[2].content[0].id", "messages[3].content[0].id"] == [
            loss.path for loss in sent.losses[1:]
        ]

    def test_chat_completions_and_gemini_pair_by_turn(self):
        """Chat Completions and Gemini pair a result with the turn right before it: the same
        id in two turns is sent as it is."""
        assert () == to_openai_chat(per_turn_ids()).losses
        assert [gemini.ALTERNATE] == whys(to_gemini(per_turn_ids()).losses)


class TestUnansweredBeforeAUserMessage:
    """A call whose conversation goes on with a user message before its result is refused
    by every API: it is dropped (and its message, when nothing else is left of it)."""

    CONVERSATION: ClassVar[list[Msg]] = [
        Msg("user", "Rain in Porto?", "user"),
        Msg("assistant", [call("call_porto", "Porto")], "assistant"),
        Msg("user", "Never mind, thanks.", "user"),
    ]

    def test_openai_chat(self):
        sent = to_openai_chat(self.CONVERSATION)

        assert [openai_chat.UNANSWERED] == whys(sent.losses)
        assert ["user", "user"] == [e["role"] for e in sent.payload["messages"]]

    def test_openai_responses(self):
        sent = to_openai_responses(self.CONVERSATION)

        assert [openai_responses.UNANSWERED] == whys(sent.losses)
        assert ["message", "message"] == [i["type"] for i in sent.payload["input"]]

    def test_anthropic(self):
        sent = to_anthropic(self.CONVERSATION)

        assert [anthropic.UNANSWERED] == whys(sent.losses)
        assert ["user", "user"] == [e["role"] for e in sent.payload["messages"]]

    def test_gemini(self):
        sent = to_gemini(self.CONVERSATION)

        assert [gemini.UNANSWERED, gemini.ALTERNATE] == whys(sent.losses)
        assert [["Rain in Porto?", "Never mind, thanks."]] == [
            [part["text"] for part in turn["parts"]] for turn in sent.payload["contents"]
        ]


class TestRoleOrder:
    def test_chat_completions_and_responses_take_system_messages_anywhere(self):
        """Both take a system message in the middle of the conversation where it is."""
        conversation = [
            Msg("user", "Hi", "user"),
            Msg("assistant", "Hello.", "assistant"),
            Msg("system", "From now on, answer in French.", "system"),
            Msg("user", "Thanks", "user"),
        ]

        chat = to_openai_chat(conversation)
        responses = to_openai_responses(conversation)

        assert () == chat.losses + responses.losses
        assert "system" == chat.payload["messages"][2]["role"]
        assert "system" == responses.payload["input"][2]["role"]

    def test_anthropic_takes_a_leading_assistant_message(self):
        """The Messages reference no longer asks for a user message first (it did until
        late 2024): a conversation that opens with the assistant is sent as it is."""
        conversation = [
            Msg("assistant", "Hello, how can I help?", "assistant"),
            Msg("user", "Rain in Porto?", "user"),
        ]

        sent = to_anthropic(conversation)

        assert () == sent.losses
        assert ["assistant", "user"] == [e["role"] for e in sent.payload["messages"]]

    def test_anthropic_final_assistant_text_without_trailing_space(self):
        """The final assistant message starts the reply, and Anthropic refuses one whose
        text ends with white space; an earlier one keeps it."""
        conversation = [
            Msg("user", "Name a city.", "user"),
            Msg("assistant", "Porto. ", "assistant"),
            Msg("user", "Another one, in the form 'City: name'.", "user"),
            Msg("assistant", [{"type": "text", "text": "City: "}], "assistant"),
        ]

        sent = to_anthropic(conversation)

        turns = sent.payload["messages"]
        assert "Porto. " == turns[1]["content"]
        assert [{"type": "text", "text": "City:"}] == turns[3]["content"]
        [loss] = sent.losses
        assert ("messages[3].content[0]", anthropic.TRAILING_SPACE) == (loss.path, loss.why)

    def test_gemini_merges_turns_of_one_role(self):
        """Two user messages in a row make one user turn."""
        sent = to_gemini([Msg("user", "Hi.", "user"), Msg("user", "Rain in Porto?", "user")])

        assert [{"role": "user", "parts": [{"text": "Hi."}, {"text": "Rain in Porto?"}]}] == (
            sent.payload["contents"]
        )
        assert [gemini.ALTERNATE] == whys(sent.losses)

    def test_gemini_user_text_after_responses_joins_their_turn(self):
        """A user message right after the results: one user turn, the responses first."""
        conversation = two_calls()[:4]
        conversation.append(Msg("user", "Thanks!", "user"))

        sent = to_gemini(conversation)

        last = sent.payload["contents"][-1]["parts"]
        assert ["function_response", "function_response", "text"] == [next(iter(p)) for p in last]
        assert [gemini.ONE_TURN, gemini.ALTERNATE] == whys(sent.losses)

    def test_gemini_contents_start_with_a_user_turn(self):
        """An assistant message before the first user message is dropped; model turns alone,
        a piece of a conversation for the caller to place, are sent as they are."""
        greeting = Msg("assistant", "Hello, how can I help?", "assistant")

        sent = to_gemini(
            [Msg("system", "Be brief.", "system"), greeting, Msg("user", "Hi", "user")]
        )
        alone = to_gemini([greeting])

        assert ["user"] == [turn["role"] for turn in sent.payload["contents"]]
        [loss] = sent.losses
        assert ("messages[1]", gemini.FIRST_USER, True) == (loss.path, loss.why, loss.dropped)
        assert () == alone.losses
        assert ["model"] == [turn["role"] for turn in alone.payload["contents"]]


class TestPairing:
    """The pairing of calls and results that the Anthropic and Gemini writers share."""

    def test_results_answer_waiting_calls_in_order(self):
        from agentmsg.providers._common import CallIds, Pairing, Report

        report = Report(anthropic.FORMAT, False)
        pairing = Pairing(CallIds("ids are unique"))
        calls = [call("c", "Porto"), call("c", "Bergen")]
        assert ["c", "c_2"] == [pairing.call(report, b, 1, i) for i, b in enumerate(calls)]
        msg = Msg(
            "system",
            [
                {"type": "tool_result", "id": "c", "name": "get_forecast", "output": x}
                for x in ("rain", "dry", "again")
            ],
            "system",
        )

        paired = pairing.results(report, msg, msg.content, 2, "orphan rule")

        assert [("messages[2].content[0]", "c"), ("messages[2].content[1]", "c_2")] == [
            (path, sent) for path, sent, _ in paired
        ]
        ambiguous = ambiguous_why(anthropic.FORMAT)
        assert ["ids are unique", ambiguous, ambiguous, anthropic.DUPLICATE] == whys(
            tuple(report.losses)
        )
        assert {} == pairing.waiting

    def test_unanswered_calls_are_dropped_at_their_place(self):
        from agentmsg.providers._common import CallIds, Pairing, Report

        report = Report("Gemini", False)
        pairing = Pairing(CallIds("ids are unique in each turn"), per_turn=True)
        conversation = two_calls()
        pairing.call(report, conversation[1].content[1], 1, 1)

        assert ["call_bergen"] == pairing.unanswered(report, conversation, "a rule")
        assert [("messages[1].content[1]", "a rule")] == [(x.path, x.why) for x in report.losses]


def one_round(call_id: str) -> list[Msg]:
    return [
        Msg("user", "Rain in Porto?", "user"),
        Msg("assistant", [call(call_id, "Porto")], "assistant"),
        result(call_id, "Porto: 80 % rain"),
    ]


class TestIdsTheApisTake:
    def test_chat_completions_shortens_ids_over_40_characters(self):
        """A Responses item id (53 characters) as a Chat Completions call id: sent shorter,
        the same in the call and in its tool message, and reported."""
        long_id = "fc_0f0e50a1476a6c35006912c58dc9f8819192c25864eb16f07f"

        sent = to_openai_chat(one_round(long_id))

        call_entry, tool = sent.payload["messages"][1:]
        sent_id = call_entry["tool_calls"][0]["id"]
        assert len(sent_id) <= openai_chat.MAX_ID
        assert sent_id == tool["tool_call_id"]
        assert sent_id == to_openai_chat(one_round(long_id)).payload["messages"][2]["tool_call_id"]
        [loss] = sent.losses
        assert ("messages[1].content[0].id", openai_chat.LONG_ID) == (loss.path, loss.why)

    def test_chat_completions_sends_ids_of_40_characters_as_they_are(self):
        sent = to_openai_chat(one_round("c" * 40))

        assert () == sent.losses
        assert "c" * 40 == sent.payload["messages"][2]["tool_call_id"]

    def test_anthropic_ids_hold_letters_digits_underscores_and_dashes(self):
        """An id such as 'terminal:0' (agents that name calls by tool and turn) is sent as
        'terminal_0', in the call and in its result."""
        sent = to_anthropic(one_round("terminal:0"))

        call_turn, result_turn = sent.payload["messages"][1:]
        assert "terminal_0" == call_turn["content"][0]["id"]
        assert "terminal_0" == result_turn["content"][0]["tool_use_id"]
        assert [anthropic.ID_CHARACTERS] == whys(sent.losses)

    def test_anthropic_a_cleaned_id_stays_unique(self):
        """'a:b' cleaned is 'a_b', the id of a later call: the cleaned id gets a number,
        and the call with 'a_b' of its own keeps it."""
        conversation = [
            *one_round("a:b"),
            Msg("user", "And Bergen?", "user"),
            Msg("assistant", [call("a_b", "Bergen")], "assistant"),
            result("a_b", "dry"),
        ]

        sent = to_anthropic(conversation)

        turns = sent.payload["messages"]
        assert ["a_b_2", "a_b"] == [turns[1]["content"][0]["id"], turns[4]["content"][0]["id"]]
        assert "a_b_2" == sent.payload["messages"][2]["content"][0]["tool_use_id"]
        assert "a_b" == sent.payload["messages"][5]["content"][0]["tool_use_id"]
        [loss] = sent.losses
        assert (anthropic.ID_CHARACTERS, "sent as 'a_b_2'") == (loss.why, loss.substitute)

    def test_responses_an_item_id_goes_once(self):
        """The same reply twice in a conversation: its reasoning item goes once, with its
        id, and the second copy of its message without it."""
        reply = from_openai_responses(
            {"output": TestOpenAIResponses.OUTPUT[:2], "id": "resp_1"}
        ).messages
        conversation = [
            Msg("user", "Porto?", "user"),
            *reply,
            Msg("user", "Say it again.", "user"),
            *reply,
        ]

        sent = to_openai_responses(conversation)

        ids = [item.get("id") for item in sent.payload["input"]]
        assert [None, "rs_7", "msg_7", None, None, None] == ids  # its two parts, one item each
        assert [openai_responses.SENT_BEFORE, openai_responses.ITEM_ID_AFTER_REASONING] == whys(
            sent.losses
        )
        assert "messages[3].content[1].id" == sent.losses[1].path  # the repeated reply


def calls_then_results(calls: list[tuple[str, str]], answers: list[tuple[str, str]]) -> list[Msg]:
    """A question, one assistant message with *calls* (id, city), then one message per
    result in *answers* (id, output)."""
    return [
        Msg("user", "Porto and Bergen?", "user"),
        Msg("assistant", [call(call_id, city) for call_id, city in calls], "assistant"),
        *(result(call_id, output) for call_id, output in answers),
    ]


def sent_pairs(payload: dict[str, Any]) -> dict[str, str]:
    """Each id sent with a call, with the city it asks about, and each result's output by
    the id it was sent with: {city: output}, the pairing the API will see."""
    cities: dict[str, str] = {}
    outputs: dict[str, str] = {}
    for item in payload.get("input", ()):
        if item["type"] == "function_call":
            cities[item["call_id"]] = json.loads(item["arguments"])["city"]
        elif item["type"] == "function_call_output":
            outputs[item["call_id"]] = item["output"]
    for turn in payload.get("messages", ()):
        for entry in turn.get("tool_calls", ()):
            cities[entry["id"]] = json.loads(entry["function"]["arguments"])["city"]
        if turn["role"] == "tool":
            outputs[turn["tool_call_id"]] = turn["content"]
        if isinstance(turn.get("content"), list):
            for block in turn["content"]:
                if block["type"] == "tool_use":
                    cities[block["id"]] = block["input"]["city"]
                elif block["type"] == "tool_result":
                    outputs[block["tool_use_id"]] = block["content"]
    for turn in payload.get("contents", ()):
        for part in turn["parts"]:
            if "function_call" in part:
                cities[part["function_call"]["id"]] = part["function_call"]["args"]["city"]
            elif "function_response" in part:
                response = part["function_response"]
                outputs[response["id"]] = response["response"]["output"]
    assert len(cities) == len(outputs)  # every call is sent with an id of its own
    return {cities[call_id]: output for call_id, output in outputs.items()}


TO = {key: api.to for key, api in FORMATS.items()}


class TestEveryResultStaysWithItsCall:
    """Renaming ids to satisfy an API never pairs a result with another call."""

    @pytest.mark.parametrize("name", list(TO))
    def test_two_calls_of_one_id_are_answered_in_order(self, name):
        """Two calls 'c' in one message, then their results: the first answers the first
        call, the second the renamed second call, and both pairings are reported."""
        conversation = calls_then_results(
            [("c", "Porto"), ("c", "Bergen")], [("c", "r0"), ("c", "r1")]
        )

        sent = TO[name](conversation)

        assert {"Porto": "r0", "Bergen": "r1"} == sent_pairs(sent.payload)
        ambiguous = [
            loss.path for loss in sent.losses if loss.why == ambiguous_why(sent_format(name))
        ]
        assert ["messages[2].content[0].id", "messages[3].content[0].id"] == ambiguous
        [rename] = [loss for loss in sent.losses if loss.path == "messages[1].content[1].id"]
        assert "sent as 'c_2'" == rename.substitute

    def test_chat_calls_written_inline_are_answered_by_results_that_are_not(self):
        """Chat Completions writes plain calls the quick way; results it cannot write so
        (JSON output, out of order) still answer their own calls, and nothing is dropped."""
        conversation = calls_then_results(
            [("a", "Porto"), ("b", "Bergen")], [("b", {"rain": False}), ("a", "rain")]
        )

        sent = to_openai_chat(conversation)

        assert {"Porto": "rain", "Bergen": '{"rain": false}'} == sent_pairs(sent.payload)
        assert [] == [loss for loss in sent.losses if loss.dropped]

    def test_anthropic_a_cleaned_id_never_takes_another_calls_id(self):
        """Calls 'a/b' and 'a_b', results in the order 'a_b', 'a/b': 'a/b' cleaned would be
        'a_b', the other call's id, so it is sent as 'a_b_2'; each result answers its own
        call."""
        conversation = calls_then_results(
            [("a/b", "Porto"), ("a_b", "Bergen")], [("a_b", "dry"), ("a/b", "rain")]
        )

        sent = to_anthropic(conversation)

        assert {"Porto": "rain", "Bergen": "dry"} == sent_pairs(sent.payload)
        [loss] = sent.losses
        assert ("messages[1].content[0].id", "sent as 'a_b_2'", anthropic.ID_CHARACTERS) == (
            loss.path,
            loss.substitute,
            loss.why,
        )

    def test_chat_completions_a_repeated_id_beside_text(self):
        """Two calls with one id and a text block after them (once a KeyError): the text
        moves before the calls, the second call is renamed, each result answers its call."""
        conversation = calls_then_results(
            [("c", "Porto"), ("c", "Bergen")], [("c", "rain"), ("c", "dry")]
        )
        conversation[1].content = [*conversation[1].content, {"type": "text", "text": "On it."}]

        sent = to_openai_chat(conversation)

        assert {"Porto": "rain", "Bergen": "dry"} == sent_pairs(sent.payload)
        assert openai_chat.REPEATED_ID in whys(sent.losses)

    def test_chat_completions_shortened_ids_stay_apart(self):
        """Two ids over 40 characters that share their first 40 are sent as two ids."""
        first, second = "x" * 45, "x" * 45 + "y"
        conversation = calls_then_results(
            [(first, "Porto"), (second, "Bergen")], [(second, "dry"), (first, "rain")]
        )

        sent = to_openai_chat(conversation)

        assert {"Porto": "rain", "Bergen": "dry"} == sent_pairs(sent.payload)
        assert 2 == whys(sent.losses).count(openai_chat.LONG_ID)

    def test_responses_ids_over_64_characters_are_shortened(self):
        """Responses refuses a call id over 64 characters (the API's
        ``string_above_max_length``): it is sent shorter, the same in its output."""
        long_id = "call_" + "7" * 70

        sent = to_openai_responses(one_round(long_id))

        call_item, output = sent.payload["input"][1:]
        assert len(call_item["call_id"]) <= openai_responses.MAX_ID
        assert call_item["call_id"] == output["call_id"]
        assert [openai_responses.LONG_ID] == whys(sent.losses)

    def test_gemini_two_calls_of_one_id_in_one_turn_get_ids_of_their_own(self):
        """Gemini finds a call by the id of its response: the second call 'c' of a turn is
        sent as 'c_2', and 'c' in a later turn is sent as it is."""
        conversation = [
            *per_turn_ids()[:3],
            *calls_then_results([("c", "Oslo"), ("c", "Rome")], [("c", "sun"), ("c", "rain")])[1:],
        ]

        sent = to_gemini(conversation)

        ids = [
            part["function_call"]["id"]
            for turn in sent.payload["contents"]
            for part in turn["parts"]
            if "function_call" in part
        ]
        assert ["call_0", "c", "c_2"] == ids
        assert {"Porto": "Porto: 80 % rain", "Oslo": "sun", "Rome": "rain"} == sent_pairs(
            sent.payload
        )

    @pytest.mark.parametrize("name", list(TO))
    @settings(max_examples=60, deadline=None)
    @given(conversation=tool_rounds())
    def test_any_ids(self, name, conversation):
        """Whatever ids the calls have: after to_X and from_X every result comes back with
        the id of the call it answered (known by position: the call's input names the
        result's output), the calls the API pairs by id have ids of their own, and every
        call that comes back with another id was reported, as was every result paired in
        order among calls of one id."""
        to, back = converters(name)
        sent = to(conversation)
        parsed = back(sent.payload)
        assert [] == pairing_faults(name, sent.payload)

        before = tool_blocks(conversation, "tool_use")
        after = tool_blocks(parsed.messages, "tool_use")
        assert len(before) == len(after)
        ids_of = {block["input"]["n"]: block["id"] for _, block in after}
        results = tool_blocks(parsed.messages, "tool_result")
        assert len(tool_blocks(conversation, "tool_result")) == len(results)
        for _, block in results:
            assert ids_of[int(block["output"].split()[1])] == block["id"]
        if name in ("openai_responses", "anthropic"):  # unique in the request
            assert len(after) == len({block["id"] for _, block in after})
        else:  # unique in each assistant message
            for msg in parsed.messages:
                turn = [b["id"] for b in normal_content(msg.content) if b["type"] == "tool_use"]
                assert len(turn) == len(set(turn))
        reported = {loss.path for loss in sent.losses}
        for (path, old), (_, new) in zip(before, after, strict=True):
            if old["id"] != new["id"]:
                assert f"{path}.id" in reported
        shared = ambiguous_why(sent_format(name))
        in_order = {loss.path for loss in sent.losses if loss.why == shared}
        for msg in conversation:
            if msg.role != "assistant" or isinstance(msg.content, str):
                continue
            counts = Counter(b["id"] for b in msg.content if b["type"] == "tool_use")
            for path, block in tool_blocks(conversation, "tool_result"):
                answered_here = block["output"].split()[1] in {
                    str(b["input"]["n"]) for b in msg.content if b["type"] == "tool_use"
                }
                if answered_here and counts[block["id"]] > 1:
                    assert f"{path}.id" in in_order
        if name == "anthropic":
            assert all(re.fullmatch(r"[a-zA-Z0-9_-]+", block["id"]) for _, block in after)
        limit = {"openai_chat": openai_chat.MAX_ID, "openai_responses": openai_responses.MAX_ID}
        if name in limit:
            assert all(len(block["id"]) <= limit[name] for _, block in after)


def sent_format(name: str) -> str:
    return FORMATS[name].title


class TestRenamingIsLinear:
    """Renaming a call id reused in every turn costs the same at each turn, not more."""

    def test_a_reused_id_is_numbered_without_searching_from_two(self):
        """4,000 calls 'call_0': each new id takes a bounded number of lookups (the old
        search from '_2' took about eight million), and they are call_0, call_0_2, ..."""
        from agentmsg.providers._common import CallIds, Report

        class Counting(set[str]):
            lookups = 0

            def __contains__(self, item: object) -> bool:
                Counting.lookups += 1
                return super().__contains__(item)

        ids = CallIds("unique")
        ids.taken = Counting()
        report = Report("Anthropic Messages", False)

        sent = [ids.sent(report, "call_0", f"messages[{i}].content[0].id") for i in range(4000)]

        assert ["call_0", "call_0_2", "call_0_3"] == sent[:3]
        assert "call_0_4000" == sent[-1]
        assert Counting.lookups <= 3 * 4000
        assert 3999 == len(report.losses)

    @pytest.mark.parametrize("name", ["openai_responses", "anthropic"])
    def test_4000_turns_reusing_an_id(self, name):
        """4,000 rounds that each call 'call_0' (agents that count calls per turn): every
        result answers its own round's call."""
        conversation = [Msg("user", "Go.", "user")]
        for turn in range(4000):
            conversation.append(Msg("assistant", [call("call_0", f"city {turn}")], "assistant"))
            conversation.append(result("call_0", f"answer {turn}"))

        sent = TO[name](conversation)

        pairs = sent_pairs(sent.payload)
        assert 4000 == len(pairs)
        assert all(f"answer {turn}" == pairs[f"city {turn}"] for turn in range(4000))
        assert 3999 == len(sent.losses)


class TestResultNames:
    """A result that names another tool than its call: every API pairs by the call's
    id, and Gemini names the call's function in the response too."""

    @pytest.mark.parametrize("name", list(TO))
    def test_the_results_own_name_is_reported(self, name):
        """The result goes with its call, under the call's tool name where the format
        repeats it, and its own name is reported dropped."""
        conversation = one_round("call_1")
        conversation[2].content = [{**conversation[2].content[0], "name": "other_tool"}]

        sent = TO[name](conversation)

        [loss] = sent.losses
        assert ("messages[2].content[0].name", True) == (loss.path, loss.dropped)
        if name == "gemini":
            response = sent.payload["contents"][-1]["parts"][0]["function_response"]
            assert "get_forecast" == response["name"]


class TestNothingVanishes:
    """What a request cannot carry is reported, never left out without a word."""

    def test_gemini_an_empty_thought_signature_is_not_written_nor_refused(self):
        """to_gemini wrote an empty signature that from_gemini refused: it is not written,
        it is reported, and from_gemini reads one as none, reported too."""
        reply = Msg(
            "assistant", [{"type": "text", "text": "Hi", "thought_signature": ""}], "assistant"
        )

        sent = to_gemini([Msg("user", "Hi", "user"), reply])
        read = from_gemini([{"role": "model", "parts": [{"text": "Hi", "thoughtSignature": ""}]}])

        assert [{"text": "Hi"}] == sent.payload["contents"][1]["parts"]
        assert [("messages[1].content[0].thought_signature", gemini.NO_SIGNATURE)] == [
            (loss.path, loss.why) for loss in sent.losses
        ]
        assert [{"type": "text", "text": "Hi"}] == read.messages[0].content
        assert [("contents[0].parts[0].thought_signature", True)] == [
            (loss.path, loss.dropped) for loss in read.losses
        ]

    @pytest.mark.parametrize(
        "after",
        [Msg("user", "", "user"), Msg("system", "Answer in French.", "system")],
        ids=["empty user message", "system message"],
    )
    def test_anthropic_the_last_assistant_turn_sent_loses_its_trailing_space(self, after):
        """An assistant message followed only by messages that are not sent as turns is
        the final turn, which starts the reply: its trailing white space goes, reported."""
        conversation = [
            Msg("user", "Name a city.", "user"),
            Msg("assistant", "Porto. ", "assistant"),
            after,
        ]

        sent = to_anthropic(conversation)

        assert {"role": "assistant", "content": "Porto."} == sent.payload["messages"][-1]
        assert anthropic.TRAILING_SPACE in whys(sent.losses)

    @pytest.mark.parametrize("name", ["anthropic", "gemini"])
    def test_a_signature_on_system_or_user_text_is_reported(self, name):
        """A signature on system text (a system prompt takes none) or on user text is
        reported dropped, by every format."""
        signed = {"type": "text", "text": "Be brief.", "thought_signature": "c2ln"}
        conversation = [
            Msg("system", [signed], "system"),
            Msg("user", [{**signed, "text": "Hi"}], "user"),
        ]

        sent = TO[name](conversation)

        assert [
            ("messages[0].content[0].thought_signature", True),
            ("messages[1].content[0].thought_signature", True),
        ] == [(loss.path, loss.dropped) for loss in sent.losses]

    @pytest.mark.parametrize("name", ["openai_chat", "openai_responses"])
    def test_raw_input_sent_as_the_arguments_is_reported(self, name):
        """Both OpenAI formats send a matching raw_input as the arguments text, which comes
        back as the parsed input only: the raw text is reported."""
        conversation = one_round("call_1")
        conversation[1].content = [{**conversation[1].content[0], "raw_input": '{"city":"Porto"}'}]
        to, back = converters(name)

        sent = to(conversation)

        assert "raw_input" not in back(sent.payload).messages[1].content[0]
        [loss] = sent.losses
        assert ("messages[1].content[0].raw_input", "sent as the call's arguments") == (
            loss.path,
            loss.substitute,
        )

    @pytest.mark.parametrize("name", ["anthropic", "gemini"])
    @pytest.mark.parametrize("content", ["", [], [{"type": "text", "text": ""}]])
    def test_an_empty_system_message_is_reported(self, name, content):
        """Anthropic and Gemini refuse empty system text: an empty system message (or text
        block) is not sent, and said so."""
        sent = TO[name]([Msg("system", content, "system"), Msg("user", "Hi", "user")])

        assert not {"system", "system_instruction"} & set(sent.payload)
        [loss] = sent.losses
        assert ("not sent", True) == (loss.substitute, "empty" in loss.what)


class TestEveryRequestObeysThePairingRules:
    """Whatever the conversation, the request pairs as the API wants: call ids unique
    where it pairs by them, of the characters and length it takes, each result right
    where the API looks for it and answering one call of its turn, every call answered
    but those the request ends with (see ``pairing_faults``)."""

    @pytest.mark.parametrize("name", list(TO))
    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(conversation=colliding_conversations())
    def test_any_conversation_with_colliding_ids(self, name, conversation):
        """Calls and results anywhere, in any number, with ids that repeat and collide."""
        to, back = converters(name)

        sent = to(conversation)

        assert [] == pairing_faults(name, sent.payload)
        assert [] == pairing_faults(name, to(back(sent.payload).messages).payload)

    @pytest.mark.parametrize("name", list(TO))
    def test_the_checker_finds_a_fault(self, name):
        """The check fails for a request whose second call 'c' kept its id, or whose
        result was sent before its call."""
        sent = TO[name](
            calls_then_results([("c", "Porto"), ("c", "Bergen")], [("c", "r0"), ("c", "r1")])
        )
        payload = json.loads(json.dumps(sent.payload).replace('"c_2"', '"c"'))

        assert [] != pairing_faults(name, payload)
