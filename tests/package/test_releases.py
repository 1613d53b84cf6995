"""Saved messages load in every later release.

``tests/fixtures/releases/<version>/`` holds what each released version saves of the
tutorials' messages (written by ``tools/write_release_fixtures.py``). Every folder must
load with this version and give back what was saved; the current version's folder must
also be what this version writes now.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import agentmsg
from agentmsg import ChatMessage, Msg
from releases import RELEASES, saved_set

FILES = sorted(RELEASES.glob("*/*.json"))


def without_fresh_fields(data: dict[str, Any]) -> dict[str, Any]:
    """A Msg dict without the id and timestamp that each to_msg() makes anew."""
    return {key: value for key, value in data.items() if key not in ("id", "timestamp")}


def ids(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


class TestSavedSets:
    """Every saved set of every release."""

    def test_every_version_has_a_set(self):
        """The current version has its folder, and every folder has every tutorial."""
        versions = sorted(path.name for path in RELEASES.iterdir() if path.is_dir())
        assert agentmsg.__version__ in versions
        tutorials = {path.stem for path in (RELEASES.parents[2] / "docs" / "examples").glob("*.py")}
        current = {path.stem for path in (RELEASES / agentmsg.__version__).glob("*.json")}
        assert tutorials == current

    @pytest.mark.parametrize("path", FILES, ids=[ids(path) for path in FILES])
    def test_msgs_load_and_save_the_same(self, path):
        """Each saved Msg loads, from the dict and from its JSON, and saves as it was."""
        data = json.loads(path.read_text(encoding="utf-8"))
        for saved in data["msgs"]:
            loaded = Msg.from_dict(saved)
            assert saved == loaded.to_dict()
            assert loaded == Msg.from_json(json.dumps(saved))

    @pytest.mark.parametrize("path", FILES, ids=[ids(path) for path in FILES])
    def test_role_messages_load_and_save_the_same(self, path):
        """Each saved role message loads from its payload and from its Msg form, as the
        class it was saved as, with its token count."""
        data = json.loads(path.read_text(encoding="utf-8"))
        for saved in data["role_messages"]:
            from_payload = ChatMessage.from_dict(saved["payload"])
            assert saved["payload"] == from_payload.to_dict()
            if saved["msg"] is None:
                continue
            from_msg = ChatMessage.from_msg(Msg.from_dict(saved["msg"]))
            assert saved["payload"] == from_msg.to_dict()
            again = from_msg.to_msg(saved["msg"]["name"]).to_dict()
            assert without_fresh_fields(saved["msg"]) == without_fresh_fields(again)
            # a chunk comes back as the AIMessage it adds up to, a Message as its role's class
            saved_class, kind = getattr(agentmsg, saved["class"]), type(from_msg)
            assert issubclass(saved_class, kind) or issubclass(kind, saved_class)


def test_the_current_set_is_what_this_version_writes():
    """The current version's folder holds what the code builds now (after a change to a
    tutorial, write it again: ``make release-fixtures``). The migration tutorial runs
    AgentScope and ERNIE Bot Agent where they are installed, which changes the ids it
    draws: the folder is written with them (``make`` installs the frameworks group)."""
    for framework in ("agentscope", "erniebot_agent"):
        pytest.importorskip(framework, reason="the fixtures are written with the frameworks")
    written = saved_set()
    folder = RELEASES / agentmsg.__version__
    on_disk = {
        path.stem: json.loads(path.read_text(encoding="utf-8")) for path in folder.glob("*.json")
    }
    assert on_disk == written
