"""Tests for the role messages: HumanMessage, SystemMessage, AIMessage, FunctionMessage."""

from __future__ import annotations

import asyncio
import base64
import copy
import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentmsg import (
    AIMessage,
    AIMessageChunk,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    MediaError,
    Message,
    MessageAttributeError,
    MessageError,
    Msg,
    SystemMessage,
    TokenCountError,
    deterministic,
)
from samples import GIF, PNG, png_block

USAGE = {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}


class TestChatMessage:
    def test_base_class_cannot_be_created(self):
        """ChatMessage is only a base: creating one directly is a TypeError."""
        with pytest.raises(TypeError, match="base class"):
            ChatMessage("hi")

    def test_every_role_message_is_a_chat_message(self):
        """The four role classes share the ChatMessage base."""
        messages = [
            HumanMessage("a"),
            SystemMessage("b"),
            AIMessage("c"),
            FunctionMessage("f", "d"),
        ]
        assert [True] * 4 == [isinstance(message, ChatMessage) for message in messages]
        assert ["user", "system", "assistant", "function"] == [m.role for m in messages]

    @pytest.mark.parametrize(
        "message",
        [HumanMessage("a"), SystemMessage("b"), AIMessage("c"), FunctionMessage("f", "d")],
    )
    def test_unknown_attributes_raise_attribute_errors(self, message):
        """Setting, reading or deleting a name that is no field, or deleting a field,
        raises MessageAttributeError, a MessageError and an AttributeError."""
        kind = type(message).__name__
        fields = ", ".join(message._FIELDS)
        outcomes = []
        for action in (
            lambda: setattr(message, "mood", 1),
            lambda: message.mood,
            lambda: delattr(message, "mood"),
            lambda: delattr(message, "content"),
        ):
            with pytest.raises(MessageAttributeError) as info:
                action()
            outcomes.append(str(info.value))

        assert [
            f"`mood` is not a field of {kind}; the fields are {fields}.",
            f"`mood` is not a field of {kind}; the fields are {fields}.",
            f"`mood` is not a field of {kind}; the fields are {fields}.",
            f"`content` cannot be deleted from {'an' if kind[0] == 'A' else 'a'} {kind}; build a "
            "new message instead.",
        ] == outcomes
        assert (None, False) == (getattr(message, "mood", None), hasattr(message, "mood"))

    def test_classes_live_in_agentmsg(self):
        """The classes report the public module, where users import them from."""
        assert "<class 'agentmsg.HumanMessage'>" == repr(HumanMessage)

    def test_from_dict_picks_the_class_by_role(self):
        """ChatMessage.from_dict returns the role message that the payload's role names."""
        payloads = [
            {"role": "user", "content": "q"},
            {"role": "system", "content": "s"},
            {"role": "assistant", "content": "a"},
            {"role": "function", "name": "f", "content": "r"},
        ]
        kinds = [type(ChatMessage.from_dict(payload)) for payload in payloads]
        assert [HumanMessage, SystemMessage, AIMessage, FunctionMessage] == kinds

    def test_from_dict_on_a_subclass_insists_on_its_role(self):
        """HumanMessage.from_dict rejects a payload of another role, naming `role`."""
        with pytest.raises(MessageError, match="becomes a SystemMessage, not a HumanMessage"):
            HumanMessage.from_dict({"role": "system", "content": "s"})

    @pytest.mark.parametrize(
        ("data", "path", "fragment"),
        [
            ("user: hi", "", "must be a dict"),
            ({"content": "hi"}, "role", "`role` must be one of"),
            ({"role": "robot", "content": "hi"}, "role", "'robot'"),
            ({"role": "user"}, "content", "no `content` field"),
            ({"role": "user", "content": "hi", "extra": 1}, "extra", "`extra` is not a field"),
            ({"role": "system", "content": "hi", "files": []}, "files", "`files` is not a field"),
            ({"role": "function", "content": "hi"}, "name", "no `name` field"),
            ({"role": "user", "content": 3}, "content", "`content` must be a string"),
        ],
    )
    def test_from_dict_rejects_bad_payloads(self, data, path, fragment):
        """A malformed payload raises MessageError naming the field."""
        with pytest.raises(MessageError, match=fragment) as info:
            ChatMessage.from_dict(data)
        assert path == info.value.path

    def test_from_msg_rejects_non_messages(self):
        """from_msg takes a Msg; a dict is rejected with a MessageError naming `msg`."""
        with pytest.raises(MessageError, match="`msg` must be a Msg, not dict") as info:
            ChatMessage.from_msg({"role": "user", "content": "hi"})
        assert "msg" == info.value.path

    def test_from_msg_picks_the_class_by_role_and_content(self):
        """User, assistant and system Msgs map by role; a lone tool result is a function."""
        result = [{"type": "tool_result", "id": "1", "name": "f", "output": "ok"}]
        msgs = [
            Msg("u", "q", "user"),
            Msg("a", "a", "assistant"),
            Msg("s", "s", "system"),
            Msg("t", result, "user"),
        ]
        kinds = [type(ChatMessage.from_msg(msg)) for msg in msgs]
        assert [HumanMessage, AIMessage, SystemMessage, FunctionMessage] == kinds

    def test_from_msg_on_a_subclass_insists_on_its_class(self):
        """AIMessage.from_msg rejects a user Msg."""
        with pytest.raises(MessageError, match="becomes a HumanMessage, not an AIMessage"):
            AIMessage.from_msg(Msg("u", "q", "user"))

    def test_from_msg_keeps_a_sender_name_but_not_the_default(self):
        """A Msg's name is kept unless it is the role's default sender name."""
        assert "Ada" == ChatMessage.from_msg(Msg("Ada", "q", "user")).name
        assert ChatMessage.from_msg(Msg("user", "q", "user")).name is None
        assert ChatMessage.from_msg(Msg("assistant", "a", "assistant")).name is None

    def test_to_msg_name_argument_wins(self):
        """to_msg(name=...) sets the sender name, over the message's own and the default."""
        assert "Bob" == HumanMessage("q", name="Ada").to_msg(name="Bob").name
        assert "Ada" == HumanMessage("q", name="Ada").to_msg().name
        assert "user" == HumanMessage("q").to_msg().name
        assert "system" == SystemMessage("s").to_msg().name
        assert "assistant" == AIMessage("a").to_msg().name

    def test_assigning_a_field_is_refused(self):
        """Fields other than token_count cannot be assigned after creation."""
        message = HumanMessage("q")
        with pytest.raises(MessageError, match="cannot be changed") as info:
            message.content = "other"
        assert "content" == info.value.path
        assert "q" == message.content

    def test_assigning_an_unknown_attribute_is_refused(self):
        """Assigning an attribute that is not a field raises MessageError naming it."""
        with pytest.raises(MessageError, match="`colour` is not a field of AIMessage") as info:
            AIMessage("a").colour = "red"
        assert "colour" == info.value.path

    def test_equality_compares_class_and_fields(self):
        """Messages are equal when their class and every field are equal."""
        assert HumanMessage("q") == HumanMessage("q")
        assert HumanMessage("q") != HumanMessage("other")
        assert HumanMessage("q") != SystemMessage("q")
        assert HumanMessage("q") != "q"

    @settings(max_examples=50)
    @given(st.deferred(lambda: role_messages))
    def test_copy_and_pickle_keep_the_message(self, message):
        """copy, deepcopy and pickle give back an equal message of the same class."""
        copies = [
            copy.copy(message),
            copy.deepcopy(message),
            pickle.loads(pickle.dumps(message)),
        ]
        assert [message] * 3 == copies

    def test_repr_adds_the_class_name(self):
        """repr is the str form with the class name in front."""
        expected = "<SystemMessage role: 'system', content: 'Be brief.', token_count: 9>"
        assert expected == repr(SystemMessage("Be brief."))

    def test_repr_html_is_that_of_the_msg_form(self):
        """In a notebook a role message renders as its Msg form does."""
        message = AIMessage("Let me check.", {"name": "weather", "arguments": '{"city": "Oslo"}'})
        with deterministic(seed=3):
            expected = message.to_msg()._repr_html_()
        with deterministic(seed=3):
            actual = message._repr_html_()
        assert expected == actual
        assert "weather" in actual

    def test_repr_html_is_none_when_there_is_no_msg_form(self):
        """A message that cannot become a Msg (bad arguments) has no HTML form."""
        message = AIMessage("", {"name": "f", "arguments": "not json"})
        assert message._repr_html_() is None


