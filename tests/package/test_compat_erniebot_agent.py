"""ERNIE Bot Agent's own memories, chat model, agents, callbacks and prompts, run on
agentmsg messages after ``agentmsg.compat.erniebot_agent.install()``.

What ERNIE Bot Agent's unit tests check of the code that handles its messages, written
here again: each scenario runs through its code once with its own message classes
(nothing installed) and once with agentmsg's (installed), and both give the same
messages, counts and pruning; what its code hands back is agentmsg's. The frameworks
come from pyproject's ``frameworks`` group, which ``make test`` installs.
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("erniebot_agent", reason="the frameworks group (make test installs it)")

import erniebot_agent.memory.messages as their_module
from erniebot import ChatCompletionResponse
from erniebot_agent.agents import FunctionAgent
from erniebot_agent.agents.callback import CallbackHandler
from erniebot_agent.chat_models.base import ChatModel
from erniebot_agent.chat_models.erniebot import ERNIEBot, convert_response_to_output
from erniebot_agent.memory import LimitTokensMemory, SlidingWindowMemory, WholeMemory
from erniebot_agent.prompt import PromptTemplate
from erniebot_agent.tools.base import BaseTool

import agentmsg
import agentmsg.compat.erniebot_agent as compat
from agentmsg import MessageError

THEIRS = {name: getattr(their_module, name) for name in ("HumanMessage", "AIMessage", "Message")}


def names() -> Any:
    """ERNIE Bot Agent's message module: its names are its own classes or agentmsg's."""
    return their_module


def both_ways(scenario: Callable[[], Any]) -> tuple[Any, Any]:
    """What *scenario* gives with ERNIE Bot Agent's own classes, then with agentmsg's."""
    assert not compat.is_installed()
    theirs = scenario()
    gc.collect()  # their messages must be gone before the install
    with compat.installed():
        ours = scenario()
    return theirs, ours


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def shown(messages: list[Any]) -> list[tuple[str, str, str, int | None]]:
    """Each message as its class name, role, content and token count (None if unknown)."""
    return [
        (type(m).__name__, m.role, m.content, getattr(m, "token_count", None)) for m in messages
    ]


class StubModel(ChatModel):
    """A chat model that answers from a script, made with the current message classes."""

    def __init__(self, answers: list[Callable[[], Any]]) -> None:
        super().__init__("stub")
        self.answers = list(answers)
        self.sent: list[list[Any]] = []

    async def chat(self, messages: Any, *, stream: bool = False, **kwargs: Any) -> Any:
        self.sent.append(list(messages))
        return self.answers.pop(0)()


class WeatherTool(BaseTool):
    @property
    def tool_name(self) -> str:
        return "weather"

    @property
    def examples(self) -> list[Any]:
        return []

    async def __call__(self, city: str) -> dict[str, Any]:
        return {"city": city, "temperature_c": 19}

    def function_call_schema(self) -> dict[str, Any]:
        return {
            "name": "weather",
            "description": "The weather in a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            "responses": {"type": "object", "properties": {}},
        }


class Counting(CallbackHandler):
    def __init__(self) -> None:
        self.events: list[str] = []

    async def on_llm_start(self, agent: Any, llm: Any, messages: Any) -> None:
        self.events.append(f"llm_start:{type(messages[-1]).__module__}")

    async def on_llm_end(self, agent: Any, llm: Any, response: Any) -> None:
        self.events.append(f"llm_end:{type(response.message).__module__}")


def weather_answers() -> list[Callable[[], Any]]:
    call = {"name": "weather", "thoughts": "Look it up.", "arguments": '{"city": "Lima"}'}
    return [
        lambda: names().AIMessage(
            "", call, {"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19}
        ),
        lambda: names().AIMessage("It is 19 °C in Lima.", None, None),
    ]


# -- the install itself ---------------------------------------------------------------


class TestInstall:
    def test_without_install_memory_ignores_agentmsg(self) -> None:
        """Without the install line ERNIE Bot Agent keeps its classes: its memory does
        not recognise an agentmsg system message, and stores it as an ordinary one."""
        assert not compat.is_installed()
        memory = WholeMemory()
        memory.add_message(agentmsg.SystemMessage("Be brief."))
        assert (None, 1) == (memory.msg_manager.system_message, len(memory.get_messages()))

    def test_install_swaps_every_module(self) -> None:
        """After the install, the message module and the modules that imported its
        names hold agentmsg's classes and types."""
        places = [
            ("erniebot_agent.memory", "HumanMessage"),
            ("erniebot_agent.memory.messages", "AIMessageChunk"),
            ("erniebot_agent.memory.base", "SystemMessage"),
            ("erniebot_agent.memory.limit_tokens_memory", "AIMessage"),
            ("erniebot_agent.chat_models.erniebot", "PluginInfo"),
            ("erniebot_agent.agents.function_agent", "FunctionMessage"),
        ]
        with compat.installed():
            actual = [getattr(sys.modules[module], name) for module, name in places]
        assert [getattr(agentmsg, name) for _, name in places] == actual

    def test_uninstall_restores(self) -> None:
        """uninstall() gives every module ERNIE Bot Agent's own classes back."""
        compat.install()
        compat.uninstall()
        import erniebot_agent.memory.base as base

        assert (False, THEIRS["AIMessage"]) == (compat.is_installed(), base.AIMessage)

    def test_refuses_after_ernie_made_messages(self) -> None:
        """Installing while ERNIE Bot Agent's own messages are alive raises
        MessageError naming the call to make at start-up, and changes nothing."""
        kept = THEIRS["HumanMessage"]("Hi")
        with pytest.raises(MessageError) as caught:
            compat.install()
        assert "agentmsg.compat.erniebot_agent.install()" in str(caught.value)
        assert (False, THEIRS["HumanMessage"]) == (compat.is_installed(), names().HumanMessage)
        del kept


