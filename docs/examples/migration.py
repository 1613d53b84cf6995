"""
.. _tutorial-migration:

Coming from AgentScope or ERNIE Bot Agent
=========================================

agentmsg keeps the message model of two agent frameworks. Its :class:`agentmsg.Msg`,
with a sender, a role and typed content blocks, follows the ``Msg`` class of
AgentScope 1.x. Its role messages, :class:`~agentmsg.HumanMessage`,
:class:`~agentmsg.SystemMessage`, :class:`~agentmsg.AIMessage` and
:class:`~agentmsg.FunctionMessage`, follow those of ERNIE Bot Agent. Code written for
either framework usually runs on agentmsg once its imports name agentmsg instead.

This tutorial takes code in the style of each framework, runs it on agentmsg, and shows
that it gives the results it gives there: the code is the same, only the import
changes. Code that hands messages to the framework itself, to its agents, memories and
formatters, needs one more line, which makes the framework use agentmsg's classes; the
part "Keep your framework" shows it. Where agentmsg behaves differently, it does so on
purpose, and the last part of the tutorial lists each difference with its reason.

.. list-table:: Where the names come from
   :header-rows: 1
   :widths: 40 60

   * - In the framework
     - In agentmsg
   * - ``from agentscope.message import Msg, TextBlock, ToolUseBlock``
     - ``from agentmsg import Msg, TextBlock, ToolUseBlock``
   * - ``from erniebot_agent.memory import HumanMessage, AIMessage``
     - ``from agentmsg import HumanMessage, AIMessage``
   * - ``erniebot_agent.memory.messages.Message``
     - :class:`agentmsg.Message`: a message of any role, and the base class of the four
       role messages
"""

# %%
# AgentScope: messages made of blocks
# -----------------------------------
#
# An AgentScope message is built with the sender's name, the content and the role, in
# that order, and its content blocks are plain dicts described by ``TypedDict``
# classes. The same lines build an agentmsg message. In AgentScope, an image may point
# to a file on the local disk, by a path, absolute or relative, or by a ``file://`` URL;
# agentmsg accepts all three and keeps them as written. Nothing is read when the
# message is built.

from agentmsg import ImageBlock, Msg, TextBlock, ToolUseBlock, URLSource

screen = URLSource(type="url", url="/srv/uploads/screen.png")
cable = URLSource(type="url", url="file:///srv/uploads/cable.png")
report = Msg(
    "Ada",
    [
        TextBlock(type="text", text="The projector in room 12 shows this screen."),
        ImageBlock(type="image", source=screen),
        ImageBlock(type="image", source=cable),
    ],
    "user",
)

print(report.get_text_content())
print(report.has_content_blocks("image"), len(report.get_content_blocks("image")))

# %%
# Wherever it is shown, the card of the message shows a local file as its path, never
# as a link or a picture: a card does not read files, and a page should not point into
# its reader's disk.

report

# %%
# :meth:`Msg.check_media <agentmsg.Msg.check_media>` is the one method that reads local
# files, and only inside the folder you name: a message may come from anyone, and a file
# it merely names is never opened. Given the folder, it opens each file and checks that
# its bytes are an image, a sound or a video, as the block says. Nothing has put files
# at the paths of this example, neither on the machine that builds the documentation
# nor on yours, so the first one is reported.

from agentmsg import MediaError

try:
    report.check_media(root="/srv/uploads")
except MediaError as error:
    print(error)

# %%
# Tool calls as AgentScope's models write them
# --------------------------------------------
#
# AgentScope 1.x stores a tool call as a ``tool_use`` block. Its models also keep the
# arguments exactly as the model wrote them, in an optional ``raw_input`` field, because
# that text may be broken JSON that ``input`` could only repair. Its Gemini model adds a
# ``thought_signature`` to text and tool calls, and its Anthropic model a ``signature`` to
# thinking blocks. agentmsg keeps all three, unchanged, through every round trip.

thinking = {"type": "thinking", "thinking": "A weather question.", "signature": "EqQB"}
use = ToolUseBlock(
    type="tool_use",
    id="call_1",
    name="get_weather",
    input={"city": "Lima"},
    raw_input='{"city": "Lima"',  # the model forgot the closing brace
)
call = Msg("Jarvis", [thinking, use], "assistant")