class TestTokenCount:
    def test_unknown_count_raises_a_clear_error(self):
        """Reading an unset count raises TokenCountError that says how to set it."""
        with pytest.raises(TokenCountError, match="not known yet; set `token_count`") as info:
            _ = HumanMessage("q").token_count
        assert "token_count" == info.value.path

    def test_count_can_be_set_once(self):
        """Setting an unknown count makes it known and shows it in str."""
        message = FunctionMessage("f", "r")
        message.token_count = 4
        assert 4 == message.token_count
        assert "<role: 'function', name: 'f', content: 'r', token_count: 4>" == str(message)

    def test_setting_a_count_again_replaces_it_and_logs(self, caplog):
        """A second assignment replaces the count, as in ERNIE Bot Agent, and logs a
        warning that names both counts."""
        message = HumanMessage("q")
        message.token_count = 4
        with caplog.at_level("WARNING", logger="agentmsg"):
            message.token_count = 5
        assert 5 == message.token_count
        assert ["The token count of this HumanMessage was already known (4); it is now 5."] == [
            record.getMessage() for record in caplog.records
        ]

    def test_system_and_ai_counts_can_be_set_again(self):
        """System and AI messages know their count from the start; setting it replaces it
        (ERNIE Bot Agent's SystemMessage docstring does so), and a bad value is refused."""
        for message in (SystemMessage("abc"), AIMessage("abc")):
            message.token_count = 1
            assert 1 == message.token_count
            with pytest.raises(TokenCountError, match="integer >= 0"):
                message.token_count = -1
            assert 1 == message.token_count

    def test_a_count_set_again_survives_a_msg(self):
        """A count that differs from what the message works out travels in the Msg."""
        for message in (SystemMessage("abc"), AIMessage("abc"), HumanMessage("abc")):
            message.token_count = 9
            assert message == ChatMessage.from_msg(message.to_msg())

    def test_getattr_default_applies_while_the_count_is_unknown(self):
        """The error is an AttributeError too, so ``getattr(m, "token_count", None)`` and
        ``hasattr`` work as for an attribute that is not there yet."""
        message = HumanMessage("q")
        before = (getattr(message, "token_count", None), hasattr(message, "token_count"))
        message.token_count = 3

        assert ((None, False), (3, True)) == (
            before,
            (getattr(message, "token_count", None), hasattr(message, "token_count")),
        )

    @pytest.mark.parametrize("value", [-1, True, 1.5, "3", None])
    def test_invalid_counts_are_rejected(self, value):
        """A count must be an integer >= 0; anything else raises TokenCountError."""
        message = HumanMessage("q")
        with pytest.raises(TokenCountError, match="`token_count` must be an integer >= 0"):
            message.token_count = value
        with pytest.raises(TokenCountError, match="not known yet"):
            _ = message.token_count


