"""Response bodies recorded from the live APIs (tests/fixtures/responses/*/README.md).

Each recorded body converts to its reply, or, when the API answered with an error, to
the MessageError that quotes the error's message; the reply is written back as a request.
"""

from __future__ import annotations

from typing import Any

import pytest

import agentmsg
from agentmsg import MessageError
from corpus import BODIES as RECORDED
from corpus import corpus_params

READ = {
    "openai_chat": agentmsg.from_openai_chat,
    "openai_responses": agentmsg.from_openai_responses,
    "anthropic": agentmsg.from_anthropic,
    "gemini": agentmsg.from_gemini,
}
WRITE = {
    "openai_chat": agentmsg.to_openai_chat,
    "openai_responses": agentmsg.to_openai_responses,
    "anthropic": agentmsg.to_anthropic,
    "gemini": agentmsg.to_gemini,
}
#: Where each format's request holds its turns.
TURNS = {"openai_chat": "messages", "openai_responses": "input", "gemini": "contents"}


def is_error(body: dict[str, Any]) -> bool:
    """Whether *body* is the API's answer to a failed call."""
    return body.get("type") == "error" or ("error" in body and "output" not in body)


class TestRecordedResponses:
    """Every recorded body gives its reply or a clear MessageError."""

    def test_the_corpus_is_there(self):
        """The corpus holds bodies of each API."""
        counts = {name: sum(key.startswith(name + "/") for key in RECORDED) for name in READ}
        assert {name: True for name in READ} == {name: counts[name] >= 20 for name in READ}

    @pytest.mark.parametrize("key", corpus_params(sorted(RECORDED)))
    def test_reply_or_the_error_message(self, key):
        """A reply body gives one assistant Msg; an error body a MessageError quoting
        its message."""
        format, body = key.split("/")[0], RECORDED[key]["body"]
        try:
            outcome: Any = [msg.role for msg in READ[format](body).messages]
        except MessageError as error:
            outcome = str(error)
        if is_error(body):
            assert "`error.message` is " in outcome
        else:
            assert ["assistant"] == outcome

    @pytest.mark.parametrize(
        "key", corpus_params(key for key in sorted(RECORDED) if not is_error(RECORDED[key]["body"]))
    )
    def test_reply_written_back(self, key):
        """The reply, after a user turn, is written back as a request."""
        format = key.split("/")[0]
        reply = READ[format](RECORDED[key]["body"]).messages
        payload = WRITE[format]([agentmsg.Msg("user", "Hi.", "user"), *reply]).payload

        assert "user" == payload[TURNS.get(format, "messages")][0]["role"]


class TestErrorBodies:
    def test_an_array_the_gemini_api_ended_with_its_error(self):
        """Gemini's REST API streams an array of responses without SSE; one it ended with
        its error, read as a list, raises the MessageError quoting the error's message
        (not an empty user turn with the error reported as a field)."""
        body = [{"error": {"code": 429, "message": "Quota hit", "status": "RESOURCE_EXHAUSTED"}}]
        with pytest.raises(MessageError) as raised:
            agentmsg.from_gemini(body)

        expected = (
            "`error.message` is 'Quota hit': the Gemini API answered with an error, not a reply."
        )
        assert expected == str(raised.value)

    def test_a_content_whose_error_is_null_is_read_as_a_content(self):
        """A content with ``"error": null`` (no error) is read as the turn it is."""
        parsed = agentmsg.from_gemini([{"role": "user", "error": None}])

        assert (["user"], ()) == ([msg.role for msg in parsed.messages], parsed.losses)
