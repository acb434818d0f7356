"""A local worker killed mid-batch (the OOM killer's way) stops the batch with one ScopewatchError line, not the
pool's BrokenProcessPool traceback (records5 finding 8); the units finished before it were handed on."""

from __future__ import annotations

import os
import signal

import pytest

from engine.pool.units import WorkerDied, run_units


def die_on(n: int, doomed: int) -> int:
    if n == doomed:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


def test_a_killed_worker_is_one_error() -> None:
    seen: list[int] = []
    with pytest.raises(WorkerDied, match="a worker process died") as caught:
        run_units(die_on, [(0, 1), (1, 1)], jobs=2, on_result=lambda _i, r: seen.append(r))
    assert caught.value.total == 2 and caught.value.delivered == len(seen) <= 1
    assert "\n" not in str(caught.value)
