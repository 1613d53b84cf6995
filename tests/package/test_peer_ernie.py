"""ERNIE Bot Agent's own tests, cookbook cells and agent steps, run on agentmsg.

Each case is written here from ERNIE Bot Agent's source (``erniebot-agent/``: the memory
classes, ``tests/unit_tests``, ``cookbook/memory.ipynb`` and ``cookbook/message.ipynb``, the
function agent with retrieval, the chat model's response conversion): the steps its code
takes, with ``erniebot_agent.memory`` swapped for ``agentmsg``, and what it prints there.
The memory classes below behave as ERNIE Bot Agent's do (the same rules, our code), so
that its cookbook's pruning can be checked message for message.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentmsg import (
    AIMessage,
    AIMessageChunk,
    FunctionCall,
    FunctionMessage,
    HumanMessage,
    Message,
    MessageError,
    PluginInfo,
    SearchInfo,
    SystemMessage,
)
from agentmsg._tokens import ernie_tokens

# -- ERNIE Bot Agent's memory behaviour, written again -----------------------------------


class WholeMemory:
    """Keeps every message; an AI message sets the count of the message before it to its
    ``query_tokens_count``, or to the length of that message's content when it is 0."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.system_message: SystemMessage | None = None

    def add_message(self, message: Message) -> None:
        if isinstance(message, AIMessage):
            previous = self.messages[-1]
            count = message.query_tokens_count
            previous.token_count = count if count else len(previous.content)
        if isinstance(message, SystemMessage):
            self.system_message = message
        else:
            self.messages.append(message)

    def add_messages(self, messages: list[Message]) -> None:
        for message in messages:
            self.add_message(message)

    def get_messages(self) -> list[Message]:
        return self.messages


class SlidingWindowMemory(WholeMemory):
    """Keeps at most *max_round* rounds, the first *retained_round* rounds always."""

    def __init__(self, max_round: int, retained_round: int = 0) -> None:
        super().__init__()
        self.max_round, self.retained_round = max_round, retained_round

    def add_message(self, message: Message) -> None:
        super().add_message(message)
        keep = self.retained_round * 2
        while len(self.messages) > self.max_round * 2:
            self.messages.pop(keep)
            if len(self.messages) % 2 == 0:
                self.messages.pop(keep if len(self.messages) > keep else len(self.messages) - 1)


class LimitTokensMemory(WholeMemory):
    """After each AI message, drops the oldest messages while the counted tokens of the
    last two messages added, summed over time, exceed *max_token_limit*."""

    def __init__(self, max_token_limit: int) -> None:
        super().__init__()
        self.max_token_limit = max_token_limit
        self.mem_token_count = 0

    def add_message(self, message: Message) -> None:
        super().add_message(message)
        if isinstance(message, AIMessage):
            self.mem_token_count += self.messages[-1].token_count + self.messages[-2].token_count
            while self.mem_token_count > self.max_token_limit:
                self.mem_token_count -= self.messages.pop(0).token_count


def text_response() -> AIMessage:
    """The answer of ERNIE Bot Agent's ``FakeSimpleChatModel``."""
    return AIMessage(content="Text response", function_call=None, token_usage=None)


# -- the cookbook's conversation (cookbook/memory.ipynb) ---------------------------------

WORDBOOK = [
    ("请帮我把这个单词meticulous存储到单词本中", "好的，单词meticulous已经存储到单词本中"),
    ("请问现在我的单词本中都有什么单词呢？", "单词中目前有单词：meticulous"),
    (
        "我想对单词本中的单词全部打印出对应的中文含义用于记忆",
        "好的，单词本中包括：meticulous的意思是挑剔的，关注细节的",
    ),
]


def wordbook() -> list[Message]:
    return [message for human, ai in WORDBOOK for message in (HumanMessage(human), AIMessage(ai))]


def shown(pairs: list[tuple[str, str, int]]) -> str:
    """The list of messages as ERNIE Bot Agent's cookbook prints it."""
    kinds = {"user": "HumanMessage", "assistant": "AIMessage"}
    return (
        "["
        + ", ".join(
            f"<{kinds[role]} role: {role!r}, content: {content!r}, token_count: {count}>"
            for role, content, count in pairs
        )
        + "]"
    )


WORDBOOK_PRINTED = [
    ("user", "请帮我把这个单词meticulous存储到单词本中", 25),
    ("assistant", "好的，单词meticulous已经存储到单词本中", 14),
    ("user", "请问现在我的单词本中都有什么单词呢？", 18),
    ("assistant", "单词中目前有单词：meticulous", 9),
    ("user", "我想对单词本中的单词全部打印出对应的中文含义用于记忆", 26),
    ("assistant", "好的，单词本中包括：meticulous的意思是挑剔的，关注细节的", 21),
]


