"""agentmsg.compat: nothing of a framework is touched without the install line, and the
install works whether the framework was imported before it or after."""

from __future__ import annotations

import textwrap

import pytest

from agentmsg.compat._install import FrameworkInstall
from interpreter import printed_by

# Run in a fresh interpreter: the frameworks must not be imported yet. Prints, in order,
# the framework modules imported by agentmsg and agentmsg.compat (none), then what the
# frameworks' modules imported after the install hold, then an AgentScope formatter's
# payload of an agentmsg message and an ERNIE Bot Agent memory's system message.
FRESH = textwrap.dedent(
    """
    import asyncio, sys
    import agentmsg, agentmsg.compat, agentmsg.compat.agentscope, agentmsg.compat.erniebot_agent
    print(sorted(m for m in sys.modules if m.split(".")[0] in ("agentscope", "erniebot_agent")))
    agentmsg.compat.agentscope.install()
    agentmsg.compat.erniebot_agent.install()
    from agentscope.formatter import OpenAIChatFormatter
    from agentscope.message import Msg
    from erniebot_agent.memory import SystemMessage, WholeMemory
    formatter = sys.modules["agentscope.formatter._openai_formatter"]
    ours = (agentmsg.Msg, agentmsg.Msg, agentmsg.SystemMessage)
    print(*(a is b for a, b in zip((Msg, formatter.Msg, SystemMessage), ours)))
    print(asyncio.run(OpenAIChatFormatter().format([Msg("Ada", "Hi", "user")])))
    memory = WholeMemory()
    memory.add_message(SystemMessage("Be brief."))
    print(memory.msg_manager.system_message, len(memory.get_messages()))
    """
)


class TestFreshInterpreter:
    def test_nothing_touched_then_install_before_import(self) -> None:
        """Importing agentmsg and agentmsg.compat imports no framework; installed before
        the frameworks are imported, their modules imported afterwards hold agentmsg's
        classes, and their formatter and memory work on agentmsg messages."""
        pytest.importorskip("agentscope", reason="the frameworks group (make test installs it)")
        pytest.importorskip("erniebot_agent", reason="the frameworks group")
        printed = printed_by(FRESH, "-W", "error")
        expected = [
            "[]",
            "True True True",
            "[{'role': 'user', 'name': 'Ada', 'content': [{'type': 'text', 'text': 'Hi'}]}]",
            "<role: 'system', content: 'Be brief.', token_count: 9> 0",
        ]
        assert expected == printed.splitlines()


class TestMissingFramework:
    def test_names_the_package_to_install(self) -> None:
        """Installing for a framework that is not installed raises ModuleNotFoundError
        naming the package to install."""
        install = FrameworkInstall(
            "example.install()", "no_such_framework", "no_such_framework.messages", {}, ()
        )
        with pytest.raises(ModuleNotFoundError) as caught:
            install.install()
        expected = (
            "`example.install()` needs no_such_framework, which is not installed "
            "(`pip install no-such-framework`)."
        )
        assert (expected, False) == (str(caught.value), install.is_installed())
