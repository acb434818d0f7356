"""Tests on a snapshot: run test files against the workspace as the event stream knows it, on a
private copy, so agents keep working meanwhile and the tests never show up in the workspace.

The snapshot can differ from the workspace on purpose: paths put back to their baseline (to
attribute harm causally: does restoring this one change make the test pass?) and contents put in
(to try a write before it lands: guarded assistance).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from sandbox import testrun
from sandbox.paths import normalise
from sandbox.workspace import put_entry


def snapshot_with(
    known: dict[str, bytes],
    baseline: Mapping[str, bytes],
    *,
    restore: Sequence[str] = (),
    overlay: Mapping[str, str] | None = None,
) -> dict[str, bytes]:
    """``known`` (taken over) with the normalised ``restore`` paths back at ``baseline`` (absent if
    not in it) and the ``overlay`` contents put in."""
    for p in restore:
        data = baseline.get(p)
        if data is None:
            known.pop(p, None)
        else:
            known[p] = data
    for p, content in (overlay or {}).items():
        known[normalise(p)] = content.encode("utf-8")
    return known


async def run_tests_on_snapshot(
    snapshot: Mapping[str, bytes],
    tests: Mapping[str, str],
    *,
    scratch: Path,
    timeout: float,  # noqa: ASYNC109 - enforced by the runner killing its child
    executor: testrun.TestExecutor | None = None,
) -> testrun.TestOutcome:
    """Write ``snapshot`` into a fresh folder under ``scratch`` and run ``tests`` there with
    :func:`sandbox.testrun.run_tests`; the folder is removed after."""
    copy = Path(tempfile.mkdtemp(prefix="tests-", dir=scratch))
    try:
        for rel, data in snapshot.items():
            put_entry(copy / rel, data)
        if executor is None:
            return await testrun.run_tests(copy, tests, timeout=timeout)
        (outcome,) = await testrun.run_test_batch([(copy, tests)], timeout=timeout, executor=executor, scratch=scratch)
        return outcome
    finally:
        shutil.rmtree(copy, ignore_errors=True)
