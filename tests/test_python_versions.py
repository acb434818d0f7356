"""The interpreters the project claims (pyproject's ``requires-python``, the README): the code that differs
between them stays correct on the oldest. scripts/test runs the version-dependent part of the suite on
Debian's /usr/bin/python3 (3.11.2) as well as on the default interpreter."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

from channel.memory import InProcessBus
from engine.agents.base import TurnContext
from engine.llm.errors import ModelUnreachable
from engine.session.config import SessionConfig
from engine.session.loop import Session

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("channel", "engine", "sandbox", "scenarios", "tui", "bench", "tests")


def _raises_in_except_star(path: Path) -> list[int]:
    """Lines of ``raise EXC`` inside an ``except*`` handler (not in a function defined there)."""
    found: list[int] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue
            if isinstance(child, ast.Raise) and child.exc is not None:
                found.append(child.lineno)
            visit(child)

    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.TryStar):
            for handler in node.handlers:
                visit(handler)
    return found


def test_no_exception_is_raised_inside_except_star() -> None:
    """Before Python 3.11.4 an exception raised inside ``except*`` is wrapped in a new ExceptionGroup
    (CPython gh-103590), so the caller's ``except ModelUnreachable`` misses it; split the group instead."""
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for top in SOURCES
        for path in sorted((ROOT / top).rglob("*.py"))
        if "packs" not in path.parts
        for line in _raises_in_except_star(path)
    ]
    assert offenders == [], "raise inside except* (wrapped before 3.11.4): " + ", ".join(offenders)


async def test_a_dead_model_stops_the_session_with_its_own_exception() -> None:
    """What the CLI's one line relies on: ModelUnreachable leaves ``Session.run`` as itself, not in a group
    (fails on 3.11.2 when the session loop raises inside ``except*``)."""
    session = Session(SessionConfig(), InProcessBus())

    async def dead(ctx: TurnContext) -> None:
        raise ModelUnreachable("owner's model m failed on every call (connection)")

    session.agents["owner"].take_turn = dead  # type: ignore[method-assign]
    with pytest.raises(ModelUnreachable) as caught:
        await session.run()
    assert type(caught.value) is ModelUnreachable and caught.value.__cause__ is None


def test_supported_versions_are_stated_alike_in_pyproject_and_readme() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11"
    classifiers = [c for c in project["classifiers"] if c.startswith("Programming Language :: Python :: 3.")]
    assert classifiers == ["Programming Language :: Python :: 3.11", "Programming Language :: Python :: 3.12"]
    readme = (ROOT / "README.md").read_text()
    assert re.search(r"Python 3\.11 \(3\.11\.2 and later\) and 3\.12", readme), "README: supported versions"
