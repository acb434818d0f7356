"""``report``, ``compare`` and ``export`` read a recording in one streamed pass (issue 29): the
events they are handed are let go as they go, so a recording of millions of events is read in
memory that does not grow with it. Each command runs on a golden recording through a reader that
keeps a weak reference to every event it yields and counts those still alive at each step."""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from channel.events import EpisodeEnded, EpisodeStarted, Event
from channel.recorder import load_recording, stream_recording
from tui.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "causal-seed5.jsonl"
HELD = 16
"""Events a reader may keep besides the open episode's (the judge keeps that episode's writes and
tool calls until it ends; the session's start)."""


class Watched:
    """A reader of recordings that counts the events it yielded which are still alive."""

    def __init__(self) -> None:
        self.alive: list[weakref.ref[Event]] = []
        self.most = 0
        self.read = 0

    def stream(self, path: str) -> Iterator[Event]:
        for event in stream_recording(path):
            self.alive = [ref for ref in self.alive if ref() is not None]
            self.alive.append(weakref.ref(event))
            self.most = max(self.most, len(self.alive))
            self.read += 1
            yield event


def longest_episode(events: list[Event]) -> int:
    longest = start = 0
    for i, event in enumerate(events):
        if isinstance(event, EpisodeStarted):
            start = i
        elif isinstance(event, EpisodeEnded):
            longest = max(longest, i - start + 1)
    return longest


def test_the_golden_recording_is_long_enough_to_tell() -> None:
    events = load_recording(GOLDEN)
    assert len(events) > 4 * (longest_episode(events) + HELD)


def test_report_and_compare_hold_one_episode_at_a_time(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for command, module in (("report", "tui.cli.report"), ("compare", "tui.cli.compare")):
        watched = Watched()
        monkeypatch.setattr(f"{module}.stream_recording", watched.stream)
        paths = [str(GOLDEN)] * (2 if command == "compare" else 1)
        assert main([command, *paths, "--json"]) == 0
        capsys.readouterr()
        events = load_recording(GOLDEN)
        assert watched.read == len(paths) * len(events)
        assert watched.most <= longest_episode(events) + HELD, command


def test_export_holds_one_episode_at_a_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("inspect_ai")
    events = load_recording(GOLDEN)
    watched = Watched()
    monkeypatch.setattr("channel.recorder.stream_recording", watched.stream)
    assert main(["export", str(GOLDEN), "-o", str(tmp_path / "run.eval")]) == 0
    assert "10 samples" in capsys.readouterr().err
    assert watched.read == len(events)
    assert watched.most <= longest_episode(events) + HELD