class TestHumanMessage:
    def test_attributes_and_payload(self):
        """A human message has role user, its content, and a role/content payload."""
        message = HumanMessage("What is 2 + 2?")
        assert ("user", "What is 2 + 2?", None, []) == (
            message.role,
            message.content,
            message.name,
            message.files,
        )
        assert {"role": "user", "content": "What is 2 + 2?"} == message.to_dict()

    def test_name_appears_in_payload_and_str(self):
        """A sender name is part of the payload and of str."""
        message = HumanMessage("hi", name="Ada")
        assert {"role": "user", "name": "Ada", "content": "hi"} == message.to_dict()
        assert "<role: 'user', name: 'Ada', content: 'hi'>" == str(message)

    @pytest.mark.parametrize(
        ("kwargs", "path"),
        [
            ({"content": None}, "content"),
            ({"content": ["a"]}, "content"),
            ({"content": "q", "name": ""}, "name"),
            ({"content": "q", "name": 5}, "name"),
            ({"content": "q", "files": "a.png"}, "files"),
            ({"content": "q", "files": [{"type": "text", "text": "x"}]}, "files[0].type"),
            ({"content": "q", "files": [{"type": "image"}]}, "files[0].source"),
        ],
    )
    def test_bad_fields_are_rejected(self, kwargs, path):
        """A wrong type or value raises MessageError whose path names the field."""
        with pytest.raises(MessageError) as info:
            HumanMessage(**kwargs)
        assert path == info.value.path

    def test_create_with_files_reads_paths_and_bytes(self, tmp_path):
        """Paths and bytes become base64 media blocks, read at once."""
        picture = tmp_path / "chart.png"
        picture.write_bytes(PNG)
        message = HumanMessage.create_with_files("Compare these", [picture, str(picture), GIF])
        kinds = [block["source"]["media_type"] for block in message.files]
        assert ["image/png", "image/png", "image/gif"] == kinds
        assert PNG == base64.b64decode(message.files[0]["source"]["data"])
        expected = (
            "<role: 'user', content: 'Compare these', "
            "files: ['image/png', 'image/png', 'image/gif']>"
        )
        assert expected == str(message)

    def test_create_with_files_names_a_missing_file(self, tmp_path):
        """A missing file raises MediaError naming its position and path."""
        missing = tmp_path / "nope.png"
        with pytest.raises(MediaError, match=r"`files\[1\]`: `path` names no file") as info:
            HumanMessage.create_with_files("q", [PNG, missing])
        assert "files[1]" == info.value.path
        assert "nope.png" in str(info.value)

    def test_create_with_files_rejects_unsupported_files(self, tmp_path):
        """A file in no supported media format raises MediaError naming it."""
        notes = tmp_path / "notes.txt"
        notes.write_text("just text")
        with pytest.raises(MediaError, match="Cannot tell the media type") as info:
            HumanMessage.create_with_files("q", [notes])
        assert "files[0]" == info.value.path

    @pytest.mark.parametrize(("files", "path"), [("a.png", "files"), ([3], "files[0]")])
    def test_create_with_files_rejects_bad_arguments(self, files, path):
        """files must be a list of paths or bytes."""
        with pytest.raises(MessageError) as info:
            HumanMessage.create_with_files("q", files)
        assert path == info.value.path

    def test_files_change_in_place_checked(self):
        """A valid change to the files is kept; an invalid one is refused and undone."""
        message = HumanMessage("q", files=[png_block()])
        message.files.append(png_block())
        assert [png_block(), png_block()] == message.files
        with pytest.raises(MessageError) as info:
            message.files[0]["type"] = "text"
        assert [png_block(), png_block()] == message.files
        assert info.value.path.startswith("files[0]")

    def test_payload_carries_the_files(self):
        """The payload lists the media blocks, and from_dict reads them back."""
        message = HumanMessage("q", files=[png_block()])
        assert [png_block()] == message.to_dict()["files"]
        assert message == ChatMessage.from_dict(message.to_dict())

    def test_to_msg_puts_media_after_the_text(self):
        """With files, the Msg content is a text block followed by the media blocks."""
        msg = HumanMessage("Look", files=[png_block()]).to_msg()
        assert ("user", [{"type": "text", "text": "Look"}, png_block()]) == (msg.role, msg.content)

    def test_to_msg_without_files_keeps_string_content(self):
        """Without files, the Msg content is the plain string."""
        msg = HumanMessage("hello").to_msg()
        assert ("user", "user", "hello", None) == (msg.name, msg.role, msg.content, msg.metadata)

    def test_known_count_travels_in_metadata(self):
        """A set token count goes into the Msg metadata and comes back."""
        message = HumanMessage("hello")
        message.token_count = 2
        msg = message.to_msg()
        assert {"token_count": 2} == msg.metadata
        assert 2 == ChatMessage.from_msg(msg).token_count

    def test_from_msg_joins_text_and_keeps_media(self):
        """Text blocks join with newlines; media blocks become files."""
        text = [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}]
        msg = Msg("Ada", [*text, png_block()], "user")
        message = ChatMessage.from_msg(msg)
        assert ("one\ntwo", [png_block()], "Ada") == (message.content, message.files, message.name)

    def test_from_msg_rejects_blocks_it_cannot_carry(self):
        """A tool_use block in a user Msg raises MessageError naming the block."""
        use = {"type": "tool_use", "id": "1", "name": "f", "input": {}}
        with pytest.raises(MessageError, match="is a tool_use block") as info:
            ChatMessage.from_msg(Msg("u", [{"type": "text", "text": "q"}, use], "user"))
        assert "content[1]" == info.value.path

    def test_bad_token_count_in_metadata_is_named(self):
        """A token count in Msg metadata is validated and named by its path."""
        msg = Msg("u", "q", "user", metadata={"token_count": "many"})
        with pytest.raises(TokenCountError) as info:
            ChatMessage.from_msg(msg)
        assert "metadata.token_count" == info.value.path


class TestSystemMessage:
    def test_count_is_the_number_of_characters(self):
        """A system message counts the characters of its content, at creation."""
        assert 18 == SystemMessage("请用简单的语言回答，每次不超过三句话").token_count
        assert 0 == SystemMessage("").token_count

    def test_payload_and_msg(self):
        """The payload has role system; the Msg has role and name system, no metadata."""
        message = SystemMessage("Answer in French.")
        assert {"role": "system", "content": "Answer in French."} == message.to_dict()
        msg = message.to_msg()
        expected = ("system", "system", "Answer in French.", None)
        assert expected == (msg.name, msg.role, msg.content, msg.metadata)
        assert message == ChatMessage.from_msg(msg)

    def test_from_msg_rejects_media(self):
        """A system Msg with an image cannot become a SystemMessage."""
        with pytest.raises(MessageError, match="which a SystemMessage cannot carry") as info:
            ChatMessage.from_msg(Msg("s", [png_block()], "system"))
        assert "content[0]" == info.value.path


