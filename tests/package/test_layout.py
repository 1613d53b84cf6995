"""The package's layout: which of its modules import which.

The import graph is read from the source (every ``import`` statement, those inside
functions and under ``TYPE_CHECKING`` included), so an import put off until a function
runs still counts: it is a dependency all the same.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import agentmsg

PACKAGE = Path(agentmsg.__file__).parent
#: The one cycle the package keeps: the checked containers validate every change made in
#: them, and validation builds those containers (real mutual recursion, one unit).
ALLOWED_CYCLES = [["agentmsg._containers", "agentmsg._validate"]]


def module_name(path: Path) -> str:
    """``agentmsg.cards._html`` for ``src/agentmsg/cards/_html.py``."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the package, by name."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path, known: set[str]) -> Iterator[str]:
    """The package's modules that the module *name* (at *path*) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            # `from . import x` and `from .a import b` may import the modules `.x`, `.a.b`.
            targets = [source, *(f"{source}.{alias.name}" for alias in node.names)]
        else:
            continue
        yield from (target for target in targets if target in known and target != name)


def import_graph() -> dict[str, set[str]]:
    found = modules()
    return {name: set(imported(name, path, set(found))) for name, path in found.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of *graph* with more than one module, sorted
    (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


class TestImportGraph:
    """No module of the package imports itself back through others, but one pair."""

    def test_the_only_cycle_is_containers_and_validation(self) -> None:
        """The checked containers and validation form the one cycle."""
        assert ALLOWED_CYCLES == cycles(import_graph())

    def test_the_graph_sees_imports_inside_functions(self) -> None:
        """The reader finds the lazy imports too: containers import validation in a
        function, and the cards' renderer is imported by ``Msg._repr_html_``."""
        graph = import_graph()
        assert "agentmsg._validate" in graph["agentmsg._containers"]
        assert "agentmsg.cards._html" in graph["agentmsg._message"]
        assert "agentmsg._containers" in graph["agentmsg._validate"]

    def test_cycles_are_found(self) -> None:
        """The cycle finder reports a loop of three and leaves a chain out."""
        graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
        assert [["a", "b", "c"]] == cycles(graph)


#: The framework installs of agentmsg.compat, imported only by the line a user writes
#: (the migration tutorial shows it); importing agentmsg touches no framework.
OPT_IN = {"agentmsg.compat", "agentmsg.compat.agentscope", "agentmsg.compat.erniebot_agent"}


def reached(graph: dict[str, set[str]], start: str) -> set[str]:
    """The modules *start* imports, directly or through others, and *start* itself."""
    found, waiting = {start}, [start]
    while waiting:
        for module in graph[waiting.pop()] - found:
            found.add(module)
            waiting.append(module)
    return found


class TestEveryModuleIsUsed:
    """Nothing ships in the wheel for the docs or the tests alone."""

    def test_agentmsg_reaches_every_module(self) -> None:
        """Every module of the package is imported, directly or not, by ``agentmsg``
        itself (the lazy imports of functions included), or is one of the documented
        opt-in installs a user imports by name (:data:`OPT_IN`), which must never be
        imported by ``agentmsg``."""
        graph = import_graph()
        reachable = reached(graph, "agentmsg")
        assert set() == OPT_IN & reachable
        opt_in = set().union(*(reached(graph, module) for module in OPT_IN))
        assert [] == sorted(set(graph) - reachable - opt_in)

    def test_a_module_nothing_imports_is_found(self) -> None:
        """A module no other module imports is left out of what ``agentmsg`` reaches."""
        graph = {"agentmsg": {"agentmsg.a"}, "agentmsg.a": set(), "agentmsg._probes": set()}
        assert {"agentmsg", "agentmsg.a"} == reached(graph, "agentmsg")
