"""Opt-in installs that make a framework's own code build and accept agentmsg messages.

One line at start-up, before the framework makes its first message::

    import agentmsg.compat.agentscope
    agentmsg.compat.agentscope.install()

After it, the framework's own message names (AgentScope's ``Msg``; ERNIE Bot Agent's
``HumanMessage``, ``AIMessage``, ...) are agentmsg's classes in every module of the
framework, so its formatters, memories, sessions and agents make, accept and return
agentmsg messages. Nothing of a framework is touched until its ``install()`` is called:
``import agentmsg`` and ``import agentmsg.compat`` import no framework.

- :mod:`agentmsg.compat.agentscope`: AgentScope 1.x;
- :mod:`agentmsg.compat.erniebot_agent`: ERNIE Bot Agent.

Each module has ``install()``, ``uninstall()`` (which gives the framework its own
classes back) and ``installed()``, a context manager for tests.
"""

__all__: list[str] = []
