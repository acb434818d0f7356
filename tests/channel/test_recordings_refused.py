"""Readers refuse what is not the start of a session recording, in one line (issue 31): no
``SessionStarted``, a first seq other than 1, a FIFO or a device (refused at once, never a hang), for
every command that reads recordings (report, replay, compare, export, fork)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from channel.codec import encode
from channel.recorder import RecordingError, load_recording
from tests.channel.samples import event_samples
from tui.cli import main


def _write(path: Path, events: list) -> Path:  # type: ignore[type-arg]
    path.write_bytes(b"".join(encode(e) + b"\n" for e in events))
    return path


def test_a_recording_without_session_started_is_refused(tmp_path: Path) -> None:
    events = event_samples()[1:6]
    renumbered = [e.model_copy(update={"seq": n}) for n, e in enumerate(events, 1)]
    path = _write(tmp_path / "headless.jsonl", renumbered)
    with pytest.raises(RecordingError, match=r"headless.jsonl:\d+: a \w+ before the session's SessionStarted"):
        load_recording(path)


def test_a_recording_whose_seq_does_not_start_at_1_is_refused(tmp_path: Path) -> None:
    events = [e.model_copy(update={"seq": 1000 + n}) for n, e in enumerate(event_samples()[:5], 1)]
    path = _write(tmp_path / "tail.jsonl", events)
    with pytest.raises(RecordingError, match=r"tail\.jsonl:1: the first event has seq 1001"):
        load_recording(path)


def test_a_fifo_or_a_device_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero"), Path("/dev/null")):
        with pytest.raises(RecordingError, match="not a regular file"):
            load_recording(path)


@pytest.mark.parametrize(
    "argv",
    [
        ["report", "{}"],
        ["replay", "{}"],
        ["compare", "{}", "{}"],
        ["export", "{}", "-o", "{}.out"],
        ["fork", "{}", "--at", "1"],
    ],
)
def test_every_reader_gives_one_line_and_rc_2(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    tail = _write(
        tmp_path / "tail.jsonl", [e.model_copy(update={"seq": 7 + n}) for n, e in enumerate(event_samples()[:3])]
    )
    for bad in (fifo, tail):
        result: list[int] = []
        command = [a.format(bad) for a in argv]

        def read(command: list[str] = command, result: list[int] = result) -> None:
            result.append(main(command))

        runner = threading.Thread(target=read, daemon=True)
        runner.start()
        runner.join(20)
        assert result == [2], f"{argv[0]} on {bad.name}: {'hung' if not result else result}"
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and bad.name in err[0], err