class TestAIMessage:
    def test_count_comes_from_usage(self):
        """With token_usage, the count is completion_tokens."""
        message = AIMessage("Four.", token_usage=USAGE)
        assert 5 == message.token_count
        assert USAGE == message.token_usage

    def test_count_is_estimated_without_usage(self):
        """Without token_usage, the count is ERNIE Bot's estimate of the content alone
        (three words: 1.3 each, rounded down), as in ERNIE Bot Agent."""
        call = {"name": "add", "thoughts": "I should add", "arguments": '{"a": 2}'}
        assert 3 == AIMessage("Four, of course.").token_count
        assert 1 == AIMessage("ok", call).token_count
        assert 0 == AIMessage("", call).token_count

    def test_payload_has_the_function_call(self):
        """The payload carries the function call as given."""
        call = {"name": "add", "thoughts": "adding", "arguments": '{"a": 2, "b": 2}'}
        expected = {
            "role": "assistant",
            "content": "",
            "function_call": call,
            "plugin_info": None,
            "search_info": None,
        }
        assert expected == AIMessage("", function_call=call).to_dict()

    def test_function_call_change_in_place_checked(self):
        """A valid change to the function call is kept (ERNIE Bot Agent's remote toolkit
        renames calls so); an invalid one is refused and undone."""
        message = AIMessage("", {"name": "add", "arguments": "{}"})
        message.function_call["name"] = "maths/add"
        assert "maths/add" == message.function_call["name"]
        with pytest.raises(MessageError) as info:
            message.function_call["name"] = 3
        assert ("maths/add", "function_call.name") == (
            message.function_call["name"],
            info.value.path,
        )

    @pytest.mark.parametrize(
        ("call", "path"),
        [
            ("add()", "function_call"),
            ({"name": "add"}, "function_call.arguments"),
            ({"arguments": "{}"}, "function_call.name"),
            ({"name": 7, "arguments": "{}"}, "function_call.name"),
            ({"name": "add", "arguments": {"a": 1}}, "function_call.arguments"),
            ({"name": "add", "arguments": "{}", "thoughts": 1}, "function_call.thoughts"),
            ({"name": "add", "arguments": "{}", "id": ""}, "function_call.id"),
            ({"name": "add", "arguments": "{}", "why": "x"}, "function_call.why"),
        ],
    )
    def test_bad_function_calls_are_rejected(self, call, path):
        """A malformed function call raises MessageError naming the field."""
        with pytest.raises(MessageError) as info:
            AIMessage("", function_call=call)
        assert path == info.value.path

    @pytest.mark.parametrize(
        ("usage", "path"),
        [
            ([1, 2, 3], "token_usage"),
            ({"prompt_tokens": 1, "total_tokens": 2}, "token_usage.completion_tokens"),
            ({"completion_tokens": 1}, "token_usage.prompt_tokens"),
            ({**USAGE, "cached_tokens": 0}, "token_usage.cached_tokens"),
            ({**USAGE, "completion_tokens": -1}, "token_usage.completion_tokens"),
            ({**USAGE, "prompt_tokens": True}, "token_usage.prompt_tokens"),
            ({**USAGE, "total_tokens": 17.0}, "token_usage.total_tokens"),
        ],
    )
    def test_bad_token_usage_is_rejected(self, usage, path):
        """token_usage needs prompt_tokens and completion_tokens, maybe total_tokens, as
        integers >= 0, and nothing else."""
        with pytest.raises(MessageError) as info:
            AIMessage("a", token_usage=usage)
        assert path == info.value.path

    def test_to_msg_turns_the_call_into_blocks(self):
        """Thoughts, text and call become thinking, text and tool_use blocks, in that
        order; the arguments text is the tool_use block's raw_input."""
        call = {"name": "add", "thoughts": "Use the tool.", "arguments": '{"a": 2, "b": 2}'}
        msg = AIMessage("Let me add.", call, USAGE).to_msg()
        expected = [
            {"type": "thinking", "thinking": "Use the tool."},
            {"type": "text", "text": "Let me add."},
            {
                "type": "tool_use",
                "id": "call_add",
                "name": "add",
                "input": {"a": 2, "b": 2},
                "raw_input": '{"a": 2, "b": 2}',
            },
        ]
        assert ("assistant", "assistant", expected) == (msg.name, msg.role, msg.content)
        assert {"token_usage": USAGE} == msg.metadata

    def test_call_id_is_kept(self):
        """A function call's own id becomes the tool_use id."""
        call = {"name": "add", "arguments": "{}", "id": "c-17"}
        assert "c-17" == AIMessage("", call).to_msg().content[0]["id"]

    @pytest.mark.parametrize(
        ("arguments", "fragment"),
        [
            ("{'a': 1}", "is not valid JSON"),
            ("", "is not valid JSON"),
            ("[1, 2]", "must hold a JSON object"),
            ('{"a": NaN}', "finite number"),
        ],
    )
    def test_bad_arguments_fail_on_conversion(self, arguments, fragment):
        """Arguments that are not a JSON object raise MessageError naming them."""
        message = AIMessage("", {"name": "add", "arguments": arguments})
        with pytest.raises(MessageError, match=fragment) as info:
            message.to_msg()
        assert info.value.path.startswith("function_call.arguments")

    def test_from_msg_reads_a_tool_use(self):
        """A tool_use block becomes the function call, thinking its thoughts."""
        blocks = [
            {"type": "thinking", "thinking": "Weather needs a lookup."},
            {"type": "tool_use", "id": "w1", "name": "weather", "input": {"city": "北京"}},
        ]
        message = ChatMessage.from_msg(Msg("Jarvis", blocks, "assistant"))
        expected = {
            "name": "weather",
            "thoughts": "Weather needs a lookup.",
            "arguments": '{"city": "北京"}',
            "id": "w1",
        }
        assert ("", expected, "Jarvis") == (message.content, message.function_call, message.name)

    @pytest.mark.parametrize(
        ("blocks", "path"),
        [
            ([{"type": "thinking", "thinking": "hmm"}], "content[0]"),
            (
                [
                    {"type": "tool_use", "id": "1", "name": "f", "input": {}},
                    {"type": "tool_use", "id": "2", "name": "g", "input": {}},
                ],
                "content[1]",
            ),
            ([{"type": "text", "text": "see"}, png_block()], "content[1]"),
        ],
    )
    def test_from_msg_rejects_what_it_cannot_carry(self, blocks, path):
        """Lone thoughts, a second call and media raise MessageError naming the block."""
        with pytest.raises(MessageError) as info:
            ChatMessage.from_msg(Msg("a", blocks, "assistant"))
        assert path == info.value.path