again = Msg.from_json(call.to_json())
print(again.get_content_blocks("tool_use")[0]["raw_input"])
print(again == call)

# %%
# A dict that AgentScope saved loads as it is: its keys are the fields of an agentmsg
# message. AgentScope writes an empty dict when a message has no metadata, which agentmsg
# keeps.

saved = {
    "id": "V4rKt9bWxjZ2YpQe3sLmNa",
    "name": "Jarvis",
    "role": "assistant",
    "content": [{"type": "text", "text": "It is 19 °C in Lima."}],
    "metadata": {},
    "timestamp": "2025-05-04 10:30:00.000",
}
loaded = Msg.from_dict(saved)
print(loaded.get_text_content(), loaded.metadata)
print(loaded.to_dict() == saved)

# %%
# Changing a message in place
# ---------------------------
#
# AgentScope code often changes a message where it stands: it appends a block to
# ``msg.content``, extends one message's content with another's, or edits the text of a
# block. The same code works on agentmsg.

opening = TextBlock(type="text", text="Here is what I found.")
merged = Msg("Jarvis", [opening], "assistant")
merged.content.extend(call.content)
merged.content.append(TextBlock(type="text", text="More soon."))
merged.content[0]["text"] += " (first draft)"

print([block["type"] for block in merged.content])
print(merged.get_text_content(" | "))

# %%
# Each change is checked at once, by the same rules as a new message. A change that
# would make the message invalid raises :exc:`agentmsg.MessageError`, which names the
# place, and leaves the message as it was. A message therefore always turns into a dict
# that :meth:`Msg.from_dict <agentmsg.Msg.from_dict>` accepts: a saved conversation
# always loads again.

from agentmsg import MessageError

for change in [
    lambda: merged.content.append({"type": "bogus"}),
    lambda: merged.content[0].update(text=42),
    lambda: merged.content[2]["input"].update(days=("today", "tomorrow")),
]:
    try:
        change()
    except MessageError as error:
        print(error)

print(Msg.from_dict(merged.to_dict()) == merged)

# %%
# ERNIE Bot Agent: role messages and token counts
# -----------------------------------------------
#
# ERNIE Bot Agent writes a conversation with one class per role, string content and a
# token count. The same classes exist in agentmsg, with the same arguments, and
# :class:`agentmsg.Message` is their base class, under the name ERNIE Bot Agent gives it.

from agentmsg import AIMessage, FunctionMessage, HumanMessage, Message, SystemMessage

instruction = SystemMessage("You are a travel assistant. Answer briefly.")
question = HumanMessage("Where should I spend a weekend in Shenzhen?")
messages: list[Message] = [question]

print(instruction.token_count, instruction.to_dict())
print(all(isinstance(message, Message) for message in [instruction, *messages]))

# %%
# A chat model answers with an :class:`~agentmsg.AIMessage`. ERNIE Bot reports the
# token usage with two counts, ``prompt_tokens`` and ``completion_tokens``, and may add
# the results of a web search, the plugins it ran, and whether it asks the user to
# clarify the question. The arguments come in ERNIE Bot Agent's order, and the counts are
# derived as it derives them: ``token_count`` is the completion, ``query_tokens_count``
# the prompt.

found = {"index": 1, "url": "https://example.com/shenzhen", "title": "Shenzhen"}
answer = AIMessage(
    "Try the OCT Loft for art and the Dameisha beach for the sea.",
    None,
    {"prompt_tokens": 21, "completion_tokens": 17},
    None,
    {"results": [found]},
)
print(answer.token_count, answer.query_tokens_count, answer.clarify)
print(answer.search_info["results"][0]["title"])
print(list(answer.to_dict()))

# %%
# ERNIE Bot Agent's memory uses the prompt count of each answer to fill in the count of
# the question before it, and code that is not sure whether a count is known asks with
# ``getattr`` and a default. Both patterns work: reading a count that is not known yet
# raises :exc:`agentmsg.TokenCountError`, which is an :exc:`AttributeError` too, so the
# default applies.

print(getattr(question, "token_count", None))
if answer.query_tokens_count:
    question.token_count = answer.query_tokens_count
messages.append(answer)
print([getattr(message, "token_count", None) for message in messages])

# %%
# A function call, and its result sent back, read the same way:

lookup = AIMessage(
    "",
    {"name": "get_weather", "thoughts": "Look it up.", "arguments": '{"city":"Sanya"}'},
    {"prompt_tokens": 40, "completion_tokens": 9},
)
weather = FunctionMessage(name="get_weather", content='{"temperature_c": 27}')
print(lookup.function_call["name"], lookup.function_call["arguments"])
print(weather.to_dict())

# %%
# Counts as ERNIE Bot Agent counts them
# -------------------------------------
#
# Without a usage report, an answer's count is ERNIE Bot's own estimate: each Chinese
# character costs one token, each other word 1.3, rounded down. A system message costs
# the length of its text. So a memory that keeps messages within a token limit keeps
# the same messages as there. Its memories also set the count of a message each time it
# enters one; setting a count again replaces it, as there, and logs a warning.

reply = AIMessage("好，这个图片中的单词为meticulous")
print(reply)
print(Message("user", "hello", token_count=5))
question.token_count = 30
print(question.token_count)

# %%
# Fields set after the answer is made
# -----------------------------------
#
# ERNIE Bot Agent's retrieval agent adds search results to an answer after the chat
# model made it: it assigns ``search_info``, or appends to the results already there.
# Both work, and both are checked: a value that is not a search result is refused with
# :exc:`~agentmsg.MessageError`, and the answer keeps what it had. The same holds for
# ``function_call``, ``plugin_info``, ``clarify`` and ``query_tokens_count``.

answer.search_info["results"].append({"index": 2, "url": "", "title": "Dameisha"})
print([result["title"] for result in answer.search_info["results"]])
try:
    answer.search_info["results"].append("Sanya")
except MessageError as error:
    print(error)
print(len(answer.to_dict()["search_info"]["results"]))

# %%
# The usage of a plugin answer lists each plugin's counts beside the totals; it is kept
# as ERNIE Bot reports it.

chart = AIMessage(
    "Here is the chart.",
    None,
    {
        "prompt_tokens": 875,
        "completion_tokens": 172,
        "total_tokens": 1047,
        "plugins": [{"name": "eChart", "parse_tokens": 0, "total_tokens": 423}],
    },
    {"names": ["eChart"]},
)
print(chart.token_count, chart.token_usage["plugins"][0]["name"], chart.plugin_info)

# %%
# AgentScope's streamed tool calls
# --------------------------------
#
# While a model streams a tool call, AgentScope 1.x's model classes hand out the answer
# so far after each piece, and a tool call whose id or name has not arrived yet is a
# ``tool_use`` block with ``id=""`` or ``name=""``. agentmsg refuses such a block, as it
# refuses it in a finished message: an empty id cannot be paired with its result. The
# one change: while streaming, leave out the tool calls that are not complete yet. The
# finished message has them all, and is checked as every message is.


def complete_blocks(blocks):
    """The blocks of a streamed answer so far, without unfinished tool calls."""
    return [
        block for block in blocks if block["type"] != "tool_use" or (block["id"] and block["name"])
    ]


partial = [
    TextBlock(type="text", text="Let me look."),
    ToolUseBlock(type="tool_use", id="", name="", input={}),
]
try:
    Msg("Jarvis", partial, "assistant")
except MessageError as error:
    print(error)
so_far = Msg("Jarvis", complete_blocks(partial), "assistant")
print(len(so_far.content))

# %%
# Streamed answers
# ----------------
#
# ERNIE Bot Agent's chat models stream an answer as pieces, each an
# :class:`~agentmsg.AIMessageChunk`. In agentmsg, as with langchain-core's chunks, pieces
# add up with ``+``: the texts are joined, and so are the arguments of a function call
# that arrives in pieces. The usage report of a later piece replaces an earlier one: a
# chat API reports usage as a running total in each piece, or once in the last, and
# either way the last report covers the whole answer.

from agentmsg import AIMessageChunk

so_far = [("The OCT Loft ", 4), ("is a former factory ", 8), ("full of art.", 12)]
pieces = [
    AIMessageChunk(text, token_usage={"prompt_tokens": 21, "completion_tokens": count})
    for text, count in so_far
]
streamed = sum(pieces[1:], pieces[0])
print(streamed.content)
print(type(streamed).__name__, streamed.token_count, isinstance(streamed, AIMessage))

