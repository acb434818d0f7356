"""The interpreters the project claims (pyproject's ``requires-python``, the README): the code that differs
between them stays correct on the oldest. scripts/test runs the version-dependent part of the suite on
Debian's /usr/bin/python3 (3.11.2) as well as on the default interpreter."""

from __future__ import annotations

import ast
import re
import shlex
import tomllib
from pathlib import Path

import pytest

from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from engine.agents.base import TurnContext
from engine.llm.errors import ModelUnreachable
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
    """What scripts/test proves (the default interpreter and Debian 12's 3.11.2) is what is claimed."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11.2,<3.12"
    minors = [c for c in project["classifiers"] if c.startswith("Programming Language :: Python :: 3.")]
    assert minors == ["Programming Language :: Python :: 3.11"]
    readme = (ROOT / "README.md").read_text()
    assert "Python 3.11 (3.11.2, Debian 12's, or later 3.11 releases)" in readme, "README: supported versions"


VERSION_DEPENDENT = re.compile(r"TaskGroup|except\*|ExceptionGroup|asyncio\.timeout\b")


def _second_interpreter_tests() -> list[Path]:
    """The test files scripts/test runs on the second interpreter (its ``SECOND_TESTS``)."""
    script = (ROOT / "scripts/test").read_text()
    block = re.search(r"^SECOND_TESTS=\((.*?)^\)", script, flags=re.M | re.S)
    assert block, "scripts/test: no SECOND_TESTS"
    words = shlex.split(block.group(1), comments=True)
    files: list[Path] = []
    for word in words:
        path = ROOT / word
        files += sorted(path.rglob("test_*.py")) if path.is_dir() else [path]
    assert all(f.exists() for f in files), files
    return files


def test_the_second_interpreter_runs_the_tests_of_every_version_dependent_module() -> None:
    """Each module whose code differs between Python versions (TaskGroup, except*, asyncio.timeout) is
    imported by a test that scripts/test runs on Debian's 3.11.2 too."""
    modules = [
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for top in ("channel", "engine", "sandbox", "scenarios", "tui")
        for path in sorted((ROOT / top).rglob("*.py"))
        if "packs" not in path.parts and VERSION_DEPENDENT.search(path.read_text())
    ]
    assert "engine.session.loop" in modules
    imported = set()
    for test in _second_interpreter_tests():
        for node in ast.walk(ast.parse(test.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    assert [m for m in modules if m not in imported] == []
    assert ROOT / "tests/test_python_versions.py" in _second_interpreter_tests()
