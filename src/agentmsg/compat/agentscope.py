"""AgentScope 1.x on agentmsg messages: ``agentmsg.compat.agentscope.install()``.

After :func:`install`, ``agentscope.message.Msg`` is :class:`agentmsg.Msg`, in
``agentscope.message`` and in every AgentScope module that imported it, so AgentScope's
formatters, memories, sessions, agents, pipelines and tracing make, accept and return
agentmsg messages. Call it at start-up, before AgentScope makes a message; it imports
AgentScope if it is not imported yet, and an AgentScope module imported later gets
agentmsg's ``Msg`` too.

AgentScope's block ``TypedDict``\\s (``TextBlock``, ``ToolUseBlock``, ...) stay its own:
calling one makes a plain dict, which an agentmsg message takes as it is.

Example::

    import agentmsg.compat.agentscope

    agentmsg.compat.agentscope.install()

    from agentscope.message import Msg  # agentmsg.Msg
"""

from __future__ import annotations

from .._message import Msg
from ._install import FrameworkInstall

__all__ = ["install", "installed", "is_installed", "uninstall"]

_INSTALL = FrameworkInstall(
    "agentmsg.compat.agentscope.install()",
    "agentscope",
    "agentscope.message._message_base",
    {"Msg": Msg},
    ("Msg",),
)


def install() -> None:
    """Make AgentScope's ``Msg`` agentmsg's :class:`~agentmsg.Msg`, in every module of
    AgentScope. Calling it again does nothing.

    Raises:
        ModuleNotFoundError: AgentScope is not installed.
        MessageError: AgentScope's own ``Msg`` messages are alive already: its
            formatters and memories would refuse them afterwards. Call :func:`install`
            first thing at start-up.
    """
    _INSTALL.install()


def uninstall() -> None:
    """Give AgentScope its own ``Msg`` back (agentmsg messages made meanwhile stay
    agentmsg's). Does nothing when not installed."""
    _INSTALL.uninstall()


is_installed = _INSTALL.is_installed
installed = _INSTALL.installed