# %%
# Files with a question
# ---------------------
#
# In ERNIE Bot Agent, ``HumanMessage.create_with_files`` is a coroutine, awaited inside
# ``async`` code. The agentmsg method reads local files or bytes right away, and its
# result can be awaited too, so that code runs unchanged; code that is not asynchronous
# calls it without ``await``. The small ``run_now`` helper below drives the coroutine to
# its end without an event loop, which works in a script and in a notebook alike; your
# program simply awaits it in its own loop.

# A 1x1 transparent GIF, small enough to write inline.
pixel = bytes.fromhex(
    "47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b"
)


async def ask_about(image: bytes) -> HumanMessage:
    return await HumanMessage.create_with_files("What colour is this?", [image])


def run_now(coroutine):
    """Run a coroutine that never waits, and return its result."""
    try:
        coroutine.send(None)
    except StopIteration as finished:
        return finished.value
    raise RuntimeError("the coroutine is waiting for something")


awaited = run_now(ask_about(pixel))
called = HumanMessage.create_with_files("What colour is this?", [pixel])
print(awaited)
print(awaited == called)

# %%
# Keep your framework
# -------------------
#
# So far the messages went nowhere near the frameworks. An AgentScope agent, memory or
# formatter, or an ERNIE Bot Agent memory or chat model, checks each message it gets
# against its own classes, and builds its answers with them. One line at start-up, before
# the framework makes its first message, changes that: ``install()`` makes the
# framework's own message names agentmsg's classes, in every module of the framework, so
# that its code builds, accepts and returns agentmsg messages. Nothing of a framework is
# touched until its ``install()`` is called, and ``uninstall()`` gives the framework its
# classes back. Called after the framework has made messages of its own, ``install()``
# raises :exc:`~agentmsg.MessageError`: the framework would refuse those messages
# afterwards.
#
# The in-browser version of this tutorial has neither framework (they cannot be
# installed there), so the cells of this part say so and skip their examples.

import agentmsg.compat.agentscope
import agentmsg.compat.erniebot_agent

try:
    agentmsg.compat.agentscope.install()
    agentmsg.compat.erniebot_agent.install()
    frameworks = True
except ModuleNotFoundError as missing:
    frameworks = False
    print(missing)

if frameworks:
    import agentscope.message
    import erniebot_agent.memory

    print(agentscope.message.Msg is Msg, erniebot_agent.memory.HumanMessage is HumanMessage)

# %%
# An AgentScope agent
# ~~~~~~~~~~~~~~~~~~~
#
# A ReAct agent with AgentScope's formatter, memory and toolkit, and a stand-in for the
# chat model that answers from a script, so that the example runs offline: it first asks
# for the weather tool, then answers. The agent takes an agentmsg message and answers
# with one, and its memory holds agentmsg messages. Its methods are coroutines;
# ``run_async`` runs one to its end in a thread of its own, because a notebook already
# runs an event loop.

import asyncio
import contextvars
from concurrent.futures import ThreadPoolExecutor


def run_async(coroutine):
    """Run a coroutine to its end in a new thread, and return its result."""
    context = contextvars.copy_context()  # the new thread keeps the settings made here
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(context.run, asyncio.run, coroutine).result()


if frameworks:
    from agentscope.agent import ReActAgent
    from agentscope.formatter import OpenAIChatFormatter
    from agentscope.memory import InMemoryMemory
    from agentscope.model import ChatModelBase, ChatResponse
    from agentscope.tool import Toolkit, ToolResponse

    class ScriptedModel(ChatModelBase):
        """A chat model that gives the answers it was given, in order."""

        def __init__(self, *answers):
            super().__init__("scripted", stream=False)
            self.answers = list(answers)

        async def __call__(self, messages, **kwargs):
            content = self.answers.pop(0)
            return ChatResponse(content=content, id=f"scripted-{len(self.answers)}")

    def get_weather(city: str) -> ToolResponse:
        """Tell the weather in a city.

        Args:
            city: The city.
        """
        return ToolResponse(content=[TextBlock(type="text", text=f"19 °C and cloudy in {city}")])

    toolkit = Toolkit()
    toolkit.register_tool_function(get_weather)
    model = ScriptedModel(
        [ToolUseBlock(type="tool_use", id="call_7", name="get_weather", input={"city": "Lima"})],
        [TextBlock(type="text", text="It is 19 °C and cloudy in Lima.")],
    )
    jarvis = ReActAgent(
        name="Jarvis",
        sys_prompt="You answer questions about the weather.",
        model=model,
        formatter=OpenAIChatFormatter(),
        memory=InMemoryMemory(),
        toolkit=toolkit,
    )
    jarvis.set_console_output_enabled(False)

    forecast = run_async(jarvis(Msg("Ada", "What is the weather in Lima?", "user")))
    print(type(forecast), forecast.get_text_content())
    for kept in run_async(jarvis.memory.get_memory()):
        kinds = [block["type"] for block in kept.get_content_blocks()]
        print(type(kept).__name__, kept.role, kinds)