# -- memories ------------------------------------------------------------------------------


def conversation(rounds: int) -> list[Any]:
    pieces: list[Any] = []
    for number in range(rounds):
        pieces.append(names().HumanMessage(f"第{number}个问题：这个图像中的内容是什么？"))
        pieces.append(names().AIMessage(f"这是第{number}个回答，图中是一只小狗。"))
    return pieces


class TestMemories:
    def test_whole_memory_system_and_counts(self) -> None:
        """WholeMemory keeps the system message apart, and an answer's prompt count
        becomes the count of the question before it, as in ERNIE Bot Agent."""

        def scenario() -> Any:
            memory = WholeMemory()
            memory.add_message(names().SystemMessage("你是一个善于回答图像相关问题的agent。"))
            memory.add_message(names().HumanMessage("What is in the picture?"))
            usage = {"prompt_tokens": 9, "completion_tokens": 4}
            memory.add_message(names().AIMessage("A dog.", None, usage))
            memory.add_message(names().HumanMessage("And its colour?"))
            memory.add_message(names().AIMessage("Brown."))
            system = memory.msg_manager.system_message
            return type(system).__module__, shown([system]), shown(memory.get_messages())

        theirs, ours = both_ways(scenario)
        assert ("agentmsg", *theirs[1:]) == ours
        assert 9 == ours[2][0][3]

    @pytest.mark.parametrize("limit", [10, 40, 4000])
    def test_limit_tokens_memory_prunes_the_same(self, limit: int) -> None:
        """LimitTokensMemory drops the same messages, by the same counts, and gives up
        where ERNIE Bot Agent gives up (a limit below one round's count)."""

        def scenario() -> Any:
            memory = LimitTokensMemory(limit)
            try:
                for message in conversation(5):
                    memory.add_message(message)
            except RuntimeError as error:
                return "RuntimeError", str(error).split(" which ")[1]
            return memory.mem_token_count, shown(memory.get_messages())

        theirs, ours = both_ways(scenario)
        assert theirs == ours

    def test_sliding_window_memory(self) -> None:
        """SlidingWindowMemory keeps the same rounds, the retained first one too."""

        def scenario() -> Any:
            memory = SlidingWindowMemory(max_round=2, retained_round=1)
            for message in conversation(5):
                memory.add_message(message)
            return shown(memory.get_messages())

        theirs, ours = both_ways(scenario)
        assert theirs == ours


# -- the chat model ----------------------------------------------------------------------


def response(body: dict[str, Any]) -> Any:
    common = {"id": "as-1", "object": "chat.completion", "created": 1703492795}
    return ChatCompletionResponse(200, {**common, **body}, {})