class TestFunctionMessage:
    def test_attributes_and_payload(self):
        """A function message has role function, the function name and its result."""
        message = FunctionMessage("lookup", '{"found": true}')
        assert ("function", "lookup", None) == (message.role, message.name, message.call_id)
        expected = {"role": "function", "name": "lookup", "content": '{"found": true}'}
        assert expected == message.to_dict()

    def test_payload_has_the_call_id(self):
        """A call id is the payload's last key, and comes back from it."""
        message = FunctionMessage("lookup", "{}", call_id="call_7")
        expected = [
            ("role", "function"),
            ("name", "lookup"),
            ("content", "{}"),
            ("call_id", "call_7"),
        ]
        payload = message.to_dict()
        assert (expected, message) == (list(payload.items()), ChatMessage.from_dict(payload))

    def test_name_is_required(self):
        """The function name must be a non-empty string."""
        with pytest.raises(MessageError, match="`name` must be a non-empty string") as info:
            FunctionMessage("", "r")
        assert "name" == info.value.path

    def test_to_msg_is_a_system_tool_result(self):
        """The Msg is a system message from 'system' with one tool_result block."""
        msg = FunctionMessage("lookup", "found", call_id="c1").to_msg()
        block = {"type": "tool_result", "id": "c1", "name": "lookup", "output": "found"}
        assert ("system", "system", [block]) == (msg.name, msg.role, msg.content)

    def test_call_and_result_share_a_default_id(self):
        """Without ids, a call and its result get the same tool id, so they match."""
        use = AIMessage("", {"name": "lookup", "arguments": "{}"}).to_msg().content[0]
        result = FunctionMessage("lookup", "found").to_msg().content[0]
        assert use["id"] == result["id"]

    @pytest.mark.parametrize(
        ("output", "content"),
        [
            ("plain", "plain"),
            ({"temperature": 25, "unit": "摄氏度"}, '{"temperature": 25, "unit": "摄氏度"}'),
            (42, "42"),
            ([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "a\nb"),
        ],
    )
    def test_from_msg_writes_the_output_as_text(self, output, content):
        """A string output is kept; text blocks are joined; other JSON is written as JSON."""
        block = {"type": "tool_result", "id": "t", "name": "f", "output": output}
        message = FunctionMessage.from_msg(Msg("system", [block], "system"))
        assert ("f", content, "t") == (message.name, message.content, message.call_id)

    def test_from_msg_rejects_media_output(self):
        """A tool output holding an image cannot become a FunctionMessage."""
        block = {"type": "tool_result", "id": "t", "name": "f", "output": [png_block()]}
        with pytest.raises(MessageError, match="carries text only") as info:
            ChatMessage.from_msg(Msg("system", [block], "system"))
        assert "content[0].output[0]" == info.value.path

    def test_from_msg_needs_the_result_alone(self):
        """A tool result among other blocks raises MessageError naming it."""
        block = {"type": "tool_result", "id": "t", "name": "f", "output": "ok"}
        msg = Msg("system", [{"type": "text", "text": "x"}, block], "system")
        with pytest.raises(MessageError, match="among 2 blocks") as info:
            ChatMessage.from_msg(msg)
        assert "content[1]" == info.value.path


SEARCH = {"results": [{"index": 1, "url": "https://example.com/lima", "title": "Lima"}]}
PLUGINS = {"names": ["eChart"]}


class TestERNIEFields:
    """The AIMessage fields of ERNIE Bot Agent: plugin_info, search_info, clarify and
    query_tokens_count, in its positional order."""

    def test_positional_order(self):
        """content, function_call, token_usage, plugin_info, search_info, clarify."""
        usage = {"prompt_tokens": 9, "completion_tokens": 4}
        reply = AIMessage("Lima is sunny.", None, usage, PLUGINS, SEARCH, True)

        assert (None, usage, PLUGINS, SEARCH, True) == (
            reply.function_call,
            reply.token_usage,
            reply.plugin_info,
            reply.search_info,
            reply.clarify,
        )

    def test_counts_from_two_key_usage(self):
        """A usage with only prompt_tokens and completion_tokens (ERNIE's TokenUsage) gives
        token_count and query_tokens_count, and is kept as given."""
        reply = AIMessage("Sunny.", token_usage={"prompt_tokens": 31, "completion_tokens": 2})

        assert (2, 31, {"prompt_tokens": 31, "completion_tokens": 2}) == (
            reply.token_count,
            reply.query_tokens_count,
            reply.token_usage,
        )

    def test_query_tokens_count_without_usage(self):
        """Without a usage report, query_tokens_count is 0, as in ERNIE Bot Agent."""
        assert (0, False, None, None) == (
            AIMessage("Sunny.").query_tokens_count,
            AIMessage("Sunny.").clarify,
            AIMessage("Sunny.").plugin_info,
            AIMessage("Sunny.").search_info,
        )

    def test_payload_has_ernie_keys(self):
        """to_dict has the keys of ERNIE's: role, content, function_call, plugin_info,
        search_info (the name too when there is one); from_dict reads it back."""
        reply = AIMessage("Sunny.", plugin_info=PLUGINS, search_info=SEARCH)
        payload = reply.to_dict()

        assert ["role", "content", "function_call", "plugin_info", "search_info"] == list(payload)
        assert reply.to_dict() == AIMessage.from_dict(payload).to_dict()
        assert ["role", "name", "content"] == list(AIMessage("x", name="Jarvis").to_dict())[:3]

    def test_changes_in_place_are_checked_and_kept(self):
        """The properties hand out the message's own checked containers: a valid change
        is kept, an invalid one refused and undone."""
        reply = AIMessage("Sunny.", plugin_info=PLUGINS, search_info=SEARCH)

        reply.search_info["results"].clear()
        reply.plugin_info["names"].append("other")
        with pytest.raises(MessageError):
            reply.plugin_info["names"].append("")

        assert ({"results": []}, {"names": ["eChart", "other"]}) == (
            reply.search_info,
            reply.plugin_info,
        )
        assert {"names": ["eChart"]} == PLUGINS

    def test_fields_can_be_assigned_and_are_checked(self):
        """The fields ERNIE Bot Agent's agents assign can be assigned; a bad value is
        refused with the field's path and the old value kept."""
        reply = AIMessage("Sunny.")
        reply.search_info = SEARCH
        reply.plugin_info = PLUGINS
        reply.clarify = True
        reply.query_tokens_count = 12
        assert (SEARCH, PLUGINS, True, 12) == (
            reply.search_info,
            reply.plugin_info,
            reply.clarify,
            reply.query_tokens_count,
        )
        with pytest.raises(MessageError) as info:
            reply.search_info = {"results": [1]}
        assert ("search_info.results", SEARCH) == (info.value.path, reply.search_info)
        with pytest.raises(MessageAttributeError):
            reply.content = "Rainy."

    def test_kept_through_a_msg(self):
        """to_msg keeps them in the Msg's metadata; from_msg restores them."""
        reply = AIMessage("Sunny.", None, USAGE, PLUGINS, SEARCH, True)
        msg = reply.to_msg()

        assert {
            "token_usage": USAGE,
            "plugin_info": PLUGINS,
            "search_info": SEARCH,
            "clarify": True,
        } == msg.metadata
        assert reply == ChatMessage.from_msg(msg)

    @pytest.mark.parametrize(
        ("fields", "path"),
        [
            ({"search_info": []}, "search_info"),
            ({"search_info": {"results": [1]}}, "search_info.results"),
            ({"search_info": {"results": [], "total": 0}}, "search_info.total"),
            (
                {"search_info": {"results": [{"score": float("nan")}]}},
                "search_info.results[0].score",
            ),
            ({"plugin_info": {"names": "eChart"}}, "plugin_info.names"),
            ({"plugin_info": {"names": [""]}}, "plugin_info.names[0]"),
            ({"plugin_info": {}}, "plugin_info.names"),
            ({"clarify": "yes"}, "clarify"),
        ],
    )
    def test_bad_values(self, fields, path):
        """Each new field is checked and a bad value names its path."""
        with pytest.raises(MessageError) as info:
            AIMessage("x", **fields)
        assert path == info.value.path

    def test_raw_arguments_survive_a_msg(self):
        """The arguments text, spaced as the model wrote it, is the tool_use block's
        raw_input; converting back uses it while it still matches the input."""
        reply = AIMessage("", {"name": "add", "arguments": '{"a":2,"b":2}'})
        msg = reply.to_msg()

        assert '{"a":2,"b":2}' == ChatMessage.from_msg(msg).function_call["arguments"]
        msg.content[0]["input"]["b"] = 3  # the input changed: raw_input no longer says it
        assert '{"a": 2, "b": 3}' == ChatMessage.from_msg(msg).function_call["arguments"]


class TestMessage:
    """``Message``, ERNIE Bot Agent's message of any role and base of the four."""

    def test_is_the_base_of_the_role_messages(self):
        """Every role message is a Message and a ChatMessage, so isinstance checks
        written for either name hold."""
        assert "Message" == Message.__name__
        assert all(
            isinstance(message, Message) and isinstance(message, ChatMessage)
            for message in (
                HumanMessage("a"),
                SystemMessage("b"),
                AIMessage("c"),
                FunctionMessage("f", "d"),
            )
        )

    def test_is_constructible_as_in_ernie(self):
        """Message(role, content, token_count=...) works and prints as ERNIE's."""
        message = Message("user", "hello", token_count=5)
        assert "<Message role: 'user', content: 'hello', token_count: 5>" == repr(message)
        assert {"role": "user", "content": "hello"} == message.to_dict()
        assert "<role: 'system', content: 'be brief'>" == str(Message("system", "be brief"))

    def test_bad_role_and_count(self):
        """A role that is not user, assistant or system, or a bad count, is refused."""
        with pytest.raises(MessageError, match="`role` must be one of"):
            Message("function", "42")
        with pytest.raises(TokenCountError):
            Message("user", "hi", token_count=-1)

    def test_becomes_a_role_message_through_a_msg_and_a_payload(self):
        """from_msg and from_dict give the role message of its role, count kept."""
        message = Message("user", "hello", token_count=5)
        again = Message.from_msg(message.to_msg())
        assert (HumanMessage, 5) == (type(again), again.token_count)
        assert HumanMessage("hello") == Message.from_dict(message.to_dict())


class TestAIMessageChunk:
    """Streamed pieces of an answer."""

    def test_pieces_add_up(self):
        """Contents are joined; the sum is a chunk and an AIMessage."""
        whole = AIMessageChunk("Lima ") + AIMessageChunk("is ") + AIMessageChunk("sunny.")

        assert ("Lima is sunny.", AIMessageChunk, True) == (
            whole.content,
            type(whole),
            isinstance(whole, AIMessage),
        )

    def test_sum_with_a_start(self):
        """``sum(pieces, AIMessageChunk(""))`` adds a stream up."""
        pieces = [AIMessageChunk(text) for text in ("a", "b", "c")]

        assert "abc" == sum(pieces, AIMessageChunk("")).content

    def test_function_call_in_pieces(self):
        """Arguments and thoughts streamed in pieces are joined; the id is kept."""
        first = AIMessageChunk("", {"name": "add", "thoughts": "I ", "arguments": '{"a": '})
        second = AIMessageChunk(
            "", {"name": "add", "thoughts": "add.", "arguments": "2}", "id": "c1"}
        )

        assert {"name": "add", "thoughts": "I add.", "arguments": '{"a": 2}', "id": "c1"} == (
            first + second
        ).function_call

    def test_later_usage_and_information_win(self):
        """The later piece's usage (a running total, or the total at the end) and its
        plugin and search information replace the earlier's; clarify holds if either has it."""
        first = AIMessageChunk("a", None, {"prompt_tokens": 5, "completion_tokens": 1}, PLUGINS)
        second = AIMessageChunk(
            "b", None, {"prompt_tokens": 5, "completion_tokens": 2}, None, SEARCH, True
        )

        whole = first + second

        assert (2, 5, PLUGINS, SEARCH, True) == (
            whole.token_count,
            whole.query_tokens_count,
            whole.plugin_info,
            whole.search_info,
            whole.clarify,
        )
        assert 1 == (second + AIMessageChunk("c", None, first.token_usage)).token_count

    @pytest.mark.parametrize(
        ("first", "second", "path", "text"),
        [
            (
                AIMessageChunk("a", name="x"),
                AIMessageChunk("b", name="y"),
                "name",
                "`name` of the second piece is 'y', but the first piece's is 'x'.",
            ),
            (
                AIMessageChunk("", {"name": "f", "arguments": ""}),
                AIMessageChunk("", {"name": "g", "arguments": ""}),
                "function_call.name",
                "`function_call.name` of the second piece is 'g', but the first piece calls 'f'.",
            ),
            (
                AIMessageChunk("", {"name": "f", "arguments": "", "id": "1"}),
                AIMessageChunk("", {"arguments": "", "id": "2"}),
                "function_call.id",
                "`function_call.id` of the second piece is '2', but the first piece's is '1'.",
            ),
        ],
    )
    def test_pieces_that_do_not_fit(self, first, second, path, text):
        """Pieces from different senders or calls raise MessageError naming both."""
        with pytest.raises(MessageError) as info:
            first + second
        assert (path, text) == (info.value.path, str(info.value))

    def test_only_chunks_add(self):
        """Adding anything but a chunk is a TypeError, as for unrelated types."""
        with pytest.raises(TypeError):
            AIMessageChunk("a") + AIMessage("b")  # type: ignore[operator]
        with pytest.raises(TypeError):
            AIMessageChunk("a") + "b"  # type: ignore[operator]

    def test_from_dict_on_the_chunk_class(self):
        """AIMessageChunk.from_dict and from_msg give chunks."""
        payload = {"role": "assistant", "content": "a"}

        assert (AIMessageChunk, AIMessageChunk) == (
            type(AIMessageChunk.from_dict(payload)),
            type(AIMessageChunk.from_msg(Msg("assistant", "a", "assistant"))),
        )


class TestAwaitingHumanMessages:
    """``await HumanMessage.create_with_files(...)``, as ERNIE Bot Agent's coroutine."""

    def test_await_and_plain_call(self):
        """Async code awaits the result and gets the message; sync code calls it."""

        async def build():
            return await HumanMessage.create_with_files("What is this?", [GIF])

        awaited = asyncio.run(build())

        assert HumanMessage.create_with_files("What is this?", [GIF]) == awaited
        assert ["image/gif"] == [block["source"]["media_type"] for block in awaited.files]


# -- property tests --------------------------------------------------------------------

texts = st.text(max_size=30)
names = st.text(min_size=1, max_size=12).filter(
    lambda name: name not in ("user", "assistant", "system")
)
counts = st.integers(min_value=0, max_value=10**6)


def json_containers(inner):
    """Lists and dicts of *inner* values (a named function: hypothesis reads its source)."""
    return st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts,
    json_containers,
    max_leaves=8,
)
media = st.sampled_from(
    [png_block(), {"type": "audio", "source": {"type": "url", "url": "https://a.example/x.mp3"}}]
)


