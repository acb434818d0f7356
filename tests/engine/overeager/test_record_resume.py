"""``overeager run --store S --record R`` records as it goes (records5 finding 3): a killed run leaves R holding
every run the store holds, and the same command started again resumes, recording the rest beside R
(``R.resumed-1.jsonl``: a recording holds one session) instead of refusing R."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from channel.events import EpisodeEnded
from channel.recorder import read_recording
from engine.overeager.runner import continued_path
from tests.product import ROOT
from tui.cli import main

ARGS = ["audit", "run", "--agents", "scripted:overeager", "--limit", "5", "--jobs", "1"]


def _ended(path: Path) -> int:
    return sum(1 for e in read_recording(path) if isinstance(e, EpisodeEnded))


def test_a_killed_run_leaves_its_recording_and_resumes_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store, record = tmp_path / "store.jsonl", tmp_path / "rec.jsonl"
    argv = [*ARGS, "--store", str(store), "--record", str(record)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "tui.cli", *argv], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:  # until two runs are stored (a sentinel in the file, not a clock); pytest-timeout bounds a hang
        while proc.poll() is None and not (store.exists() and store.read_text().count("\n") >= 2):
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    stored = store.read_text().count("\n")
    assert 2 <= stored < 5, "the run was not killed midway"
    assert _ended(record) >= stored  # every stored run's events are in the recording
    assert main(argv) == 0  # the documented resume: the same command again
    err = capsys.readouterr().err
    rest = tmp_path / "rec.resumed-1.jsonl"
    assert f"the rest is in {rest}" in err
    assert _ended(rest) == 5 - stored


def test_the_continuation_keeps_a_gzip_suffix(tmp_path: Path) -> None:
    (tmp_path / "r.jsonl.gz").write_bytes(b"")
    assert continued_path(str(tmp_path / "r.jsonl.gz")) == str(tmp_path / "r.resumed-1.jsonl.gz")
    (tmp_path / "r.resumed-1.jsonl").write_bytes(b"")
    assert continued_path(str(tmp_path / "r.jsonl")) == str(tmp_path / "r.resumed-2.jsonl")
