"""The conversation rules each provider's API enforces (docs/api.rst, "Conversation rules"):
one test per rule, on conversations written the way agents and the APIs write them."""

from __future__ import annotations

from typing import Any, ClassVar

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
from agentmsg.providers import anthropic, gemini, openai_chat, openai_responses

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
        """The item after a reasoning item goes back with its id; the message's two parts
        as one item again."""
        messages = from_openai_responses({"output": self.OUTPUT, "id": "resp_1"}).messages
        answer = result("call_porto", "rain")

        sent = to_openai_responses([*messages, answer])

        assert self.OUTPUT[:2] == sent.payload["input"][:2]
        assert {
            "type": "function_call",
            "call_id": "call_porto",
            "name": "get_forecast",
            "arguments": '{"city": "Porto"}',
        } == sent.payload["input"][2]
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

        assert [gemini.UNANSWERED, gemini.ORPHAN] == whys(sent.losses)
