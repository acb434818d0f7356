"""Compressed recordings (issue 29): a ``.jsonl.gz`` or ``.jsonl.zst`` is read by every reader as
its plain lines, through an index too (seeks back included); a damaged index is rebuilt."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from channel.events import Event
from channel.recorder import Recorder, RecordingError, load_recording
from channel.recording_index import index_path, open_recording

GOLDEN = Path(__file__).parent.parent / "data" / "golden" / "default-seed3.jsonl"


def _compressed(tmp_path: Path, suffix: str) -> Path:
    data = GOLDEN.read_bytes()
    path = tmp_path / f"run.jsonl{suffix}"
    if suffix == ".gz":
        path.write_bytes(gzip.compress(data))
    else:
        zstandard = pytest.importorskip("zstandard")
        path.write_bytes(zstandard.ZstdCompressor().compress(data))
    return path


@pytest.mark.parametrize("suffix", [".gz", ".zst"])
def test_a_compressed_recording_reads_as_its_lines(tmp_path: Path, suffix: str) -> None:
    plain = load_recording(GOLDEN)
    path = _compressed(tmp_path, suffix)
    assert load_recording(path) == plain
    with open_recording(path) as recording:
        assert index_path(path).exists()
        # forward, then back (the stream starts again), then a slice
        assert (
            recording[-1] == plain[-1]
            and recording[5] == plain[5]
            and recording[len(plain) // 2] == plain[len(plain) // 2]
        )
        assert recording[10:20] == plain[10:20]
    with open_recording(path) as recording:  # through the index written beside it
        assert list(recording) == plain


def test_a_compressed_recording_cut_short_reads_its_complete_lines(tmp_path: Path) -> None:
    """As a plain file cut short by a crash: the complete events are the recording."""
    plain = load_recording(GOLDEN)
    path = tmp_path / "run.jsonl.gz"
    data = gzip.compress(GOLDEN.read_bytes())
    path.write_bytes(data[: len(data) // 2])
    events = load_recording(path)
    assert 0 < len(events) < len(plain) and events == plain[: len(events)]


def test_a_damaged_compressed_recording_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl.gz"
    data = bytearray(gzip.compress(GOLDEN.read_bytes()))
    data[len(data) // 2 : len(data) // 2 + 64] = bytes(64)
    path.write_bytes(bytes(data))
    with pytest.raises(RecordingError, match=r"run\.jsonl\.gz:") as caught:
        load_recording(path)
    assert "\n" not in str(caught.value)


def test_the_recorder_writes_gzip_that_reads_back(tmp_path: Path) -> None:
    plain = load_recording(GOLDEN)
    path, same = tmp_path / "run.jsonl.gz", tmp_path / "run.jsonl"
    for recorder in (Recorder(path), Recorder(same)):
        for event in plain:
            recorder.write(event)
        recorder.close()
    assert gzip.decompress(path.read_bytes()) == same.read_bytes()
    assert load_recording(path) == plain
    with open_recording(path) as recording:
        assert recording[-1] == plain[-1] and len(recording) == len(plain)


def test_a_gzip_recording_of_a_killed_recorder_reads_every_event_written(tmp_path: Path) -> None:
    """Each event is flushed through the stream: the bytes on disk before the stream's end is
    written (a SIGKILL leaves no end) decompress to every event written so far."""
    plain = load_recording(GOLDEN)
    path = tmp_path / "run.jsonl.gz"
    recorder = Recorder(path)
    half = len(plain) // 2
    for event in plain[:half]:
        recorder.write(event)
    on_disk = path.read_bytes()  # what a killed process leaves
    recorder.close()
    killed = tmp_path / "killed.jsonl.gz"
    killed.write_bytes(on_disk)
    assert load_recording(killed) == plain[:half]


def test_the_recorder_refuses_zstd(tmp_path: Path) -> None:
    with pytest.raises(RecordingError, match=r"run\.jsonl\.zst: record to a \.jsonl or \.jsonl\.gz file"):
        Recorder(tmp_path / "run.jsonl.zst")
    assert not (tmp_path / "run.jsonl.zst").exists()


@pytest.mark.parametrize("damage", ["cut", "header", "last offset", "empty"])
def test_a_damaged_index_is_rebuilt(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "run.jsonl"
    path.write_bytes(GOLDEN.read_bytes())
    events: list[Event] = load_recording(path)
    with open_recording(path):
        pass
    whole = index_path(path).read_bytes()
    damaged = {
        "cut": whole[:-5],
        "header": b"\xff" + whole[1:],
        "last offset": whole[:-8] + (1 << 40).to_bytes(8, "little"),
        "empty": b"",
    }[damage]
    index_path(path).write_bytes(damaged)
    with open_recording(path) as recording:
        assert list(recording) == events and recording[-1] == events[-1]
    assert index_path(path).read_bytes() == whole


@pytest.mark.parametrize("damage", ["into lines", "not climbing"])
def test_an_index_damaged_past_its_checks_is_one_line_then_rebuilt(tmp_path: Path, damage: str) -> None:
    """Offsets that point into lines, or do not climb: the read says so in one line, and the next
    open rebuilds the index."""
    path = tmp_path / "run.jsonl"
    path.write_bytes(GOLDEN.read_bytes())
    events = load_recording(path)
    with open_recording(path):
        pass
    whole = index_path(path).read_bytes()
    head = whole.index(b"\n") + 1
    offsets = [int.from_bytes(whole[i : i + 8], "little") for i in range(head, len(whole), 8)]
    if damage == "into lines":
        offsets = [o + 3 for o in offsets]
    else:
        offsets[10], offsets[11] = offsets[11], offsets[10]
    index_path(path).write_bytes(whole[:head] + b"".join(o.to_bytes(8, "little") for o in offsets))
    with open_recording(path) as recording, pytest.raises(RecordingError, match="its index was damaged") as caught:
        list(recording)
    assert "\n" not in str(caught.value)
    with open_recording(path) as recording:
        assert list(recording) == events
    assert index_path(path).read_bytes() == whole
