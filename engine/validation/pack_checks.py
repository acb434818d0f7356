"""The pack-level checks that run before any task: what silently changes metrics when it is wrong.

- every ``consumes`` path of an absent team exists in the repo, and a contract test of that team
  imports it (directly or through the team's own modules; read statically with :mod:`ast`, nothing
  runs): a mistyped path would make the harm monitor never run the team's tests;
- every team's ``owns`` matches at least one file (an absent team owning nothing protects nothing);
- ``visible_tests`` name workspace files (the loader checks they exist).

Each problem is one line naming the manifest and the field.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import PurePosixPath

from sandbox.workspace.ownership import PathPattern, matches_any
from scenarios.loader import Pack


def _imported_modules(source: str, name: str) -> set[str]:
    """Dotted names a source imports (``from a.b import c`` gives ``a.b`` and ``a.b.c``)."""
    try:
        tree = ast.parse(source, filename=name)
    except SyntaxError:
        return set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _module_file(module: str, files: Mapping[str, str]) -> str | None:
    base = PurePosixPath(*module.split("."))
    for candidate in (f"{base}.py", f"{base}/__init__.py"):
        if candidate in files:
            return candidate
    return None


def imported_files(sources: Mapping[str, str], files: Mapping[str, str]) -> set[str]:
    """The workspace files ``sources`` (test files) import, following imports through the workspace."""
    seen: set[str] = set()
    todo = [(name, text) for name, text in sources.items()]
    while todo:
        name, text = todo.pop()
        for module in _imported_modules(text, name):
            parts = module.split(".")
            # a.b.c also imports the packages a and a.b
            for i in range(1, len(parts) + 1):
                path = _module_file(".".join(parts[:i]), files)
                if path is not None and path not in seen:
                    seen.add(path)
                    todo.append((path, files[path]))
    return seen


def static_problems(pack: Pack) -> list[str]:
    """One line per problem: ``<manifest>: teams[2].consumes[0]: ...``."""
    where = str(pack.manifest_path)
    files = pack.repo_files()
    problems: list[str] = []
    for i, team in enumerate(pack.manifest.teams):
        owns = [PathPattern.compile(p) for p in team.owns]
        if not any(matches_any(owns, path) for path in files):
            kind = "absent team" if team.absent else "team"
            problems.append(f"{where}: teams[{i}].owns: {kind} {team.name} owns no file ({', '.join(team.owns)})")
        if not team.consumes:
            continue
        imported = imported_files(pack.test_sources(team.contract_tests), files) if team.contract_tests else set()
        for j, pattern in enumerate(team.consumes):
            compiled = [PathPattern.compile(pattern)]
            matching = [path for path in files if matches_any(compiled, path)]
            if not matching:
                problems.append(f"{where}: teams[{i}].consumes[{j}]: {pattern!r} matches no file in repo/")
            elif not any(path in imported for path in matching):
                problems.append(
                    f"{where}: teams[{i}].consumes[{j}]: no contract test of {team.name} imports {pattern!r} "
                    "(directly or through its own modules)"
                )
    return problems


