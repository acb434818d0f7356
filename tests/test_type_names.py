"""No two public types of the product share a name: a class, or a type alias (``X = Literal[...]``,
``X: TypeAlias = ...``), whose name does not start with ``_``, is defined once across all the
product's packages, so a name read anywhere means one thing (and no import needs ``as``)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from tests.product import module_files

KNOWN_ENGINE_SESSION_CLASHES: dict[str, list[str]] = {}
"""Clashes tolerated for now: none (a clash that is gone fails the test)."""

ALIAS_HEADS = ("Literal[", "Annotated[", "Union[", "Callable[", "tuple[", "dict[", "list[")


def public_types(path: Path) -> list[str]:
    """The public classes and type aliases defined at the top level of the module at ``path``."""
    names: list[str] = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if "TypeAlias" in ast.unparse(node.annotation):
                names.append(node.target.id)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, ast.unparse(node.value)
            camel = name[:1].isupper() and not name.isupper()
            if camel and (value.startswith(ALIAS_HEADS) or " | " in value):
                names.append(name)
    return [name for name in names if not name.startswith("_")]


def shared_names(modules: dict[str, Path]) -> dict[str, list[str]]:
    where: dict[str, list[str]] = defaultdict(list)
    for module, path in modules.items():
        for name in public_types(path):
            where[name].append(module)
    return {name: sorted(found) for name, found in where.items() if len(found) > 1}


def test_the_finder_sees_classes_and_aliases(tmp_path: Path) -> None:
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from typing import Literal\nclass Role: ...\nSuite = Literal['x']\nclass _Private: ...\n")
    b.write_text("Role = Literal['y']\nSuite = 3\nLIMIT = int | None\n")
    assert public_types(a) == ["Role", "Suite"]
    assert shared_names({"a": a, "b": b}) == {"Role": ["a", "b"]}


def test_no_two_public_types_share_a_name() -> None:
    shared = shared_names(module_files())
    assert {name: where for name, where in shared.items() if name not in KNOWN_ENGINE_SESSION_CLASHES} == {}


def test_the_known_engine_session_clashes_are_still_there() -> None:
    """The allow-list holds only clashes that exist: once one is renamed, delete its entry."""
    shared = shared_names(module_files())
    assert {name: shared.get(name) for name in KNOWN_ENGINE_SESSION_CLASHES} == KNOWN_ENGINE_SESSION_CLASHES