class TestMemoryCookbook:
    """cookbook/memory.ipynb, cell by cell: what it prints there."""

    def test_whole_memory(self):
        """Two rounds added one by one print with ERNIE's counts: the human counts are
        the content's length, the AI counts ERNIE Bot's estimate."""
        memory = WholeMemory()
        memory.add_message(HumanMessage("请将这个图片中的单词识别出来"))
        memory.add_message(AIMessage("好，这个图片中的单词为meticulous"))
        memory.add_message(HumanMessage("这个单词meticulous是什么意思呢？"))
        memory.add_message(AIMessage("这个单词的意思是挑剔的，关注细节的"))
        expected = [
            ("user", "请将这个图片中的单词识别出来", 14),
            ("assistant", "好，这个图片中的单词为meticulous", 11),
            ("user", "这个单词meticulous是什么意思呢？", 21),
            ("assistant", "这个单词的意思是挑剔的，关注细节的", 16),
        ]
        assert shown(expected) == str(memory.get_messages())

        memory.add_messages(wordbook()[:4])
        assert shown(expected + WORDBOOK_PRINTED[:4]) == str(memory.get_messages())

    @pytest.mark.parametrize(
        ("retained", "kept"),
        [(0, [2, 3, 4, 5]), (1, [0, 1, 4, 5])],
    )
    def test_sliding_window_memory(self, retained, kept, caplog):
        """max_round=2 keeps the last two rounds, or the first and the last; the second
        memory the same messages enter sets their counts again, with a warning each."""
        messages = wordbook()
        SlidingWindowMemory(max_round=2, retained_round=0).add_messages(messages)
        caplog.clear()
        with caplog.at_level("WARNING", logger="agentmsg"):
            memory = SlidingWindowMemory(max_round=2, retained_round=retained)
            memory.add_messages(messages)

        assert 3 == len(caplog.records)
        assert shown(WORDBOOK_PRINTED) == str(messages)
        assert shown([WORDBOOK_PRINTED[index] for index in kept]) == str(memory.get_messages())

    def test_limit_tokens_memory(self):
        """A limit of 60 tokens keeps the last three messages, as printed there."""
        messages = wordbook()
        memory = LimitTokensMemory(max_token_limit=60)
        memory.add_messages(messages)

        assert shown(WORDBOOK_PRINTED[3:]) == str(memory.get_messages())


class TestMemoryUnitTests:
    """tests/unit_tests/memory: the fake chat model's answers in each memory."""

    def test_limit_token_memory_truncates(self):
        """Three rounds in a 20-token memory stay within 20 tokens."""
        memory = LimitTokensMemory(20)
        for _ in range(3):
            memory.add_message(HumanMessage(content="What is the purpose of model regularization?"))
            memory.add_message(text_response())
        assert 0 < memory.mem_token_count <= 20

    def test_limit_token_memory_with_a_system_message(self):
        """Ten Chinese rounds in a 100-token memory are pruned below twenty messages; the
        system message is kept apart."""
        memory = LimitTokensMemory(100)
        memory.add_message(SystemMessage("你是一个善于回答图像相关问题的agent。"))
        for _ in range(10):
            memory.add_message(HumanMessage(content="这个图像中的内容是什么？"))
            memory.add_message(text_response())
        assert "你是一个善于回答图像相关问题的agent。" == memory.system_message.content
        assert memory.mem_token_count <= 100
        assert len(memory.get_messages()) < 20

    @pytest.mark.parametrize("rounds", [1, 2, 4, 5, 10])
    def test_sliding_window_memory(self, rounds):
        """k rounds in a k-round window keep at most 2k messages."""
        memory = SlidingWindowMemory(rounds)
        for _ in range(rounds):
            memory.add_message(HumanMessage(content="What is the purpose of model regularization?"))
            memory.add_message(text_response())
        assert 2 * rounds == len(memory.get_messages())

    def test_list_message_print(self):
        """test_whole_memory.py's printed list."""
        messages = [HumanMessage("A"), AIMessage("B", function_call=None)]
        assert (
            "[<HumanMessage role: 'user', content: 'A'>, "
            "<AIMessage role: 'assistant', content: 'B', token_count: 1>]"
        ) == str(messages)


