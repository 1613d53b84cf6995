"""What the installs of :mod:`agentmsg.compat` share: swapping a framework's message
classes for agentmsg's in every module of the framework, and back."""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from .._errors import MessageError


@dataclass
class FrameworkInstall:
    """The install of one framework: which of its names become which agentmsg objects.

    *line* is the call that installs it, *package* the framework's top-level package,
    *module* the module that defines its messages, *names* maps each of that module's names
    to agentmsg's object, and *instance_names* are those of *names* whose instances would
    stop passing the framework's ``isinstance`` checks (the classes, not the
    ``TypedDict``s, which only make plain dicts).
    """

    line: str
    package: str
    module: str
    names: Mapping[str, Any]
    instance_names: tuple[str, ...]
    # Theirs -> ours while installed, keyed by id(): the framework's objects are
    # classes and TypedDicts, compared by identity, never by value.
    _swaps: dict[int, tuple[Any, Any]] | None = field(default=None, init=False)

    def is_installed(self) -> bool:
        """Whether :func:`install` is in effect."""
        return self._swaps is not None

    def install(self) -> None:
        if self._swaps is not None:
            return
        try:
            defining = importlib.import_module(self.module)
        except ModuleNotFoundError as error:
            if error.name is None or not self.module.startswith(error.name):
                raise
            msg = (
                f"`{self.line}` needs {self.package}, which is not installed "
                f"(`pip install {self.package.replace('_', '-')}`)."
            )
            raise ModuleNotFoundError(msg, name=error.name) from error
        theirs = {name: getattr(defining, name) for name in self.names}
        self._refuse_live(tuple(theirs[name] for name in self.instance_names))
        swaps = {id(theirs[name]): (theirs[name], ours) for name, ours in self.names.items()}
        self._swap(swaps)
        self._swaps = swaps

    def uninstall(self) -> None:
        swaps = self._swaps
        if swaps is None:
            return
        self._swap({id(ours): (ours, old) for old, ours in swaps.values()})
        self._swaps = None

    @contextmanager
    def installed(self) -> Iterator[None]:
        """:func:`install` for the ``with`` block only (for tests); an install that was
        already in effect stays."""
        was_active = self.is_installed()
        self.install()
        try:
            yield
        finally:
            if not was_active:
                self.uninstall()

    def _modules(self) -> list[ModuleType]:
        prefix = self.package + "."
        return [
            module
            for name, module in list(sys.modules.items())
            if isinstance(module, ModuleType) and (name == self.package or name.startswith(prefix))
        ]

    def _swap(self, swaps: dict[int, tuple[Any, Any]]) -> None:
        # Every module of the framework that holds one of the objects (by `from x import
        # Msg`, under any alias) gets the other one; modules imported later import it from
        # the defining module, which is swapped too.
        for module in self._modules():
            namespace = vars(module)
            for attribute, value in list(namespace.items()):
                swap = swaps.get(id(value))
                if swap is not None and swap[0] is value:
                    namespace[attribute] = swap[1]

    def _refuse_live(self, classes: tuple[type, ...]) -> None:
        """Raise when messages of the framework's own classes are alive: its checks would
        refuse them once its names are agentmsg's."""
        live = _count_instances(classes)
        if live:
            gc.collect()  # the messages may only wait for the collector
            live = _count_instances(classes)
        if live:
            names = ", ".join(sorted({cls.__name__ for cls in classes}))
            made = "1 message" if live == 1 else f"{live} messages"
            msg = (
                f"{self.package} has already made {made} of its own classes "
                f"({names}), which its code would refuse once they are agentmsg's; "
                f"call `{self.line}` at start-up, before anything makes a message."
            )
            raise MessageError(msg)


def _count_instances(classes: tuple[type, ...]) -> int:
    return sum(1 for obj in gc.get_objects() if issubclass(type(obj), classes))
