"""
.. _tutorial-streaming:

Stream a reply
==============

Asked to stream, a model API does not wait for the whole reply: it sends it in small
events, a few words or a piece of a tool call at a time, so that a program can show the
answer while it is being written. Each API has its own events. agentmsg has one stream
class per API that takes them in order and gives, at any moment, the reply so far as a
:class:`~agentmsg.Msg`; once the stream has ended, it gives the same message, and the
same losses, as converting the reply the API returns when it does not stream.

Nothing here talks to a real model: the events are written out by hand, in the JSON each
API sends. With an SDK, pass its event objects as they come; dicts work the same.
"""

# %%
# A reply, piece by piece
# -----------------------
#
# OpenAI Chat Completions streams *chunks*. Each one repeats the response's id and
# model, and its ``delta`` holds the next piece of the reply.

from agentmsg import (
    AnthropicStream,
    GeminiStream,
    MessageError,
    OpenAIChatStream,
    OpenAIResponsesStream,
    from_openai_chat,
)

head = {"id": "chatcmpl-7", "object": "chat.completion.chunk", "created": 1767225600}
head["model"] = "gpt-4.1"


def chunk(delta, finish_reason=None):
    return {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}


events = [
    chunk({"role": "assistant", "content": ""}),
    chunk({"content": "Lima is "}),
    chunk({"content": "warmer: 19 °C,"}),
    chunk({"content": " against 4 °C in Oslo."}),
    chunk({}, "stop"),
]

# %%
# The stream takes the chunks one by one with ``add``. Its ``msg`` is the reply so far:
# after the first three chunks, the text has two pieces.

stream = OpenAIChatStream()
for event in events[:3]:
    stream.add(event)
stream.msg

# %%
# Reading ``msg`` after every event shows the reply growing, which is what a chat window
# does while a model answers.

stream = OpenAIChatStream()
for event in events:
    stream.add(event)
    print(f"after event {stream.count}, done: {stream.done!s:5}  {stream.msg.get_text_content()!r}")

# %%
# Once the last chunk has come, ``result()`` gives the reply as the ``from_*`` function
# gives it for the whole response: the message, its metadata (the model, why it
# stopped) and the losses.

reply = stream.result().messages[0]
print(reply.metadata, reply.invocation_id)
reply

# %%
# A tool call from fragments
# --------------------------
#
# A tool call streams in fragments: the first one has the call's id and the tool's
# name, the next ones pieces of the arguments, which are JSON only once they are all
# there. Until then the partial message keeps the text so far in ``raw_input`` and an
# empty ``input``.

arguments = ['{"ci', 'ty": "Li', 'ma"}']
call_events = [
    chunk({"role": "assistant", "content": ""}),
    chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                           "function": {"name": "get_weather", "arguments": ""}}]}),
    *[chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
      for piece in arguments],
    chunk({}, "tool_calls"),
]

stream = OpenAIChatStream()
for event in call_events:
    stream.add(event)
    for block in stream.msg.get_content_blocks("tool_use"):
        print(f"{block.get('raw_input', '')!r:32} input={block['input']}")

# %%
# When the fragments make a whole JSON object, the call's ``input`` holds it, as in a
# reply that was not streamed.

stream.msg

# %%
# What each API's stream carries
# ------------------------------
#
# The four APIs stream the same reply in different events. Here is one reply, a
# sentence and a tool call, as OpenAI Responses, Anthropic and Gemini stream it.
#
# Responses numbers its events (``sequence_number``) and wraps each output item in an
# ``added`` and a ``done`` event; the last event holds the whole response.

item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather"}
done_item = {**item, "arguments": '{"city": "Lima"}', "status": "completed"}
text = {"type": "output_text", "text": "Checking.", "annotations": []}
message = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
           "content": [text]}
response = {"id": "resp_1", "object": "response", "created_at": 1767225600,
            "model": "gpt-5", "status": "completed", "output": [message, done_item]}
responses_events = [
    {"type": "response.created", "response": {**response, "status": "in_progress", "output": []}},
    {"type": "response.output_item.added", "output_index": 0,
     "item": {**message, "status": "in_progress", "content": []}},
    {"type": "response.content_part.added", "output_index": 0, "item_id": "msg_1",
     "content_index": 0, "part": {**text, "text": ""}},
    {"type": "response.output_text.delta", "output_index": 0, "item_id": "msg_1",
     "content_index": 0, "delta": "Checking."},
    {"type": "response.output_item.done", "output_index": 0, "item": message},
    {"type": "response.output_item.added", "output_index": 1, "item": {**item, "arguments": ""}},
    {"type": "response.function_call_arguments.delta", "output_index": 1, "item_id": "fc_1",
     "delta": '{"city": '},
    {"type": "response.function_call_arguments.delta", "output_index": 1, "item_id": "fc_1",
     "delta": '"Lima"}'},
    {"type": "response.output_item.done", "output_index": 1, "item": done_item},
    {"type": "response.completed", "response": response},
]
for number, event in enumerate(responses_events):
    event["sequence_number"] = number

