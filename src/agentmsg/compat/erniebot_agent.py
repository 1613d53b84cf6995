"""ERNIE Bot Agent on agentmsg messages: ``agentmsg.compat.erniebot_agent.install()``.

After :func:`install`, the names of ``erniebot_agent.memory.messages`` (``Message``,
``SystemMessage``, ``HumanMessage``, ``AIMessage``, ``AIMessageChunk``,
``FunctionMessage`` and the ``FunctionCall``, ``TokenUsage``, ``PluginInfo`` and
``SearchInfo`` types) are agentmsg's, in that module and in every ERNIE Bot Agent module
that imported them (``erniebot_agent.memory``, its memories, chat models, agents and
tools), so ERNIE Bot Agent's own code makes, counts, keeps and returns agentmsg
messages. Call it at start-up, before ERNIE Bot Agent makes a message; it imports
``erniebot_agent.memory`` if it is not imported yet.

Example::

    import agentmsg.compat.erniebot_agent

    agentmsg.compat.erniebot_agent.install()

    from erniebot_agent.memory import HumanMessage  # agentmsg.HumanMessage
"""

from __future__ import annotations

from ..chat import _messages
from ._install import FrameworkInstall

__all__ = ["install", "installed", "is_installed", "uninstall"]

_CLASSES = (
    "Message",
    "SystemMessage",
    "HumanMessage",
    "AIMessage",
    "AIMessageChunk",
    "FunctionMessage",
)
_TYPES = ("FunctionCall", "TokenUsage", "PluginInfo", "SearchInfo")

_INSTALL = FrameworkInstall(
    "agentmsg.compat.erniebot_agent.install()",
    "erniebot_agent",
    "erniebot_agent.memory.messages",
    {name: getattr(_messages, name) for name in (*_CLASSES, *_TYPES)},
    _CLASSES,
)


def install() -> None:
    """Make ERNIE Bot Agent's message classes agentmsg's, in every module of ERNIE Bot
    Agent. Calling it again does nothing.

    Raises:
        ModuleNotFoundError: ERNIE Bot Agent is not installed.
        MessageError: ERNIE Bot Agent's own messages are alive already: its memories
            would no longer recognise them. Call :func:`install` first thing at
            start-up.
    """
    _INSTALL.install()


def uninstall() -> None:
    """Give ERNIE Bot Agent its own message classes back (agentmsg messages made
    meanwhile stay agentmsg's). Does nothing when not installed."""
    _INSTALL.uninstall()


is_installed = _INSTALL.is_installed
installed = _INSTALL.installed