class TestMessageCookbookAndDocstrings:
    """cookbook/message.ipynb and the docstrings of memory/messages.py."""

    def test_printed_messages(self):
        """The human, system and function messages print as in the cookbook."""
        result = {"temperature": 25, "unit": "摄氏度"}
        function_message = FunctionMessage(
            name="get_current_temperature", content=json.dumps(result, ensure_ascii=False)
        )
        assert [
            "<role: 'user', content: '你好，你是谁？'>",
            "<role: 'system', content: '你是一名数学老师，使用浅显易懂的方法来回答问题', "
            "token_count: 23>",
            "<role: 'function', name: 'get_current_temperature', "
            'content: \'{"temperature": 25, "unit": "摄氏度"}\'>',
        ] == [
            str(HumanMessage(content="你好，你是谁？")),
            str(SystemMessage(content="你是一名数学老师，使用浅显易懂的方法来回答问题")),
            str(function_message),
        ]

    def test_message_docstring(self):
        """``Message("user", "hello", token_count=5)`` as the docstring shows."""
        assert "<role: 'user', content: 'hello'>" == str(Message("user", "hello"))
        assert "<role: 'user', content: 'hello', token_count: 5>" == str(
            Message("user", "hello", token_count=5)
        )
        assert "Message" == Message.__name__

    def test_system_message_docstring(self):
        """A system message's count is its length, and it can be set."""
        message = SystemMessage("you are an assistant useful for ocr.")
        assert ({"role": "system", "content": "you are an assistant useful for ocr."}, 36) == (
            message.to_dict(),
            message.token_count,
        )
        message.token_count = 3
        assert 3 == message.token_count

    def test_function_message_docstring(self):
        """A function message's name, content and role; its name can be assigned."""
        message = FunctionMessage(name="OCR", content="The text in the image is: 1234567")
        assert ("OCR", "function") == (message.name, message.role)
        message.name = "OCR/v2"
        assert {"role": "function", "name": "OCR/v2", "content": message.content} == (
            message.to_dict()
        )

    def test_empty_content_is_left_out_of_the_repr(self):
        """An answer that only calls a function prints no ``content``, as ERNIE's."""
        reply = AIMessage("", function_call=FunctionCall(name="f", thoughts="t", arguments="{}"))
        assert (
            "<AIMessage role: 'assistant', function_call: "
            "{'name': 'f', 'thoughts': 't', 'arguments': '{}'}, token_count: 0>"
        ) == repr(reply)


def convert_response(body: dict[str, Any], kind: type[AIMessage] = AIMessage) -> AIMessage:
    """What ERNIE Bot Agent's ``convert_response_to_output`` builds from a response body."""
    clarify = body.get("finish_reason") == "plugin_clarify"
    if "function_call" in body:
        call = body["function_call"]
        return kind(
            content="",
            function_call=FunctionCall(
                name=call["name"], thoughts=call["thoughts"], arguments=call["arguments"]
            ),
            plugin_info=None,
            search_info=None,
            clarify=clarify,
            token_usage=body["usage"],
        )
    if "plugin_info" in body:
        names = [meta["pluginNameForModel"] for meta in body["plugin_metas"]]
        return kind(
            content=body["result"],
            function_call=None,
            plugin_info=PluginInfo(names=names),
            search_info=None,
            token_usage=body["usage"],
            clarify=clarify,
        )
    if body.get("search_info"):
        return kind(
            content=body["result"],
            function_call=None,
            plugin_info=None,
            search_info=SearchInfo(results=body["search_info"]["search_results"]),
            token_usage=body["usage"],
            clarify=clarify,
        )
    return kind(content=body["result"], token_usage=body["usage"], clarify=clarify)


USAGE = {"prompt_tokens": 1285, "completion_tokens": 124, "total_tokens": 1409}


