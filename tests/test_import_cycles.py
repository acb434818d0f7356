"""No import circles among the product's modules.

The graph is built from the source (the AST of every module of the product's packages): an edge
``a -> b`` for every ``import b`` / ``from b import x`` in ``a``, including imports under
``if TYPE_CHECKING:`` (a circle through type hints is still two modules that cannot be understood
apart) and imports inside functions. ``from pkg import name`` is an edge to ``pkg.name`` when that is
a module, else to ``pkg``. A circle is a strongly connected component of more than one module (or a
module importing itself); each is listed with one import that closes it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from tests.product import PRODUCT, module_files

KNOWN_ENGINE_CIRCLES: frozenset[frozenset[str]] = frozenset()
"""Circles tolerated for now: none (an entry that is no longer a circle fails the test)."""


def _imported(module: str, path: Path, modules: set[str]) -> dict[str, int]:
    """The product modules ``module`` imports, each with the line of its first import."""
    is_package = path.name == "__init__.py"
    out: dict[str, int] = {}

    def add(target: str, line: int) -> None:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target:
            out.setdefault(target, line)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                add(full if full in modules else base, node.lineno)
    return out


def import_graph(packages: Iterable[str] = PRODUCT) -> dict[str, dict[str, int]]:
    """Module -> {imported product module: line}."""
    files = module_files(packages)
    names = set(files)
    return {name: _imported(name, path, names) for name, path in files.items()}


def circles(graph: dict[str, dict[str, int]]) -> list[frozenset[str]]:
    """The strongly connected components with a circle in them (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph[node]:
                        found.append(frozenset(component))
    return found


def describe(component: frozenset[str], graph: dict[str, dict[str, int]]) -> str:
    """One line per import inside the circle: ``a -> b (a's line N)``."""
    edges = [
        f"{src} -> {dst} (line {line})"
        for src in sorted(component)
        for dst, line in sorted(graph[src].items())
        if dst in component
    ]
    return "circle: " + "; ".join(edges)


def test_the_graph_sees_the_product() -> None:
    graph = import_graph()
    assert {"tui.app", "engine.session.loop", "sandbox.backends.local", "channel.mqtt", "themes"} <= set(graph)
    assert "sandbox.workspace.repo" in graph["sandbox.backends.local"]
    assert not any(".packs." in name for name in graph)


def test_the_finder_finds_a_circle_and_says_where() -> None:
    graph = {"a": {"b": 3}, "b": {"c": 1}, "c": {"a": 7}, "d": {"a": 1}, "e": {"e": 2}}
    assert sorted(map(sorted, circles(graph))) == [["a", "b", "c"], ["e"]]
    assert describe(frozenset({"a", "b", "c"}), graph) == (
        "circle: a -> b (line 3); b -> c (line 1); c -> a (line 7)"
    )


def test_no_import_circles_in_the_product() -> None:
    graph = import_graph()
    found = circles(graph)
    unexpected = [describe(c, graph) for c in found if c not in KNOWN_ENGINE_CIRCLES]
    assert unexpected == []


def test_the_known_engine_circles_are_still_circles() -> None:
    """The allow-list holds only circles that exist: once one is broken, delete its entry."""
    found = set(circles(import_graph()))
    assert {c for c in KNOWN_ENGINE_CIRCLES if c not in found} == set()