@st.composite
def humans(draw):
    message = HumanMessage(
        draw(texts),
        name=draw(st.none() | names),
        files=draw(st.lists(media, max_size=2)),
    )
    if draw(st.booleans()):
        message.token_count = draw(counts)
    return message


@st.composite
def function_calls(draw):
    function = draw(st.text(min_size=1, max_size=10))
    call = {"name": function}
    if draw(st.booleans()):
        call["thoughts"] = draw(texts)
    arguments = draw(st.dictionaries(texts, json_values, max_size=3))
    # as a model writes them: spaced or not, so that the text is kept, not rewritten
    separators = draw(st.sampled_from([(", ", ": "), (",", ":")]))
    call["arguments"] = json.dumps(arguments, ensure_ascii=False, separators=separators)
    if draw(st.booleans()):
        call["id"] = draw(st.text(min_size=1, max_size=8).filter(lambda i: i != f"call_{function}"))
    return call


search_infos = st.builds(
    lambda results: {"results": results},
    st.lists(st.dictionaries(texts, json_values, max_size=3), max_size=2),
)
plugin_infos = st.builds(lambda names: {"names": names}, st.lists(names, max_size=2))


@st.composite
def ais(draw):
    usage = draw(
        st.none()
        | st.fixed_dictionaries({"prompt_tokens": counts, "completion_tokens": counts})
        | st.fixed_dictionaries(
            {"prompt_tokens": counts, "completion_tokens": counts, "total_tokens": counts}
        )
    )
    kind = draw(st.sampled_from([AIMessage, AIMessageChunk]))
    return kind(
        draw(texts),
        draw(st.none() | function_calls()),
        usage,
        draw(st.none() | plugin_infos),
        draw(st.none() | search_infos),
        draw(st.booleans()),
        name=draw(st.none() | names),
    )