class TestChatModelOutputs:
    """tests/unit_tests/chat_model/test_chat_model_various_output.py's four responses."""

    def test_search_info(self):
        """A search answer keeps its results and the usage's counts."""
        body = {
            "result": "",
            "usage": USAGE,
            "search_info": {
                "search_results": [{"index": 1, "url": "", "title": "深圳天气预报_一周天气预报"}]
            },
        }
        answer = convert_response(body)
        assert len(answer.search_info) > 0
        assert (124, 1285) == (answer.token_count, answer.query_tokens_count)

    def test_plugin_info_and_its_usage(self):
        """A plugin answer's usage, with its per-plugin counts, is accepted and kept."""
        usage = {
            "prompt_tokens": 875,
            "completion_tokens": 172,
            "total_tokens": 1047,
            "plugins": [
                {
                    "name": "eChart",
                    "parse_tokens": 0,
                    "abstract_tokens": 0,
                    "search_tokens": 0,
                    "total_tokens": 423,
                }
            ],
        }
        body = {
            "result": "**图表数据:**",
            "usage": usage,
            "plugin_info": [{"plugin_id": "1004:1.0.3", "api_id": "eChart.plot"}],
            "plugin_metas": [{"pluginNameForModel": "eChart"}],
        }
        answer = convert_response(body)
        assert ({"names": ["eChart"]}, usage, 172) == (
            answer.plugin_info,
            answer.token_usage,
            answer.token_count,
        )
        assert answer == AIMessage.from_msg(answer.to_msg())
        with pytest.raises(MessageError) as info:
            AIMessage("x", token_usage={**usage, "plugins": [{"name": "eChart", "tokens": -1}]})
        assert "token_usage.plugins[0].tokens" == info.value.path

    def test_function_call(self):
        """A function-call answer has its call, thoughts included, and prints no content."""
        body = {
            "result": "",
            "usage": USAGE,
            "function_call": {
                "name": "TextRepeaterNoFileTool",
                "thoughts": "用户想要重复文本。",
                "arguments": '{"text":"今天是美好的一天","repeat_times":3}',
            },
        }
        answer = convert_response(body)
        assert len(answer.function_call) > 0
        assert repr(answer).startswith("<AIMessage role: 'assistant', function_call: ")

    def test_vanilla_output(self):
        """A plain answer has no plugin, call or search information."""
        body = {"result": "您好，我是文心一言。", "usage": USAGE}
        answer = convert_response(body)
        assert (None, None, None) == (answer.plugin_info, answer.function_call, answer.search_info)

    def test_streamed_chunks(self):
        """AIMessageChunk is built by the same conversion and adds up."""
        pieces = [
            convert_response({"result": "您好，", "usage": USAGE}, AIMessageChunk),
            convert_response({"result": "我是文心一言。", "usage": USAGE}, AIMessageChunk),
        ]
        assert "您好，我是文心一言。" == (pieces[0] + pieces[1]).content


class TestAgents:
    """The steps of ERNIE Bot Agent's agents that touch messages after they are made."""

    DOCS: ClassVar[list[dict[str, str]]] = [
        {"title": "城市管理执法办法.pdf", "content": "住房和城乡建设部规章城市管理执法办法"},
        {
            "title": "城市管理执法办法.pdf",
            "content": "城市管理执法主管部门应当定期开展执法人员的培训和考核。",
        },
    ]

    def retrieval_step(self, output_message: AIMessage) -> AIMessage:
        """FunctionAgentWithRetrieval._run: build or extend the answer's search_info."""
        if output_message.search_info is None:
            search_info = SearchInfo(results=[])
            for index, item in enumerate(self.DOCS):
                search_info["results"].append(
                    {"index": index + 1, "url": "", "title": item["title"]}
                )
            output_message.search_info = search_info
        else:
            cur_index = len(output_message.search_info["results"])
            for index, item in enumerate(self.DOCS):
                output_message.search_info["results"].append(
                    {"index": cur_index + index + 1, "url": "", "title": item["title"]}
                )
        return output_message

    def test_retrieval_agent_assigns_search_info(self):
        """Without search results of its own, the answer gets them assigned, as in
        test_function_agent_with_retrieval.py."""
        answer = self.retrieval_step(text_response())
        assert "Text response" == answer.content
        assert {
            "results": [
                {"index": 1, "url": "", "title": "城市管理执法办法.pdf"},
                {"index": 2, "url": "", "title": "城市管理执法办法.pdf"},
            ]
        } == answer.search_info

    def test_retrieval_agent_extends_search_info_in_place(self):
        """With results of its own, the agent appends to them in place: kept, and carried
        by the payload and the Msg form."""
        first = {"index": 1, "url": "https://example.org", "title": "own"}
        answer = self.retrieval_step(
            AIMessage("Text response", search_info=SearchInfo(results=[first]))
        )
        assert [1, 2, 3] == [result["index"] for result in answer.search_info["results"]]
        assert 3 == len(answer.to_dict()["search_info"]["results"])
        assert answer == AIMessage.from_msg(answer.to_msg())

    def test_memory_after_the_retrieval_agent(self):
        """The agent adds the prompt and the extended answer to its memory."""
        memory = WholeMemory()
        memory.add_message(HumanMessage("检索语句: Hello, world!"))
        memory.add_message(self.retrieval_step(text_response()))
        # the prompt costs its length (the fake answer reports no usage), the answer 2 words
        assert [19, 2] == [message.token_count for message in memory.get_messages()]

    def test_remote_toolkit_renames_example_calls_in_place(self):
        """RemoteToolkit prefixes the function name of its examples' calls in place."""
        example = AIMessage(
            "",
            function_call={
                "name": "getWordbook",
                "thoughts": "这是一个展示单词本的需求",
                "arguments": "{}",
            },
        )
        original = example.function_call["name"]
        example.function_call["name"] = f"单词本/v1/{original}"
        assert "单词本/v1/getWordbook" == example.function_call["name"]

    def test_function_agent_reads_the_call_and_answers_with_the_result(self):
        """FunctionAgent reads the call's name and arguments and sends a FunctionMessage."""
        reply = AIMessage(
            "", function_call={"name": "identity_tool", "arguments": '{"param": "test"}'}
        )
        tool_name = reply.function_call["name"]
        tool_args = reply.function_call["arguments"]
        result = FunctionMessage(name=tool_name, content=json.dumps(json.loads(tool_args)))
        memory = WholeMemory()
        memory.add_messages([HumanMessage("Hello, world!"), reply, result])
        assert ["Hello, world!", "", '{"param": "test"}'] == [m.content for m in memory.messages]
        assert 13 == memory.messages[0].token_count


