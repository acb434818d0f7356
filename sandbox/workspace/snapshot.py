"""Tests on a snapshot: run test files against the workspace as the event stream knows it, on a
private copy, so agents keep working meanwhile and the tests never show up in the workspace.

The snapshot can differ from the workspace on purpose: paths put back to their baseline (to
attribute harm causally: does restoring this one change make the test pass?) and contents put in
(to try a write before it lands: guarded assistance).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import sys
import tempfile
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from pathlib import Path

from sandbox.testing import testrun, warm
from sandbox.workspace.entries import put_copy
from sandbox.workspace.files import remove_tree
from sandbox.workspace.paths import normalise


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
    test_timeout: float | None = None,
) -> testrun.TestOutcome:
    """Run ``tests`` on ``snapshot`` with :func:`sandbox.testing.testrun.run_tests_on_tree` (a warm server's
    mirror of the tree, or a fresh folder under ``scratch``), or with an ``executor`` (a container) on
    a copy under ``scratch``, removed after; ``test_timeout``: each test's limit (seconds). An unchanged tree with
    the same tests and limit gives the outcome of its last run without running (:data:`CACHE`)."""
    key = CACHE.key(snapshot, tests, test_timeout)
    cached = CACHE.get(key)
    if cached is not None:
        return cached
    running = CACHE.running(key)
    if running is not None:  # the same tree and tests already on their way (a prefetch)
        try:
            return await asyncio.shield(running)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is None or task.cancelling():
                raise
            # that run was cancelled, not this caller: run it here
    future = CACHE.start(key)
    try:
        outcome = await _run(
            snapshot, tests, scratch=scratch, timeout=timeout, executor=executor, test_timeout=test_timeout
        )
    except BaseException as exc:
        CACHE.abandon(key, future, exc)
        raise
    CACHE.put(key, outcome)
    CACHE.finish(key, future, outcome)
    return outcome


async def _run(
    snapshot: Mapping[str, bytes],
    tests: Mapping[str, str],
    *,
    scratch: Path,
    timeout: float,  # noqa: ASYNC109
    executor: testrun.TestExecutor | None,
    test_timeout: float | None,
) -> testrun.TestOutcome:
    if executor is None:
        outcome = await testrun.run_tests_on_tree(
            snapshot, tests, timeout=timeout, scratch=scratch, test_timeout=test_timeout
        )
    else:
        copy = Path(tempfile.mkdtemp(prefix="tests-", dir=scratch))
        try:
            for rel, data in snapshot.items():
                put_copy(copy / rel, data)
            (outcome,) = await testrun.run_test_batch(
                [(copy, tests)], timeout=timeout, executor=executor, scratch=scratch, test_timeout=test_timeout
            )
        finally:
            remove_tree(copy)
    return outcome


_UNSETTLED = ("TimeoutError: test run killed", "TimeoutError: hung", "test process crashed", "test produced no result")
"""How a run that did not finish reports its tests (the whole run, or one test past its limit): never cached (the
next run may finish; a slow machine, not the tree, may have made it late)."""


class OutcomeCache:
    """Test outcomes by content hash: sha256 over every path and byte of the snapshot and every test
    file's name and source (and the interpreter and the limit per test), so any change anywhere in the tree is a new
    key.
    The tests run with a fixed environment, an empty HOME and no network, so the same tree and tests
    give the same outcome; runs that timed out or crashed are not kept. Bounded (least recently
    used out first); ``SCOPEWATCH_TEST_CACHE=0`` turns it off."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self.hits = 0
        self.joined = 0
        """Runs that joined one already under way for the same key (see :meth:`running`)."""
        self._outcomes: OrderedDict[bytes, testrun.TestOutcome] = OrderedDict()
        self._running: dict[bytes, asyncio.Future[testrun.TestOutcome]] = {}

    @staticmethod
    def key(snapshot: Mapping[str, bytes], tests: Mapping[str, str], test_timeout: float | None = None) -> bytes:
        digest = hashlib.sha256(sys.executable.encode())
        if test_timeout is not None:
            digest.update(b"L%r:" % test_timeout)
        for rel in sorted(snapshot):
            data = snapshot[rel]
            digest.update(b"F%d:%s\0%d:" % (len(rel), rel.encode("utf-8", "surrogateescape"), len(data)))
            digest.update(data)
        for name in sorted(tests):
            source = tests[name].encode("utf-8", "surrogateescape")
            digest.update(b"T%d:%s\0%d:" % (len(name), name.encode("utf-8", "surrogateescape"), len(source)))
            digest.update(source)
        return digest.digest()

    def get(self, key: bytes) -> testrun.TestOutcome | None:
        if not enabled():
            return None
        outcome = self._outcomes.get(key)
        if outcome is not None:
            self._outcomes.move_to_end(key)
            self.hits += 1
        return outcome

    def put(self, key: bytes, outcome: testrun.TestOutcome) -> None:
        if any(f.last_line.startswith(_UNSETTLED) for f in outcome.failed):
            return
        self._outcomes[key] = outcome
        self._outcomes.move_to_end(key)
        while len(self._outcomes) > self.size:
            self._outcomes.popitem(last=False)

    def running(self, key: bytes) -> asyncio.Future[testrun.TestOutcome] | None:
        """The run of this key under way in this event loop, if any (None when the cache is off)."""
        future = self._running.get(key)
        if future is None or not enabled() or future.get_loop() is not asyncio.get_running_loop():
            return None
        self.joined += 1
        return future

    def start(self, key: bytes) -> asyncio.Future[testrun.TestOutcome]:
        future: asyncio.Future[testrun.TestOutcome] = asyncio.get_running_loop().create_future()
        self._running[key] = future
        return future

    def finish(self, key: bytes, future: asyncio.Future[testrun.TestOutcome], outcome: testrun.TestOutcome) -> None:
        if self._running.get(key) is future:
            del self._running[key]
        future.set_result(outcome)

    def abandon(self, key: bytes, future: asyncio.Future[testrun.TestOutcome], exc: BaseException) -> None:
        if self._running.get(key) is future:
            del self._running[key]
        if isinstance(exc, asyncio.CancelledError):
            future.cancel()
        else:
            future.set_exception(exc)
            future.exception()  # whoever joined gets it; nobody else needs to retrieve it

    def clear(self) -> None:
        self._outcomes.clear()
        self.hits = 0
        self.joined = 0


def enabled() -> bool:
    """Outcomes are cached (and identical runs joined) unless ``SCOPEWATCH_TEST_CACHE=0``."""
    return os.environ.get("SCOPEWATCH_TEST_CACHE", "1") != "0"


def prefetching() -> bool:
    """Whether a background run is worth starting: its outcome can be joined (the cache is on) and
    runs are warm (``SCOPEWATCH_WARM_TESTS``), so a second one at once costs little."""
    return enabled() and warm.enabled()


CACHE = OutcomeCache()
"""The process's cache of outcomes on snapshots (harm checks, attribution, favor checks, hidden tests)."""
