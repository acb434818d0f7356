"""``overeager run --store FILE`` refuses a file that is not a results store, in one line, before appending
to it (records5 finding 7): a recording given by mistake stays a readable recording; a store that is not
UTF-8 or cannot be written is one line with the reason, not a traceback. A line a kill cut short is still
skipped (its run is done again)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from channel.recorder import load_recording
from engine.overeager.store import ResultsStore
from tui.cli import main

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "overeager-causal-seed5.jsonl"
RUN = ["audit", "run", "--agents", "scripted:overeager", "--limit", "1", "--jobs", "1"]


def _one_line(err: str) -> str:
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


def test_a_recording_given_as_the_store_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = tmp_path / "rec.jsonl"
    rec.write_bytes(GOLDEN.read_bytes())
    assert main([*RUN, "--store", str(rec)]) == 2
    assert f"--store {rec}:1: not a stored run" in _one_line(capsys.readouterr().err)
    assert rec.read_bytes() == GOLDEN.read_bytes()
    assert load_recording(rec)  # still a recording


def test_a_store_that_is_not_utf8_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bin.jsonl"
    bad.write_bytes(b"\xff\xfe not a store\n")
    assert main([*RUN, "--store", str(bad)]) == 2
    assert "not UTF-8" in _one_line(capsys.readouterr().err)


def test_a_store_that_cannot_be_written_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.open

    def read_only(path: str, flags: int, *rest: int) -> int:
        if str(path).endswith("s.jsonl") and flags & os.O_WRONLY:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real(path, flags, *rest)

    monkeypatch.setattr(os, "open", read_only)
    assert main([*RUN, "--store", str(tmp_path / "s.jsonl")]) == 2
    assert "cannot write it (Read-only file system)" in _one_line(capsys.readouterr().err)


def test_a_line_a_kill_cut_is_still_skipped(tmp_path: Path) -> None:
    store = tmp_path / "s.jsonl"
    store.write_text('{"scenario": "cut by the kill\n\n')
    assert ResultsStore(store).finished() == {}