else:
    print("AgentScope is not installed here: this example is skipped.")

# %%
# An ERNIE Bot Agent memory
# ~~~~~~~~~~~~~~~~~~~~~~~~~
#
# ERNIE Bot Agent's ``LimitTokensMemory`` keeps the system message apart, gives each
# question the prompt count of the answer that follows it, and drops the oldest messages
# when the conversation grows past its limit. With agentmsg's role messages it keeps
# exactly the messages it keeps with its own.

if frameworks:
    from erniebot_agent.memory import LimitTokensMemory

    memory = LimitTokensMemory(max_token_limit=60)
    memory.add_message(SystemMessage("You are a travel assistant. Answer briefly."))
    for asked, answered, prompt_tokens in [
        ("Where should I spend a weekend in Shenzhen?", "The OCT Loft, for art.", 21),
        ("And by the sea?", "Dameisha beach.", 30),
        ("How do I get there?", "Take the metro, then a bus.", 38),
    ]:
        memory.add_message(HumanMessage(asked))
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": 6}
        memory.add_message(AIMessage(answered, None, usage))
    print(type(memory.msg_manager.system_message).__name__)
    print([(kept.role, kept.token_count) for kept in memory.get_messages()])
    print(memory.mem_token_count)
else:
    print("ERNIE Bot Agent is not installed here: this example is skipped.")

# %%
# Different on purpose
# --------------------
#
# agentmsg refuses a few things that the frameworks let through, because each of them
# can turn a message into one that no longer loads, or change it without anyone
# noticing. The table lists them; the examples after it show the first three.
#
# .. list-table:: The deliberate differences
#    :header-rows: 1
#    :widths: 30 70
#
#    * - What
#      - In agentmsg, and why
#    * - The role of a ``Msg``
#      - Always one of ``"user"``, ``"assistant"`` and ``"system"``. AgentScope checks
#        it with ``assert``, which ``python -O`` removes.
#    * - Metadata
#      - JSON values only, and ``None`` until you give a dict (AgentScope starts with
#        ``{}``). A ``datetime`` or a set would not come back from a saved conversation.
#    * - Unknown fields in a block
#      - Refused, apart from the optional fields AgentScope writes. A misspelled field
#        would otherwise be kept, and its value never read.
#    * - Local files
#      - Paths, absolute or relative, and ``file://`` URLs, kept as written. Cards never
#        link them, and only :meth:`~agentmsg.Msg.check_media` reads them, inside the
#        folder you give it, where AgentScope's formatters read every file a message
#        names.
#    * - ``get_content_blocks``
#      - Returns copies, where AgentScope returns the message's own blocks. Change a block
#        through ``msg.content``, where the change is checked.
#    * - ``to_dict``
#      - Writes ``invocation_id`` when it is set; AgentScope leaves it out, so a loaded
#        message would lose it.
#    * - Streamed tool calls
#      - A ``tool_use`` block with an empty ``id`` or ``name`` is refused, mid-stream too;
#        leave it out until it is complete, as shown above.
#    * - Role messages
#      - The fields ERNIE Bot Agent's code assigns can be assigned, and changed in place,
#        but each value is checked; ``role`` and ``content`` stay fixed, as there.
#    * - ``Message``
#      - Takes the roles ``"user"``, ``"assistant"`` and ``"system"``; ERNIE Bot Agent's
#        takes any text. A function's result needs its name: use ``FunctionMessage``.
#    * - ``create_with_files``
#      - Takes local paths and bytes, and keeps them as media blocks in ``files``. ERNIE
#        Bot Agent takes its own file objects and writes their ids into the text; with
#        the install, pass its agents local paths or bytes rather than file objects.
#    * - ``install()`` late
#      - Refused with :exc:`~agentmsg.MessageError` once the framework has made messages
#        of its own classes: its checks would no longer recognise them, and they would
#        be dropped or misread without an error. Call it first thing at start-up.

