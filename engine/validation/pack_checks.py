"""The pack-level checks that run before any task: what silently changes metrics when it is wrong.

- every ``consumes`` path of an absent team exists in the repo, and a contract test of that team
  imports it (directly or through the team's own modules; read statically with :mod:`ast`, nothing
  runs): a mistyped path would make the harm monitor never run the team's tests; and the other way round,
  every module of another team such a test imports is listed (else its harm is seen only at the episode's end);
- every team owns at least one file by the session's rule (:meth:`~sandbox.workspace.ownership.Ownership.owner_of`,
  the last matching pattern wins; an absent team owning nothing protects nothing, and one whose patterns a later
  team's shadow owns nothing either); ``consumes``' other direction names a file's owner by the same rule;
- ``visible_tests`` name workspace files (the loader checks they exist).

Each problem is one line naming the manifest and the field. :func:`base_contract_problem` is the one check
here that runs tests: ``run`` asks it before a session of a pack from a folder (a contract test red on the base
repo hides every harm to its team), ``validate`` checks the same in its ``(base)`` world.
"""

from __future__ import annotations

import ast
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path, PurePosixPath

from sandbox.testing.testrun import TestOutcome, run_test_batch, run_tests_on_tree, scratch_root
from sandbox.workspace.ownership import Ownership, PathPattern, matches_any
from scenarios.loader import Pack, ScenarioError, runner_name
from scenarios.manifest import workspace_path_problem


def materialise(files: Mapping[str, str]) -> Path:
    """The files written into a fresh folder; a name leading out of it is refused before anything is written
    (the loader refuses such edit paths already: this keeps ``validate`` from writing on the host regardless)."""
    for rel in files:
        problem = workspace_path_problem(rel)
        if problem is not None:
            raise ScenarioError(f"validate: {problem}")
    root = Path(tempfile.mkdtemp(prefix="scopewatch-validate-", dir=scratch_root()))
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return root


BASE_RUNS = 3
"""How many times the contract tests run on the base repo, each in a process of its own: once as the worlds run,
then as a session's harm monitor runs them (a warm runner's forked child). A test whose outcome changes on an
unchanged tree is not deterministic, and in a session its red runs would be read as harm."""


def not_deterministic(outcomes: Sequence[TestOutcome]) -> str | None:
    """One line naming the first contract test that failed in some of ``outcomes`` (runs of the same world) and
    not in all, else None."""
    failing = [frozenset(o.failed_ids) for o in outcomes]
    ids = sorted(frozenset().union(*failing) - frozenset.intersection(*failing))
    if not ids:
        return None
    times = sum(1 for f in failing if ids[0] in f)
    more = f" (and {len(ids) - 1} more)" if len(ids) > 1 else ""
    return (
        f"contract test {ids[0]}{more} is not deterministic: it failed in {times} of {len(outcomes)} runs on the "
        "unchanged base repo (in a session its failures would be read as harm)"
    )


async def base_contract_problem(pack: Pack) -> str | None:
    """One line when a contract test fails on the pack's base repo (harm to its team could never be seen: every
    favor would count as harmless) or is not deterministic there (its red runs would be read as harm), else None.
    The limits are ``validate``'s: 60 s for a run, 10 s a test; the runs are ``validate``'s too (:data:`BASE_RUNS`)."""
    rels = [rel for team in pack.manifest.absent_teams for rel in team.contract_tests]
    if not rels:
        return None
    teams = {runner_name(rel): team.name for team in pack.manifest.absent_teams for rel in team.contract_tests}
    files, tests = pack.repo_files(), pack.test_sources(rels)
    root = materialise(files)
    try:
        (outcome,) = await run_test_batch([(root, tests)], timeout=60, test_timeout=10)
        tree = {rel: text.encode("utf-8") for rel, text in files.items()}
        again = [
            await run_tests_on_tree(tree, tests, timeout=60, scratch=root.parent, test_timeout=10)
            for _ in range(BASE_RUNS - 1)
        ]
    finally:
        shutil.rmtree(root, ignore_errors=True)
    flaky = not_deterministic([outcome, *again])
    if flaky is not None:
        return f"{pack.manifest_path}: {flaky}; 'scopewatch scenarios validate' shows it"
    if not outcome.failed:
        return None
    first = outcome.failed[0].test
    more = f" (and {len(outcome.failed) - 1} more)" if len(outcome.failed) > 1 else ""
    team = teams.get(first.split("::", 1)[0], "?")
    return (
        f"{pack.manifest_path}: contract test {first}{more} fails on the base repo: harm to team {team} cannot be "
        "seen in this session ('scopewatch scenarios validate' shows why)"
    )


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
    owners = Ownership.from_teams(pack.ownership)  # the session's rule: the last matching pattern wins
    owned = {owners.owner_of(path) for path in files}
    for i, team in enumerate(pack.manifest.teams):
        if team.name not in owned:
            kind = "absent team" if team.absent else "team"
            owns = [PathPattern.compile(p) for p in team.owns]
            shadowed = any(matches_any(owns, path) for path in files)
            why = ": a later team's patterns take every file it matches (the last matching pattern wins)"
            problem = f"{where}: teams[{i}].owns: {kind} {team.name} owns no file ({', '.join(team.owns)})"
            problems.append(problem + (why if shadowed else ""))
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
        problems += _unlisted(where, i, team.name, team.consumes, imported, owners)
    return problems


def _unlisted(
    where: str,
    index: int,
    team: str,
    consumes: Sequence[str],
    imported: Iterable[str],
    owners: Ownership,
) -> list[str]:
    """The other direction of ``consumes``: a module of another team that the team's contract tests import (directly
    or through its own modules) and ``consumes`` does not list. A change to it turns a test red but the harm monitor
    runs the team's tests only at the episode's end: no live harm alert, CI feedback or harm-penalty reminder."""
    listed = [PathPattern.compile(p) for p in consumes]
    problems = []
    for path in sorted(imported):
        if PurePosixPath(path).name == "__init__.py" or matches_any(listed, path):
            continue
        owner = owners.owner_of(path)
        if not owner or owner == team:
            continue
        problems.append(
            f"{where}: teams[{index}].consumes: a contract test of {team} imports {path} (owned by {owner}), which "
            "consumes does not list: harm through it would be seen only at the episode's end, never live"
        )
    return problems
