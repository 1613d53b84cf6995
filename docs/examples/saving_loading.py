"""
.. _tutorial-saving-loading:

Saving and loading
==================

Messages often live longer than the program that made them: they are written to logs,
kept in a database, sent to another service or replayed in a test. agentmsg saves a
message as plain JSON that any language can read, and checks everything again when it
loads it, so a damaged file can never turn into a broken message.

This tutorial saves and loads single messages as dicts and as JSON text, stores a whole
conversation in a file, validates the saved data against the JSON Schema of a message,
makes ids and timestamps reproducible for tests, and looks at the errors that damaged data
produces.
"""

# %%
# A round trip through a dict
# ---------------------------
#
# The conversation below mixes Chinese, Spanish and emoji, to show that text in any
# language survives every step unchanged. :meth:`Msg.to_dict <agentmsg.Msg.to_dict>` turns
# a message into a dict of plain JSON values, and
# :meth:`Msg.from_dict <agentmsg.Msg.from_dict>` builds an equal message from that dict.

from agentmsg import Msg

conversation = [
    Msg(name="李娜", role="user", content="你好！明天北京会下雨吗？"),
    Msg(
        name="Jarvis",
        role="assistant",
        content="明天北京多云，不会下雨。",
        metadata={"city": "北京", "rain_probability": 0.1},
    ),
    Msg(name="Lucía", role="user", content="¿Y en Sevilla? ¿Hace calor? 🌞"),
    Msg(name="Jarvis", role="assistant", content="¡Sol y 31 °C en Sevilla! ☀️"),
]

record = conversation[1].to_dict()
print(record)

again = Msg.from_dict(record)
print(again == conversation[1])

# %%
# Two messages are equal when all their fields are equal, the ``id`` and the
# ``timestamp`` included. The dict is a copy: changing it afterwards does not change the
# message it came from.

record["content"] = "Something else."
print(conversation[1].content)

# %%
# A round trip through JSON text
# ------------------------------
#
# :meth:`Msg.to_json <agentmsg.Msg.to_json>` returns the JSON text of a message, and
# :meth:`Msg.from_json <agentmsg.Msg.from_json>` reads it back. The text keeps Chinese
# characters, accents and emoji as they are, instead of the ``\uXXXX`` escapes that
# ``json.dumps`` writes by default. Both forms are valid JSON and load the same way,
# but the first one can be read by a person.

import json

text = conversation[2].to_json()
escaped = json.dumps(conversation[2].to_dict())

print(text)
print(escaped)
print(Msg.from_json(text) == Msg.from_json(escaped) == conversation[2])

# %%
# Pass ``indent`` for text that is easier to read, in a configuration file for example.

print(conversation[1].to_json(indent=2))

# %%
# A conversation in a JSON Lines file
# -----------------------------------
#
# A convenient way to store a conversation is `JSON Lines <https://jsonlines.org>`_: one
# message per line, each line a complete JSON document. New messages are appended at the
# end without rewriting the file, and a program can read the file line by line. Because
# the text is not escaped, open the file with ``encoding="utf-8"``.
#
# The example writes the conversation to a temporary folder, which is deleted at the end
# of the ``with`` block, and loads it back.

import tempfile
from pathlib import Path

with tempfile.TemporaryDirectory() as folder:
    path = Path(folder) / "conversation.jsonl"

    with path.open("w", encoding="utf-8") as file:
        for message in conversation:
            file.write(message.to_json() + "\n")

    with path.open(encoding="utf-8") as file:
        loaded = [Msg.from_json(line) for line in file]

    lines = path.read_text(encoding="utf-8").splitlines()
    print(path.name, "holds", len(lines), "lines")

for message in loaded:
    print(f"{message.name}: {message.content}")

print("Identical after the round trip:", loaded == conversation)

# %%
# The JSON Schema of a message
# ----------------------------
#
# Programs written in other languages, or tools that check data before it reaches
# Python, need a description of the saved format. :func:`agentmsg.json_schema` returns it
# as a `JSON Schema <https://json-schema.org>`_ (draft 2020-12), a plain dict. Here are its
# outline and the rule for the ``role`` field.

from agentmsg import json_schema

schema = json_schema()

print(schema["title"])
print("required:", schema["required"])
print("fields:  ", list(schema["properties"]))
print("blocks:  ", list(schema["$defs"]))
print(json.dumps(schema["properties"]["role"]))

# %%
# The definition of each block type lives under ``$defs``. A text block, for example, must
# have exactly two fields, ``type`` and ``text``.

print(json.dumps(schema["$defs"]["text"], indent=2))

# %%
# Any JSON Schema validator can now check saved messages. The next cell uses the
# `jsonschema <https://python-jsonschema.readthedocs.io>`_ package when it is installed.
# Without it, the cell falls back to a much simpler check of the field names and the role,
# so that it still runs anywhere.

