"""The worlds ``validate`` runs tests in: file sets, each written into a fresh folder and run once.

A world is the pack's base repo with a few edits (a setup, a reference, a favor), so what costs is the base, not
the edits: a repo of thousands of modules or one 20 MB data file used to be hashed (to share identical worlds)
and written out again for every world of every task, so validating grew with tasks x repo size although the test
runs were cached. Here a world is known by what differs from the base (the paths whose text is not the base's,
and the paths it lacks), and its folder is made of hard links to one copy of the base written once, with only
the differing files written anew (a plain copy where a link cannot be made). Two worlds with the same files have
the same key whatever edits made them, as before.

Tests read the workspace; they do not write it (the runner writes no bytecode): a test that rewrote a file of the
base in place would rewrite it for the worlds after it.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.validation.pack_checks import materialise
from sandbox.testing.testrun import TestOutcome, run_test_batch, run_tests_on_tree, scratch_root
from scenarios.loader import ScenarioError
from scenarios.manifest import workspace_path_problem

World = tuple[Mapping[str, str], Mapping[str, str]]
"""``(files, tests)``: workspace path -> text, and test name -> source."""


def changed_from(base: Mapping[str, str], files: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The paths of ``files`` whose text is not ``base``'s (new or edited), and the paths of ``base`` it lacks.
    An unedited file is the base's own string (edits copy the mapping, not the texts), so most are one identity
    test; a text equal to the base's under another identity counts as unchanged too."""
    changed: dict[str, str] = {}
    for name, text in files.items():
        old = base.get(name)
        if old is None or (old is not text and old != text):
            changed[name] = text
    removed = [name for name in base if name not in files] if len(files) - len(changed) < len(base) else []
    return changed, removed


def world_key(base: Mapping[str, str], files: Mapping[str, str], tests: Mapping[str, str]) -> str:
    """A key equal for equal worlds over the same base: a hash of what differs from it and of the tests."""
    changed, removed = changed_from(base, files)
    h = hashlib.sha256()
    for name in sorted(changed):
        h.update(b"F" + name.encode() + b"\0" + changed[name].encode() + b"\0")
    for name in sorted(removed):
        h.update(b"D" + name.encode() + b"\0")
    for name in sorted(tests):
        h.update(b"T" + name.encode() + b"\0" + tests[name].encode() + b"\0")
    return h.hexdigest()


class WorldRuns:
    """Runs test suites against worlds over one base: the worlds of one call share one test process, and a world
    already run (or running) for another task is not run again."""

    def __init__(
        self, base: Mapping[str, str], concurrency: int, timeout: float, test_timeout: float | None = None
    ) -> None:
        self._base = base
        self._base_root: Path | None = None
        self._limit = asyncio.Semaphore(concurrency)
        self._timeout = timeout
        self._test_timeout = test_timeout
        self._runs: dict[str, asyncio.Future[TestOutcome]] = {}

    async def run(self, worlds: Sequence[World]) -> tuple[list[TestOutcome], int]:
        """The outcome of each ``(files, tests)`` world, and how many of them this call ran."""
        keys = [world_key(self._base, files, tests) for files, tests in worlds]
        mine: dict[str, World] = {}
        for key, world in zip(keys, worlds, strict=True):
            if key not in self._runs:
                self._runs[key] = asyncio.get_running_loop().create_future()
                mine[key] = world
        if mine:
            try:
                async with self._limit:
                    roots = [self._materialise(files) for files, _ in mine.values()]
                    try:
                        batch = [(root, tests) for root, (_, tests) in zip(roots, mine.values(), strict=True)]
                        outcomes = await run_test_batch(batch, timeout=self._timeout, test_timeout=self._test_timeout)
                    finally:
                        for root in roots:
                            shutil.rmtree(root, ignore_errors=True)
            except BaseException as exc:
                for key in mine:
                    self._runs[key].set_exception(exc)
                    self._runs[key].exception()  # retrieved here; waiters re-raise it themselves
                raise
            for key, outcome in zip(mine, outcomes, strict=True):
                self._runs[key].set_result(outcome)
        return [await asyncio.shield(self._runs[key]) for key in keys], len(mine)

    async def run_as_session(self, files: Mapping[str, str], tests: Mapping[str, str]) -> TestOutcome:
        """``tests`` on ``files`` now, as a session's harm monitor runs them (a warm runner's forked child, where
        one can be had), whatever ran before: not shared, not remembered."""
        tree = {rel: text.encode("utf-8") for rel, text in files.items()}
        scratch = Path(tempfile.mkdtemp(prefix="scopewatch-validate-", dir=scratch_root()))
        try:
            return await run_tests_on_tree(
                tree, tests, timeout=self._timeout, scratch=scratch, test_timeout=self._test_timeout
            )
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def close(self) -> None:
        """Remove the base's copy (the worlds' folders go as each run ends)."""
        if self._base_root is not None:
            shutil.rmtree(self._base_root, ignore_errors=True)
            self._base_root = None

    def _materialise(self, files: Mapping[str, str]) -> Path:
        changed, _ = changed_from(self._base, files)
        if len(changed) == len(files):  # nothing shared with the base: write it as it is
            return materialise(files)
        if self._base_root is None:
            self._base_root = materialise(self._base)
        for rel in changed:
            problem = workspace_path_problem(rel)
            if problem is not None:
                raise ScenarioError(f"validate: {problem}")
        root = Path(tempfile.mkdtemp(prefix="scopewatch-validate-", dir=scratch_root()))
        made: set[Path] = set()
        for rel, content in files.items():
            path = root / rel
            if path.parent not in made:
                path.parent.mkdir(parents=True, exist_ok=True)
                made.add(path.parent)
            if rel in changed:
                path.write_text(content, encoding="utf-8")
                continue
            try:
                os.link(self._base_root / rel, path)
            except OSError:  # another file system, or links refused: a copy
                shutil.copyfile(self._base_root / rel, path)
        return root