USAGE = {"prompt_tokens": 1285, "completion_tokens": 124, "total_tokens": 1409}
RESPONSES = {
    "text": {"result": "深圳今天多云。", "usage": USAGE},
    "search": {
        "result": "深圳今天多云。",
        "usage": USAGE,
        "search_info": {"search_results": [{"index": 1, "url": "", "title": "深圳天气"}]},
    },
    "plugin": {
        "result": "图表已生成。",
        "usage": USAGE,
        "plugin_info": [{"plugin_name": "eChart"}],
        "plugin_metas": [{"pluginNameForModel": "eChart"}],
    },
    "function": {
        "result": "",
        "usage": USAGE,
        "function_call": {"name": "weather", "thoughts": "查天气", "arguments": '{"city": "深圳"}'},
    },
    "clarify": {"result": "您想查哪个城市？", "usage": USAGE, "finish_reason": "plugin_clarify"},
}


class TestChatModel:
    @pytest.mark.parametrize("kind", list(RESPONSES))
    def test_response_conversion(self, kind: str) -> None:
        """ERNIE Bot Agent's conversion of an ERNIE Bot response makes an agentmsg
        AIMessage with the payload, counts and clarify flag of its own AIMessage."""

        def scenario() -> Any:
            message = convert_response_to_output(response(RESPONSES[kind]), names().AIMessage)
            fields = (message.to_dict(), message.token_count, message.query_tokens_count)
            return type(message).__module__, fields, message.clarify

        theirs, ours = both_ways(scenario)
        assert ("agentmsg", *theirs[1:]) == ours

    def test_chunks(self) -> None:
        """A streamed piece converts to an agentmsg AIMessageChunk."""
        with compat.installed():
            piece = convert_response_to_output(response(RESPONSES["text"]), names().AIMessageChunk)
        assert (agentmsg.AIMessageChunk, 124) == (type(piece), piece.token_count)

    def test_request_refuses_system_message(self) -> None:
        """The ERNIE Bot model refuses a system message among the messages, and sends
        the others as their chat payloads."""
        with compat.installed():
            model = ERNIEBot("ernie-3.5", api_type="aistudio", access_token="token")
            with pytest.raises(ValueError, match="SystemMessage"):
                model._generate_config([agentmsg.SystemMessage("Be brief.")], None)
            config = model._generate_config([agentmsg.HumanMessage("Hi")], None, system="Be brief.")
        assert ([{"role": "user", "content": "Hi"}], "Be brief.") == (
            config["messages"],
            config["system"],
        )


# -- agents, callbacks, prompts -----------------------------------------------------------


class TestAgents:
    def test_function_agent_round(self) -> None:
        """The function agent calls the tool the model asks for and answers; its
        history is the same as with ERNIE Bot Agent's classes, made of agentmsg's."""

        def scenario() -> Any:
            agent = FunctionAgent(
                StubModel(weather_answers()), [WeatherTool()], memory=WholeMemory()
            )
            answer = run(agent.run("What is the weather in Lima?"))
            history = answer.chat_history
            return (
                answer.text,
                [type(m).__module__ for m in history],
                [m.to_dict() for m in history],
                [m.to_dict() for m in agent.memory.get_messages()],
            )

        theirs, ours = both_ways(scenario)
        assert ["agentmsg"] * 4 == ours[1]
        assert (theirs[0], theirs[2], theirs[3]) == (ours[0], ours[2], ours[3])
        assert {"city": "Lima", "temperature_c": 19} == json.loads(ours[2][2]["content"])

    def test_callbacks_see_agentmsg(self) -> None:
        """Callbacks receive the agentmsg messages sent to the model and its answers."""
        handler = Counting()
        with compat.installed():
            model = StubModel([lambda: names().AIMessage("Hello!")])
            agent = FunctionAgent(model, [WeatherTool()], callbacks=[handler])
            run(agent.run("Hello"))
        assert ["llm_start:agentmsg", "llm_end:agentmsg"] == handler.events

    def test_prompt_template_message(self) -> None:
        """A prompt template formats into an agentmsg HumanMessage."""
        with compat.installed():
            message = PromptTemplate(
                "你好，{{name}}！", input_variables=["name"]
            ).format_as_message(name="小明")
        assert (agentmsg.HumanMessage("你好，小明！"), agentmsg.HumanMessage) == (
            message,
            type(message),
        )