@st.composite
def functions(draw):
    function = draw(st.text(min_size=1, max_size=10))
    call_id = draw(
        st.none() | st.text(min_size=1, max_size=8).filter(lambda i: i != f"call_{function}")
    )
    message = FunctionMessage(function, draw(texts), call_id=call_id)
    if draw(st.booleans()):
        message.token_count = draw(counts)
    return message


systems = st.builds(SystemMessage, texts, name=st.none() | names)
role_messages = st.one_of(humans(), systems, ais(), functions())


def assignable(message: ChatMessage) -> set[str]:
    """The fields of *message* (as the error for an unknown attribute lists them) that take
    their own value back; the others must be refused as fixed."""
    with pytest.raises(MessageAttributeError) as info:
        message.no_such_field  # noqa: B018
    fields = str(info.value).split("; the fields are ")[1].removesuffix(".").split(", ")
    taken = set()
    for field in fields:
        try:
            setattr(message, field, getattr(message, field))
        except MessageAttributeError as error:
            assert f"`{field}` of " in str(error) and "cannot be changed" in str(error)
        else:
            taken.add(field)
    return taken


AI_ASSIGNABLE = {
    "function_call",
    "plugin_info",
    "search_info",
    "clarify",
    "query_tokens_count",
    "token_count",
}


class TestAssignableFields:
    """The fields that ERNIE Bot Agent's code assigns, and no others, can be assigned."""

    @pytest.mark.parametrize(
        ("message", "expected"),
        [
            (Message("user", "q", 3), {"token_count"}),
            (HumanMessage("q"), {"token_count"}),
            (SystemMessage("s"), {"token_count"}),
            (AIMessage("a", None, USAGE), AI_ASSIGNABLE),
            (AIMessageChunk("a", None, USAGE), AI_ASSIGNABLE),
            (FunctionMessage("f", "1"), {"name", "token_count"}),
        ],
        ids=lambda value: type(value).__name__ if isinstance(value, ChatMessage) else "",
    )
    def test_each_class_lets_assign_its_documented_fields(self, message, expected):
        """Human, system and plain messages take a new token count only; an AI message
        (and a chunk) its function call, plugin and search information, clarify and both
        counts, not its usage report; a function message its name and token count."""
        message.token_count = 3
        assert expected == assignable(message)

    def test_a_function_call_assigned_is_checked(self):
        """An assigned function call is checked as the argument is: a nameless call is
        refused on an answer (the old one kept) and taken on a chunk, a streamed piece."""
        reply = AIMessage("")
        reply.function_call = {"name": "add", "arguments": "{}"}
        with pytest.raises(MessageError) as info:
            reply.function_call = {"arguments": "{}"}
        piece = AIMessageChunk("")
        piece.function_call = {"arguments": "{"}

        assert (
            "function_call.name",
            {"name": "add", "arguments": "{}"},
            {"arguments": "{"},
        ) == (info.value.path, reply.function_call, piece.function_call)

    def test_an_assigned_query_count_is_kept_through_a_msg(self):
        """A query_tokens_count that is not the usage report's travels in the Msg's
        metadata and comes back; one that is the report's does not travel."""
        reply = AIMessage("Sunny.", token_usage=USAGE)
        plain = reply.to_msg().metadata
        reply.query_tokens_count = 40
        msg = reply.to_msg()

        assert (False, 40, 40) == (
            "query_tokens_count" in plain,
            msg.metadata["query_tokens_count"],
            ChatMessage.from_msg(msg).query_tokens_count,
        )

    def test_a_bad_query_count_in_a_msg_is_refused(self):
        """A query_tokens_count in a Msg's metadata that is no count is refused with its path."""
        msg = Msg("assistant", "a", "assistant", metadata={"query_tokens_count": -1})
        with pytest.raises(TokenCountError) as info:
            ChatMessage.from_msg(msg)
        assert "metadata.query_tokens_count" == info.value.path


class TestChunkReports:
    @settings(max_examples=100)
    @given(ais(), ais())
    def test_the_later_report_wins(self, first, second):
        """The sum of two chunks has the later piece's usage report, plugin and search
        information wherever it has them, else the earlier's; clarify holds if either has it."""
        a, b = (
            AIMessageChunk(m.content, None, m.token_usage, m.plugin_info, m.search_info, m.clarify)
            for m in (first, second)
        )
        whole = a + b

        def later(field: str) -> object:
            value = getattr(b, field)
            return getattr(a, field) if value is None else value

        assert (
            later("token_usage"),
            later("plugin_info"),
            later("search_info"),
            a.clarify or b.clarify,
        ) == (whole.token_usage, whole.plugin_info, whole.search_info, whole.clarify)