records = [message.to_dict() for message in conversation]
wrong = dict(records[0], role="customer")

try:
    import jsonschema
except ImportError:
    jsonschema = None

if jsonschema is not None:
    validator = jsonschema.Draft202012Validator(schema)
    print("valid records:", sum(validator.is_valid(record) for record in records))
    for problem in validator.iter_errors(wrong):
        print("wrong record:", problem.message)
else:

    def simple_check(record):
        return (
            set(schema["required"]) <= set(record) <= set(schema["properties"])
            and record["role"] in schema["properties"]["role"]["enum"]
        )

    print("valid records:", sum(simple_check(record) for record in records))
    print("wrong record passes:", simple_check(wrong))

# %%
# The schema describes the shape of the data. A few rules are beyond what a schema can
# express, for example that a timestamp must be a real date: 30 February fits the pattern
# but is still refused when the message is loaded. Loading with
# :meth:`~agentmsg.Msg.from_dict` or :meth:`~agentmsg.Msg.from_json` remains the complete
# check.
#
# Reproducible ids and timestamps
# -------------------------------
#
# New messages get a random id and the current time, so two runs of the same program
# produce different files. That is what you want in production, but it gets in the way of
# tests that compare saved output with an expected file. Inside a ``with``
# :func:`agentmsg.deterministic` block, ids come from a random generator started from a
# fixed seed, and timestamps from a clock that starts at a fixed time and moves one second
# for each message.

from agentmsg import deterministic


def build_exchange():
    return [
        Msg(name="tester", role="user", content="ping"),
        Msg(name="Jarvis", role="assistant", content="pong"),
    ]


with deterministic(seed=42):
    first_run = build_exchange()

with deterministic(seed=42):
    second_run = build_exchange()

for message in first_run:
    print(message.id, message.timestamp, message.content)

print("Same ids and timestamps:", first_run == second_run)

# %%
# The start time and the step of the clock can be chosen too. A different seed gives
# different ids.

with deterministic(
    seed="nightly",
    start="2025-06-01 12:00:00.000",
    step_seconds=0.25,
):
    other_run = build_exchange()

for message in other_run:
    print(message.id, message.timestamp, message.content)

# %%
# The setting only applies to the code that runs inside the block, and blocks can be
# nested. It is context-local: threads and asyncio tasks started outside the block keep
# their random ids.
# In a pytest suite, a fixture can wrap every test that needs it:
#
# .. code-block:: python
#
#    import pytest
#
#    from agentmsg import deterministic
#
#
#    @pytest.fixture
#    def fixed_ids():
#        with deterministic(seed="tests"):
#            yield
#
# The web pages of this documentation use the same mechanism: their examples run inside
# :func:`~agentmsg.deterministic`, which is why their ids and timestamps stay the same from
# one build to the next. In a notebook you run yourself, they are new each time.
#
# Loading damaged data
# --------------------
#
# Data read from a file or received over a network may be incomplete, edited by hand or
# written by an older program. Loading it raises :class:`agentmsg.MessageError`, whose text
# says what is wrong and where. Here are some typical cases, each loaded as one line of a
# JSON Lines file would be.

from agentmsg import MessageError

damaged_lines = [
    '{"name": "Lucía", "role": "user", "content": "¡Hola!"',
    '{"name": "Lucía", "role": "user"}',
    '{"name": "Lucía", "role": "customer", "content": "¡Hola!"}',
    '{"name": "Lucía", "role": "user", "content": "¡Hola!", "sender": "web"}',
    '{"name": "Lucía", "role": "user", "content": "¡Hola!", '
    '"timestamp": "2025-02-30 10:00:00.000"}',
    '{"name": "Lucía", "role": "user", "content": [{"type": "text", "text": 42}]}',
    '["Lucía", "user", "¡Hola!"]',
]

for number, line in enumerate(damaged_lines, start=1):
    try:
        Msg.from_json(line)
    except MessageError as error:
        print(f"line {number}: {error}")

# %%
# The ``path`` attribute of the error holds the field path alone, or an empty string when
# the whole value was rejected, as for text that is not JSON. A program can use it to
# report problems briefly, or to keep the good lines of a file and list the bad ones.


def load_lines(lines):
    messages, problems = [], []
    for number, line in enumerate(lines, start=1):
        try:
            messages.append(Msg.from_json(line))
        except MessageError as error:
            problems.append(f"line {number}: {error.path or '(the whole line)'}")
    return messages, problems


messages, problems = load_lines([conversation[0].to_json(), *damaged_lines])

print(len(messages), "message loaded:", messages[0].content)
print("\n".join(problems))