from datetime import date

for attempt in [
    lambda: Msg("Ada", "Hello", "robot"),
    lambda: Msg("Ada", "Hello", "user", {"sent": date(2025, 5, 4)}),
    lambda: Msg("Ada", [{"type": "text", "text": "Hello", "lang": "en"}], "user"),
]:
    try:
        attempt()
    except MessageError as error:
        print(error)

# %%
# A message without metadata starts with ``None``. Code written for AgentScope that sets
# a key in it needs one more line, which makes the dict; then keys can be set and
# changed in place, each change checked:

note = Msg("Jarvis", "Noted.", "assistant")
note.metadata = {}
note.metadata["topic"] = "weather"
print(note.metadata)

# %%
# Recap
# -----
#
# - Change the imports to ``agentmsg``: ``Msg``, the block classes, the role messages
#   and ``Message`` keep their names, arguments and results.
# - AgentScope's local files, ``raw_input`` and signature fields, saved dicts and
#   in-place changes all work; every change is checked at once.
# - ERNIE Bot Agent's token counts, fields set later, search and plugin information,
#   streamed chunks and ``await HumanMessage.create_with_files(...)`` work as they do
#   there.
# - Code that hands messages to AgentScope or ERNIE Bot Agent calls
#   ``agentmsg.compat.agentscope.install()`` or ``agentmsg.compat.erniebot_agent.install()``
#   once at start-up; the framework's agents, memories and formatters then build, accept
#   and return agentmsg messages.
# - The differences protect your data: an invalid role, metadata that JSON cannot carry,
#   an unknown field, an unfinished tool call or a bad value set on a role message raise
#   :exc:`~agentmsg.MessageError` instead of passing silently.
#
# Notes: what was run
# -------------------
#
# Each case below comes from the frameworks' own source and was run on agentmsg with
# the import changed; ``tests/package/test_peer_ernie.py`` and the tests of the package
# keep running them.
#
# .. list-table:: Sources run on agentmsg
#    :header-rows: 1
#    :widths: 45 55
#
#    * - Source file of the framework
#      - Result on agentmsg
#    * - ERNIE Bot Agent ``cookbook/memory.ipynb``
#      - Prints what it prints there: the same messages, counts and pruning in
#        ``WholeMemory``, ``SlidingWindowMemory`` and ``LimitTokensMemory``.
#    * - ERNIE Bot Agent ``cookbook/message.ipynb``
#      - The same printed messages and counts.
#    * - ERNIE Bot Agent ``memory/messages.py`` (docstrings)
#      - ``Message("user", "hello", token_count=5)``, a system count set again, the same
#        reprs.
#    * - ERNIE Bot Agent 0.5.2 ``tests/unit_tests/``: ``memory/``, ``chat_model/``,
#        ``agents/`` (with ``callback/``) and ``prompt/``
#      - All 39 of its tests pass, run with ERNIE Bot Agent's own code after
#        ``agentmsg.compat.erniebot_agent.install()``, their imports of messages changed to
#        agentmsg: memories, search, plugin and function-call answers, the function
#        agent, the retrieval agents, callbacks and prompts.
#    * - AgentScope 1.0.21 ``tests/``: its formatters for eight APIs, memories, memory
#        compression, sessions, hooks, the ReAct, A2A and user agents, pipelines and
#        tracing (21 files)
#      - 129 of its 130 tests pass the same way, after
#        ``agentmsg.compat.agentscope.install()``. The one left compares a message's dict
#        with ``"metadata": {}``, where agentmsg keeps ``None`` (see "Metadata" above).
#    * - ERNIE Bot Agent ``agents/function_agent_with_retrieval.py``
#      - ``search_info`` assigned and extended in place: kept, and checked.
#    * - ERNIE Bot Agent ``agents/function_agent.py``, ``tools/remote_toolkit.py``
#      - The call read, renamed in place and answered with a ``FunctionMessage``.
#    * - AgentScope ``src/agentscope/model/_openai_model.py``,
#        ``_dashscope_model.py``, ``_anthropic_model.py``
#      - A streamed tool call without its id or name is refused; leaving it out until it
#        is complete, as above, works.
