"""A disk that fills while recording (records5 finding 5): the recording stops, not the session. One warning line
names the file, the reason and the event where it stopped; ``close`` raises nothing more; what was written before
reads back as a partial recording."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from channel.events import Event
from channel.recorder import Recorder, load_recording

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "causal-seed5.jsonl"


def _events(n: int) -> list[Event]:
    return load_recording(GOLDEN)[:n]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("name", ["r.jsonl", "r.jsonl.gz"])
def test_a_full_disk_stops_the_recording_in_one_line(
    name: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / name
    recorder = Recorder(path)
    events = _events(6)
    for event in events[:3]:
        recorder.write(event)
    file = recorder._raw
    assert file is not None
    full = os.open("/dev/full", os.O_WRONLY)  # the disk is full from here on: every write fails with ENOSPC
    os.dup2(full, file.fileno())
    os.close(full)
    with caplog.at_level(logging.WARNING):
        for event in events[3:]:
            recorder.write(event)  # no exception: the session goes on
        recorder.close()
    [record] = caplog.records
    assert f"--record {path}: cannot write the recording (No space left on device): it stops before event 4" in (
        record.getMessage()
    )
    assert recorder.failure is not None
    assert [e.seq for e in load_recording(path)] == [1, 2, 3]


def test_dev_full_is_one_warning(caplog: pytest.LogCaptureFixture) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    recorder = Recorder("/dev/full", append=True)
    with caplog.at_level(logging.WARNING):
        for event in _events(3):
            recorder.write(event)
        recorder.close()
    assert len(caplog.records) == 1 and "No space left on device" in caplog.records[0].getMessage()
