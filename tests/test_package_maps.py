"""Each package's docstring is a map of the package: one bullet per module or sub-package,
``- :mod:`package.name` — what it does``, for every ``.py`` module and sub-package in its folder,
and none for anything that is not there. Add a package to ``MAPPED`` and the test covers it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.product import ROOT

MAPPED = (
    "sandbox",
    "sandbox.workspace",
    "sandbox.commands",
    "sandbox.testing",
    "sandbox.jail",
    "sandbox.backends",
    "channel",
    "tui",
)

BULLET = re.compile(r"^- :mod:`~?(?P<module>[\w.]+)` — \S", re.M)


def children(package: str, root: Path = ROOT) -> set[str]:
    """The modules and sub-packages directly inside ``package``, by dotted name."""
    folder = root.joinpath(*package.split("."))
    found = {f"{package}.{p.stem}" for p in folder.glob("*.py") if p.name != "__init__.py"}
    found |= {f"{package}.{d.name}" for d in folder.iterdir() if (d / "__init__.py").is_file()}
    return found


def listed(package: str, root: Path = ROOT) -> list[str]:
    """The modules the package's docstring has a bullet for, in order."""
    init = root.joinpath(*package.split("."), "__init__.py")
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    return [m.group("module") for m in BULLET.finditer(doc)]


def map_problems(package: str, root: Path = ROOT) -> list[str]:
    """What is wrong with ``package``'s map, one line each (empty when it matches the files)."""
    names = listed(package, root)
    present = children(package, root)
    problems = [f"{package}: {name} has no line in the map" for name in sorted(present - set(names))]
    problems += [f"{package}: the map lists {name}, which is not there" for name in sorted(set(names) - present)]
    problems += [f"{package}: {name} is listed twice" for name in sorted({n for n in names if names.count(n) > 1})]
    return problems


@pytest.mark.parametrize("package", MAPPED)
def test_the_package_map_matches_its_files(package: str) -> None:
    assert map_problems(package) == []


def test_a_map_that_misses_or_invents_a_module_is_reported(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("")
    (pkg / "b.py").write_text("")
    (pkg / "__init__.py").write_text(
        '"""Map.\n\n- :mod:`pkg.a` — one\n- :mod:`~pkg.sub` — two\n'
        '- :mod:`pkg.ghost` — three\n- :mod:`pkg.a` — again\n"""\n'
    )
    assert map_problems("pkg", tmp_path) == [
        "pkg: pkg.b has no line in the map",
        "pkg: the map lists pkg.ghost, which is not there",
        "pkg: pkg.a is listed twice",
    ]
    (pkg / "__init__.py").write_text(
        '"""Map.\n\n- :mod:`pkg.a` — one\n- :mod:`pkg.b` — two\n- :mod:`pkg.sub` — three\n"""\n'
    )
    assert map_problems("pkg", tmp_path) == []
