"""The pool of units (engine/pool/): results in unit order, progress reported to the driver wherever a
unit runs (in-process here; worker processes and Ray in tests/engine/runs/test_batch.py)."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import threading
import time
from pathlib import Path

import pytest

from engine.pool.progress import collected, report, reporting_to
from engine.pool.units import run_units, valid_executor
from sandbox.workspace.stale import owned_tempdir, process_start, sweep_helpers


def square(n: int) -> int:
    report(f"did {n}")
    return n * n


def fail(n: int) -> int:
    raise ValueError(f"unit {n} failed")


def test_in_process_units_give_results_in_order_and_report_progress() -> None:
    reports: list[str] = []
    results: list[tuple[int, int]] = []
    got = run_units(
        square, [(3,), (1,), (2,)], jobs=1, on_report=reports.append, on_result=lambda i, r: results.append((i, r))
    )
    assert got == [9, 1, 4]
    assert reports == ["did 3", "did 1", "did 2"]
    assert results == [(0, 9), (1, 1), (2, 4)]
    report("after the batch")  # no sink any more: nowhere, silently


def test_collected_returns_a_units_reports_with_its_result() -> None:
    seen: list[str] = []
    with reporting_to(seen.append):
        assert collected(square, (5,)) == (25, ["did 5"])
        report("outer")
    assert seen == ["outer"]  # the unit's reports went to its own list, the outer sink was restored


def test_the_first_failing_unit_stops_the_batch_with_its_error() -> None:
    with pytest.raises(ValueError, match="unit 1 failed"):
        run_units(fail, [(1,), (2,)], jobs=1)


@pytest.mark.parametrize(
    ("text", "ok"), [("local", True), ("ray", True), ("ray://h:10001", True), ("ray://", False), ("slurm", False)]
)
def test_executor_names(text: str, ok: bool) -> None:
    assert valid_executor(text) is ok


def hold_a_helper_folder(parent: str) -> None:
    """A unit that makes a helper folder removed at exit (as a jail's locales are), says so, then waits."""
    folder = owned_tempdir("scopewatch-tracer-", parent)
    atexit.register(shutil.rmtree, folder, True)
    Path(folder, "made").touch()
    time.sleep(60)


def test_an_interrupted_batch_leaves_no_workers_helper_folders(tmp_path: Path) -> None:
    """Ctrl-C stopped the workers (SIGTERM), which unwound their unit and went back to the pool's queue, then were
    killed (SIGKILL) before their ``atexit`` ran: their folders stayed in /tmp and /dev/shm (newcomer5 07)."""

    def interrupt_once_made() -> None:
        deadline = time.monotonic() + 60
        while len(list(tmp_path.glob("*/made"))) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGINT)

    # Ctrl-C as a terminal's foreground job gets it: a background job of a non-interactive shell (CI's) starts with
    # SIGINT ignored, and Python leaves it so.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    threading.Thread(target=interrupt_once_made, daemon=True).start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_units(hold_a_helper_folder, [(str(tmp_path),), (str(tmp_path),)], jobs=2)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - started < 50
    assert list(tmp_path.iterdir()) == []


def test_the_sweep_removes_helper_folders_of_processes_that_are_gone(tmp_path: Path) -> None:
    mine = Path(owned_tempdir("scopewatch-locale-", tmp_path))
    gone = tmp_path / f"scopewatch-warm-{os.getpid()}.{(process_start(os.getpid()) or 0) + 1}-x"  # a reused pid
    gone.mkdir()
    (gone / "f").write_text("left")
    other = tmp_path / "scopewatch-warm-abc"  # an older version's: no owner, left alone
    other.mkdir()
    assert sweep_helpers(tmp_path) == [gone]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, other.name])
