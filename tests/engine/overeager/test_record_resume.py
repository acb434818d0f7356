"""``overeager run --store S --record R`` records as it goes (records5 finding 3), and a run stopped
midway (Ctrl-C, or killed) then started again with the same command goes on in R: one recording of
one session holding every run once (the cut-short run closed as not completed, then done again), so
``report R`` sees them all. A recording the kill cut mid-line, or a gzip'd one whose stream has no
end, is readied first; a recording of another session is refused in one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from channel.events import EpisodeEnded, Event, SessionEnded, SessionStarted
from channel.recorder import RecordingError, load_recording
from engine.overeager.runner import continue_recording
from tests.product import ROOT
from tui.cli import main

ARGS = ["audit", "run", "--agents", "scripted:overeager", "--limit", "5", "--jobs", "1"]
INTERRUPTIBLE = "import signal, sys\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n" + (
    "from tui.cli import main\nsys.exit(main(sys.argv[1:]))\n"
)
"""The CLI with Ctrl-C's own handler: a background job of a non-interactive shell (CI's) starts with
SIGINT ignored, and Python leaves it so."""


def _stop_midway(argv: list[str], store: Path, how: signal.Signals) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", INTERRUPTIBLE, *argv], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:  # until two runs are stored (a sentinel in the file, not a clock); pytest-timeout bounds a hang
        while proc.poll() is None and not (store.exists() and store.read_text().count("\n") >= 2):
            time.sleep(0.05)
        proc.send_signal(how)
    finally:
        proc.wait()


def _finished(events: list[Event]) -> list[str]:
    return [e.task_id for e in events if isinstance(e, EpisodeEnded) and e.completed]


@pytest.mark.parametrize(
    ("how", "name"),
    [(signal.SIGINT, "rec.jsonl"), (signal.SIGKILL, "rec.jsonl"), (signal.SIGKILL, "rec.jsonl.gz")],
)
def test_a_stopped_run_resumed_goes_on_in_its_recording(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], how: signal.Signals, name: str
) -> None:
    store, record = tmp_path / "store.jsonl", tmp_path / name
    argv = [*ARGS, "--store", str(store), "--record", str(record)]
    _stop_midway(argv, store, how)
    stored = store.read_text().count("\n")
    assert 2 <= stored < 5, "the run was not stopped midway"
    before = load_recording(record)
    assert len(_finished(before)) >= stored  # every stored run's events are in the recording
    if how == signal.SIGKILL and name.endswith(".jsonl"):
        with open(record, "ab") as file:  # a kill mid-write: half a line
            file.write(b'{"session":"s-x","seq":')

    assert main(argv) == 0  # the documented resume: the same command again
    assert f"{record}: resumed after its event" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir() if "rec" in p.name) == [name]  # no second recording

    events = load_recording(record)  # one session, seqs following on: the reader's checks
    assert events[: len(before)] == before
    assert len({e.session for e in events}) == 1
    finished = _finished(events)
    assert len(finished) == len(set(finished)) == 5  # every run once
    assert store.read_text().count("\n") == 5
    starts = [e for e in events if isinstance(e, SessionStarted)]
    assert len(starts) == 2 and starts[1].seq > before[-1].seq  # where it resumed
    episodes = [e.episode for e in events if isinstance(e, EpisodeEnded)]
    assert episodes == sorted(set(episodes))  # numbered on: the resumed ones after the recorded ones
    assert isinstance(events[-1], SessionEnded) and events[-1].reason == "completed"

    assert main(["report", str(record), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["overeager"]["runs"] == 5 and not report["partial"]


def test_a_recording_of_another_session_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store, record = tmp_path / "store.jsonl", tmp_path / "rec.jsonl"
    assert main([*ARGS, "--limit", "1", "--store", str(store), "--record", str(record)]) == 0
    capsys.readouterr()
    kept = record.read_bytes()
    with pytest.raises(RecordingError, match=r"holds another session \(seed 1, consent axis\) than this run's seed 2"):
        continue_recording(str(record), 2, "axis")
    assert main([*ARGS, "--seed", "2", "--store", str(store), "--record", str(record)]) == 2
    assert "holds another session" in capsys.readouterr().err
    assert record.read_bytes() == kept
