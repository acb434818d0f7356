"""A parallel run is crash-safe (issue 31): ``run --headless --jobs 2`` appends each trajectory as it
finishes, so a run stopped midway leaves a PARTIAL recording that ``report`` scores, and SIGTERM stops
every process of the run (driver, workers and what they started) within 5 s."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from channel.events import EpisodeEnded
from channel.recorder import read_recording
from tui.cli import main

ROOT = Path(__file__).resolve().parents[3]


def _children() -> dict[int, int]:
    """Every live process's parent (zombies count as gone)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, ppid = stat.rsplit(")", 1)[1].split()[:2]
        if state != "Z":
            parents[int(entry.name)] = int(ppid)
    return parents


def _descendants(root: int) -> set[int]:
    parents, found, frontier = _children(), set(), {root}
    while frontier:
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier} - found
        found |= frontier
    return found


def _alive(pids: set[int]) -> set[int]:
    return pids & set(_children())


def test_sigterm_midway_leaves_a_partial_recording_and_no_process(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "run.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log = (tmp_path / "stderr.txt").open("wb")
    driver = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "run", "--headless", "--jobs", "2", "--trajectories", "12",
         "--seed", "7", "--record", str(record)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log,
    )  # fmt: skip
    try:
        # Until the first trajectory is recorded (a sentinel in the file, not a clock); pytest-timeout bounds a hang.
        while not (record.exists() and b'"EpisodeEnded"' in record.read_bytes()):
            assert driver.poll() is None, "the run ended before a trajectory was recorded"
            time.sleep(0.2)
        assert driver.poll() is None, "the run finished before it could be stopped midway"
        run = {driver.pid} | _descendants(driver.pid)
        assert len(run) >= 3, f"expected a driver and two workers, found {sorted(run)}"
        driver.send_signal(signal.SIGTERM)
        stopped = time.monotonic()
        while _alive(run) and time.monotonic() - stopped < 5.0:
            time.sleep(0.1)
        assert not _alive(run), f"still alive 5 s after SIGTERM: {sorted(_alive(run))}"
        assert driver.wait(1) != 0
    finally:
        log.close()
        for pid in _alive({driver.pid} | _descendants(driver.pid)):
            os.kill(pid, signal.SIGKILL)
        driver.wait()  # reaped here, not by a later test's garbage collection (its ResourceWarning failed that test)
    events = list(read_recording(record))
    assert [e for e in events if isinstance(e, EpisodeEnded)], "the finished trajectories are in the recording"
    assert events[-1].kind != "SessionEnded"
    capsys.readouterr()
    assert main(["report", str(record)]) == 0
    assert "PARTIAL" in capsys.readouterr().out


def test_ctrl_c_before_a_trajectory_is_done_removes_the_empty_recording_and_says_so(  # type: ignore[no-untyped-def]
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """nc7 04: Ctrl-C before the first trajectory ended left a 0-byte recording that ``report`` refused ("no
    scopewatch events"), and said only "interrupted". The recording is made up front; holding nothing, it goes."""
    import engine.runs.batch

    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt  # where run_units re-raises Ctrl-C, its workers stopped

    monkeypatch.setattr(engine.runs.batch, "run_units", interrupted)
    record = tmp_path / "cc.jsonl"
    assert main(["run", "--headless", "--trajectories", "2", "--jobs", "2", "--record", str(record)]) == 130
    assert not record.exists()
    last = capsys.readouterr().err.splitlines()[-1]  # after the progress bar's line
    assert last == f"scopewatch: interrupted: no trajectory had finished: nothing recorded, {record} removed"


def test_ctrl_c_after_a_trajectory_is_done_keeps_it(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Nothing lost: a trajectory already appended stays, a PARTIAL recording ``report`` scores."""
    import engine.runs.batch

    def one_then_interrupted(fn, units, *, on_result, **_kwargs):  # type: ignore[no-untyped-def]
        on_result(0, fn(*units[0]))  # the first trajectory, really run (in this process)
        raise KeyboardInterrupt

    monkeypatch.setattr(engine.runs.batch, "run_units", one_then_interrupted)
    record = tmp_path / "cc.jsonl"
    argv = ["run", "--headless", "--trajectories", "2", "--jobs", "2", "--seed", "1", "--record", str(record)]
    assert main(argv) == 130
    assert capsys.readouterr().err.splitlines()[-1] == "scopewatch: interrupted"
    events = list(read_recording(record))
    assert events[0].kind == "SessionStarted" and [e for e in events if isinstance(e, EpisodeEnded)]
    assert main(["report", str(record)]) == 0
    assert "PARTIAL" in capsys.readouterr().out
