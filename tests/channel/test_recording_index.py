"""Recordings at scale (issue 29): read in one streamed pass, opened through an index of byte offsets
beside them (rebuilt when stale), and decoded without walking every string in Python."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from channel.codec import DecodeError, decode_event, encode
from channel.events import Event, FileChanged, SessionEnded, SessionStarted, TurnStarted
from channel.recorder import RecordingError, read_recording
from channel.recording_index import index_path, open_recording

S = "s-idx"


def _recording(path: Path, turns: int, *, cut: bool = False) -> list[Event]:
    events: list[Event] = [SessionStarted(session=S, seq=1, scenario="favorbench-mini")]
    turn = {"session": S, "actor": "owner", "episode": 1, "budget_left": 8}
    events += [TurnStarted(seq=n, turn=n, **turn) for n in range(2, turns + 2)]
    events.append(SessionEnded(session=S, seq=turns + 2, reason="completed"))
    data = b"".join(encode(e) + b"\n" for e in events)
    path.write_bytes(data + (b'{"session": "s-idx", "seq": ' if cut else b""))
    return events


def test_the_index_gives_every_event_as_the_reader_does(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    events = _recording(path, 20_000, cut=True)
    with open_recording(path) as recording:
        assert index_path(path).exists()
        assert len(recording) == len(events)
        assert recording[-1] == events[-1] and recording[0] == events[0] and recording[12_345] == events[12_345]
        assert recording[100:105] == events[100:105]
        assert list(recording) == list(read_recording(path)) == events


def test_a_stale_index_is_rebuilt_and_a_foreign_one_ignored(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    _recording(path, 5)
    with open_recording(path) as recording:
        assert len(recording) == 7
    longer = _recording(path, 9)  # rewritten: another size, another time
    with open_recording(path) as recording:
        assert len(recording) == 11 and recording[-1] == longer[-1]
    index_path(path).write_bytes(b"not an index\n\x00\x01")
    with open_recording(path) as recording:
        assert recording[-1] == longer[-1]


def test_an_index_is_kept_in_memory_where_it_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "run.jsonl"
    events = _recording(path, 5)

    def read_only(*_args: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", read_only)  # a read-only folder (root may write anywhere)
    with open_recording(path) as recording:
        assert recording[-1] == events[-1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.jsonl"]  # nothing half-written left


def test_opening_checks_the_recording_as_reading_does(tmp_path: Path) -> None:
    path = tmp_path / "tail.jsonl"
    path.write_bytes(encode(TurnStarted(session=S, seq=4, actor="owner", episode=1, turn=1, budget_left=8)) + b"\n")
    with pytest.raises(RecordingError, match=r"tail\.jsonl:1: the first event has seq 4"):
        open_recording(path)
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(RecordingError, match="no scopewatch events"):
        open_recording(empty)


def test_a_decoded_event_can_hold_no_lone_surrogate() -> None:
    """Why decoding skips the escape of bytes that are not UTF-8: JSON cannot carry them in."""
    name = b"caf\xff.py".decode("utf-8", "surrogateescape")
    built = FileChanged(session=S, seq=2, path=name, change="added", diff="", via="shell")
    assert built.path == "caf\\xff.py"
    with pytest.raises(DecodeError):
        decode_event(encode(built).replace(b"caf\\\\xff", b"caf\\udcff"))
    with pytest.raises(DecodeError):
        decode_event(encode(built).replace(b"caf\\\\xff", b"caf\xff"))