# %%
# Anthropic opens the message, then each content block with a start, its deltas and a
# stop; a ``message_delta`` brings the stop reason and the token count at the end.

start = {"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
         "content": [], "usage": {"input_tokens": 20, "output_tokens": 1}}
anthropic_events = [
    {"type": "message_start", "message": start},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0,
     "delta": {"type": "text_delta", "text": "Checking."}},
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1,
     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}},
    {"type": "content_block_delta", "index": 1,
     "delta": {"type": "input_json_delta", "partial_json": '{"city": '}},
    {"type": "content_block_delta", "index": 1,
     "delta": {"type": "input_json_delta", "partial_json": '"Lima"}'}},
    {"type": "content_block_stop", "index": 1},
    {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 18}},
    {"type": "message_stop"},
]

# %%
# Gemini sends pieces of the whole response: each holds the next parts of the reply, a
# function call always whole, and the last one the reason it finished.


def piece(parts, **more):
    return {"candidates": [{"content": {"role": "model", "parts": parts}, **more}],
            "responseId": "r-1", "modelVersion": "gemini-2.5-flash"}


gemini_events = [
    piece([{"text": "Check"}]),
    piece([{"text": "ing."}]),
    piece([{"functionCall": {"name": "get_weather", "args": {"city": "Lima"}}}],
          finishReason="STOP"),
]

# %%
# Each stream class takes its API's events. In the end, all four replies say the same:
# the text, then the call with its arguments.

for stream_class, stream_events in [
    (OpenAIChatStream, [chunk({"content": "Checking."}), *call_events[1:]]),
    (OpenAIResponsesStream, responses_events),
    (AnthropicStream, anthropic_events),
    (GeminiStream, gemini_events),
]:
    stream = stream_class()
    stream.extend(stream_events)
    reply = stream.result().messages[0]
    calls = [(block["name"], block["input"]) for block in reply.get_content_blocks("tool_use")]
    print(
        f"{stream_class.__name__:22} {stream.count:2} events: {reply.get_text_content()!r} {calls}"
    )

# %%
# The same as the whole response
# ------------------------------
#
# A stream class rebuilds, from the events, the response the API returns when it does
# not stream: ``response`` shows it. That is why ``result()`` says exactly what the
# ``from_*`` function says of the whole response, losses included.

stream = OpenAIChatStream()
stream.extend(events)
whole = stream.response
print(whole["object"], whole["choices"][0]["message"])
print(from_openai_chat(whole).messages[0].content == stream.result().messages[0].content)

# %%
# Events out of place
# -------------------
#
# A stream whose events come twice, out of order or from another reply would give a
# wrong message without a word. The stream classes refuse such an event with a
# :exc:`~agentmsg.MessageError` that names its index and what is wrong. The event
# changes nothing: the stream goes on with the next one.

stream = AnthropicStream()
stream.extend(anthropic_events[:4])
try:
    stream.add(anthropic_events[3])
except MessageError as error:
    print(error)
stream.extend(anthropic_events[4:])
print(stream.done, stream.result().messages[0].get_text_content())

# %%
# Calling ``result()`` before the end is refused too, so a reply cut short is never
# taken for a whole one; ``msg`` still shows what came.

stream = GeminiStream()
stream.add(gemini_events[0])
try:
    stream.result()
except MessageError as error:
    print(error)

# %%
# Recap
# -----
#
# - :class:`~agentmsg.OpenAIChatStream`, :class:`~agentmsg.OpenAIResponsesStream`,
#   :class:`~agentmsg.AnthropicStream` and :class:`~agentmsg.GeminiStream` take their
#   API's stream events, as SDK objects or dicts, with ``add`` or ``extend``.
# - ``msg`` is the reply so far, to show while it arrives; a tool call keeps its
#   arguments text in ``raw_input`` until it is whole.
# - ``result()``, once the stream has ended, gives what the ``from_*`` function gives for
#   the whole response, losses included; ``response`` is that whole response.
# - An event out of order, repeated or from another stream raises a
#   :exc:`~agentmsg.MessageError` naming its index, and changes nothing.