class TestRoundTrips:
    @settings(max_examples=150)
    @given(role_messages)
    def test_role_message_survives_msg(self, message):
        """from_msg(to_msg(m)) gives back an equal role message, token counts included
        (called on the message's class, so that a chunk comes back a chunk)."""
        assert message == type(message).from_msg(message.to_msg())

    @settings(max_examples=150)
    @given(role_messages)
    def test_role_message_survives_its_payload(self, message):
        """from_dict(to_dict(m)) gives back the same message, apart from token counts
        (called on the message's class, so that a chunk comes back a chunk)."""
        again = type(message).from_dict(message.to_dict())
        assert message.to_dict() == again.to_dict()
        assert type(message) is type(again)

    @settings(max_examples=150)
    @given(role_messages)
    def test_msg_survives_the_role_message(self, message):
        """A Msg made by to_msg converts to a role message and back to the same Msg."""
        msg = message.to_msg()
        again = ChatMessage.from_msg(msg).to_msg()
        assert (msg.name, msg.role, msg.content, msg.metadata) == (
            again.name,
            again.role,
            again.content,
            again.metadata,
        )

    @settings(max_examples=100)
    @given(
        st.sampled_from(["user", "assistant", "system"]),
        st.lists(
            st.sampled_from(["text", "thinking", "tool_use", "tool_result", "image"]),
            max_size=3,
        ),
        texts,
    )
    def test_from_msg_raises_only_message_errors(self, role, kinds, text):
        """Any Msg either converts or raises MessageError, never another exception."""
        blocks = {
            "text": {"type": "text", "text": text},
            "thinking": {"type": "thinking", "thinking": text},
            "tool_use": {"type": "tool_use", "id": "1", "name": "f", "input": {"t": text}},
            "tool_result": {"type": "tool_result", "id": "1", "name": "f", "output": text},
            "image": png_block(),
        }
        msg = Msg("x", [blocks[kind] for kind in kinds], role)
        try:
            message = ChatMessage.from_msg(msg)
        except MessageError:
            return
        assert isinstance(message, ChatMessage)

    @settings(max_examples=100)
    @given(
        st.dictionaries(
            st.sampled_from(["role", "name", "content", "function_call", "files", "call_id", "x"]),
            json_values | st.sampled_from(["user", "assistant", "system", "function"]),
        )
    )
    def test_from_dict_raises_only_message_errors(self, data):
        """Any dict either loads as a role message or raises MessageError."""
        try:
            message = ChatMessage.from_dict(data)
        except MessageError:
            return
        assert message.to_dict() == ChatMessage.from_dict(message.to_dict()).to_dict()


def _probe_messages():
    """One message of each kind with every field that holds a dict or a list set."""
    png = png_block()
    msg = Msg(
        "Jarvis",
        [
            {"type": "text", "text": "Look."},
            png,
            {"type": "tool_use", "id": "c1", "name": "look", "input": {"at": [1, {"x": 2}]}},
            {
                "type": "tool_result",
                "id": "c1",
                "name": "look",
                "output": [{"type": "text", "text": "ok"}],
            },
        ],
        "assistant",
        metadata={"tags": ["a"], "nested": {"k": [1]}},
    )
    usage = {
        "prompt_tokens": 3,
        "completion_tokens": 2,
        "plugins": [{"name": "eChart", "total_tokens": 4}],
    }
    answer = AIMessage(
        "Sunny.",
        {"name": "look", "thoughts": "t", "arguments": "{}"},
        usage,
        {"names": ["eChart"]},
        {"results": [{"index": 1, "url": "", "title": "Lima"}]},
    )
    return [
        msg,
        answer,
        HumanMessage("q", files=[png]),
        FunctionMessage("f", "r"),
        SystemMessage("s"),
        Message("user", "u", token_count=1),
    ]


def _public_values(message):
    """The values of the message's public properties (what it hands out)."""
    for name in dir(type(message)):
        if not name.startswith("_") and isinstance(getattr(type(message), name), property):
            try:
                yield name, getattr(message, name)
            except AttributeError:  # a count not known yet
                continue


def _containers(value, path):
    """Every dict and list inside *value*, with the path of keys that reaches it."""
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from _containers(item, (*path, key))
    elif isinstance(value, list):
        yield path, value
        for index, item in enumerate(value):
            yield from _containers(item, (*path, index))


def _read(message, path):
    value = getattr(message, path[0])
    for key in path[1:]:
        value = value[key]
    return value


def _saved(message):
    if isinstance(message, Msg):
        return message.to_dict()
    data = message.to_msg().to_dict()
    del data["id"], data["timestamp"]  # fresh for each Msg made
    return data


class TestNothingChangedInPlaceIsLost:
    """Every dict and list a message hands out, at any depth: a change made in place is
    either kept (read back through the message, which stays valid and saves it) or refused
    with MessageError (and the message is unchanged); it is never silently lost."""

    @pytest.mark.parametrize("index", range(6))
    def test_every_container(self, index):
        """An added item is kept-and-valid or refused; an unstorable one is refused."""
        walked = 0
        for name, value in _public_values(_probe_messages()[index]):
            for path, container in list(_containers(value, (name,))):
                message = _probe_messages()[index]  # a fresh one for each change
                before = _saved(message)
                target = _read(message, path)
                assert container == target
                if isinstance(target, dict):
                    change = lambda t: t.__setitem__("zz_probe", 1)  # noqa: E731
                    bad = lambda t: t.__setitem__("zz_probe", object())  # noqa: E731
                    expected = {**target, "zz_probe": 1}
                else:
                    item = copy.deepcopy(target[0]) if target else 1
                    change = lambda t, item=item: t.append(item)  # noqa: E731
                    bad = lambda t: t.append(object())  # noqa: E731
                    expected = [*target, item]
                try:
                    change(target)
                except MessageError:
                    assert before == _saved(message), path  # refused, nothing changed
                else:
                    assert expected == _read(message, path), path  # kept
                    saved = _saved(message)
                    assert before != saved, path  # and saved
                    if isinstance(message, Msg):
                        assert message == Msg.from_dict(saved), path
                    else:
                        assert message == ChatMessage.from_msg(message.to_msg()), path
                message = _probe_messages()[index]
                before = _saved(message)
                with pytest.raises(MessageError):
                    bad(_read(message, path))
                assert before == _saved(message), path
                walked += 1
        assert walked >= {0: 10, 1: 8, 2: 3}.get(index, 0)