def approx_num_tokens(text: str) -> int:
    """ERNIE Bot's estimate, written character by character as its rule reads."""
    ideographs = 0
    spaced = []
    for char in text:
        if "\u4e00" <= char <= "\u9fff":
            ideographs += 1
            spaced.append(" ")
        elif re.fullmatch(r"[^\w\s]", char):
            spaced.append(" ")
        else:
            spaced.append(char)
    return ideographs + math.floor(len("".join(spaced).split()) * 1.3)


class TestTokenFormula:
    """The role messages count as ERNIE Bot does."""

    @given(st.text())
    def test_matches_ernie_on_any_text(self, text):
        """The estimate equals ERNIE Bot's rule on any text, and an AIMessage's count too."""
        assert approx_num_tokens(text) == ernie_tokens(text) == AIMessage(text).token_count

    @pytest.mark.parametrize(
        ("text", "count"),
        [
            ("好，这个图片中的单词为meticulous", 11),
            ("这个单词的意思是挑剔的，关注细节的", 16),
            ("单词中目前有单词：meticulous", 9),
            ("Text response", 2),
            ("B", 1),
            ("", 0),
        ],
    )
    def test_ernie_texts(self, text, count):
        """ERNIE's own texts give the counts its cookbook and tests show."""
        assert count == AIMessage(text).token_count


class TestCreateWithFiles:
    """FunctionAgent._run: ``await HumanMessage.create_with_files(prompt, files or [],
    include_file_urls=self.file_needs_url)``."""

    @pytest.mark.parametrize("needs_url", [False, True])
    def test_the_agents_call_without_files(self, needs_url):
        """Without files, either value of include_file_urls gives the prompt as it is."""

        async def run() -> HumanMessage:
            return await HumanMessage.create_with_files(
                "Hello, world!", [], include_file_urls=needs_url
            )

        coroutine = run()
        with pytest.raises(StopIteration) as finished:
            coroutine.send(None)
        assert HumanMessage("Hello, world!") == finished.value.value

    def test_urls_cannot_be_written_for_kept_files(self):
        """With files, which agentmsg keeps as media blocks, asking for URLs is refused."""
        gif = b"GIF89a" + bytes(10)
        with pytest.raises(MessageError) as info:
            HumanMessage.create_with_files("What is it?", [gif], include_file_urls=True)
        assert "include_file_urls" == info.value.path
        with pytest.raises(MessageError):
            HumanMessage.create_with_files("What is it?", [], include_file_urls="yes")


class TestRemoteToolkitExamples:
    """RemoteToolkit.load_examples_dict: an example answer that calls no tool has a
    function call named ""."""

    def test_an_empty_function_name_is_kept(self):
        """The example loads and prints as in ERNIE Bot Agent; it has no Msg form."""
        example = AIMessage(
            "", function_call={"name": "", "thoughts": "无需工具", "arguments": "{}"}
        )
        assert "" == example.function_call["name"]
        assert example == AIMessage.from_dict(example.to_dict())
        with pytest.raises(MessageError) as info:
            example.to_msg()
        assert "function_call.name" == info.value.path
