"""``scopewatch replay FORK --parent PARENT`` reads both recordings through their indexes, never whole
(issue: the split view loaded both): the view is the same, and the events it reads are let go as it
goes. Each recording is opened through a reader that keeps a weak reference to every event it hands
out and counts those still alive at each step, as tests/engine/test_recordings_streamed.py does."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, overload

import pytest
from textual.widgets import Static

from channel.events import EpisodeStarted, Event
from channel.recorder import load_recording
from channel.recording_index import IndexedRecording, open_recording
from channel.vocab.config import SessionConfig
from engine.fork.plan import plan_fork
from engine.runs.runner import run_session
from tests.engine.test_recordings_streamed import HELD, longest_episode
from tui import split
from tui.cli import main
from tui.split import SplitApp

PARENT = SessionConfig(seed=13, tasks=("t1-dates", "t2-retries", "t3-total", "t4-convert", "t5-ratelimit"))
"""Seed 13's solicited favor in episode 2 (tests/engine/fork/test_split.py), and three episodes after it."""


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A five-episode parent and its fork at the start of episode 2 with admin_only on."""
    folder = tmp_path_factory.mktemp("split-streamed")
    parent, fork = folder / "parent.jsonl", folder / "fork.jsonl"
    asyncio.run(run_session(PARENT, record=str(parent)))
    at = next(e.seq for e in load_recording(parent) if isinstance(e, EpisodeStarted) and e.episode == 2)
    plan = plan_fork(parent, at, norms={"admin_only": "true"})
    asyncio.run(run_session(plan.config, record=str(fork), fork=plan))
    return parent, fork


class Watched(Sequence[Event]):
    """A recording opened through its index that counts the events it handed out still alive."""

    def __init__(self, recording: IndexedRecording, counts: dict[str, int]) -> None:
        self.recording = recording
        self.counts = counts
        self.alive: list[weakref.ref[Event]] = []

    def _seen(self, event: Event) -> Event:
        self.alive = [ref for ref in self.alive if ref() is not None]
        self.alive.append(weakref.ref(event))
        name = self.recording.path.name
        self.counts[name] = max(self.counts.get(name, 0), len(self.alive))
        return event

    def __len__(self) -> int:
        return len(self.recording)

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return [self._seen(e) for e in self.recording[index]]
        return self._seen(self.recording[index])

    def __iter__(self) -> Iterator[Event]:
        return (self._seen(e) for e in self.recording)

    def __enter__(self) -> Watched:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.recording.close()


def _replay(pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, shown: dict[str, str]) -> dict[str, int]:
    """``replay FORK --parent PARENT`` played to the end on a Pilot; what the columns and labels show
    goes to ``shown``; returns the most events of each recording alive at once."""
    counts: dict[str, int] = {}
    monkeypatch.setattr("channel.recording_index.open_recording", lambda p: Watched(open_recording(p), counts))

    def drive(app: SplitApp) -> None:
        async def play() -> None:
            async with app.run_test(size=(160, 40)) as pilot:
                await pilot.press("space")  # autoplay played: this pauses it
                await pilot.press("home")
                await pilot.press(*["n"] * ((app.split.first_row or 0) + 1))
                await pilot.pause()
                shown["parent"] = str(app.query_one("#split-parent-body", Static).render())
                shown["fork"] = str(app.query_one("#split-fork-body", Static).render())
                await pilot.press("end")
                await pilot.pause()
                shown["labels"] = str(app.labels.render())
                shown["status"] = str(app.status.render())

        asyncio.run(play())

    monkeypatch.setattr(SplitApp, "run", drive)
    parent, fork = pair
    assert main(["replay", str(fork), "--parent", str(parent)]) == 0
    return counts


def test_replay_parent_shows_the_fork_beside_its_parent(
    pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: dict[str, str] = {}
    counts = _replay(pair, monkeypatch, shown)
    assert "◆ first difference" in shown["parent"] and "◆ first difference" in shown["fork"]
    assert "MessagePosted by requester" in shown["parent"] and "ReviewRequested by requester" in shown["fork"]
    assert "→ NormChanged admin_only by fork" in shown["fork"]
    assert "favor True → False ≠" in shown["labels"]  # episode 2, played through
    assert "ep5 t5-ratelimit" in shown["labels"]  # the last episode too
    assert set(counts) == {"parent.jsonl", "fork.jsonl"}  # both opened through their indexes
    assert Path(f"{pair[0]}.idx").exists() and Path(f"{pair[1]}.idx").exists()


async def test_the_split_view_does_not_hold_the_parent_whole(pair: tuple[Path, Path]) -> None:
    events = load_recording(pair[0]), load_recording(pair[1])
    bounds = [longest_episode(e) + HELD for e in events]
    assert len(events[0]) > 2 * bounds[0]  # long enough to tell
    counts: dict[str, int] = {}
    with Watched(open_recording(pair[0]), counts) as parent, Watched(open_recording(pair[1]), counts) as fork:
        app = split.build_split(parent, fork)
        async with app.run_test(size=(160, 40)) as pilot:
            await pilot.press("end")  # every row read and shown
            await pilot.pause()
            await pilot.press("home", *["n"] * 6)
            await pilot.pause()
    assert counts["parent.jsonl"] <= bounds[0]
    assert counts["fork.jsonl"] <= bounds[1]


async def test_a_long_fork_shows_the_last_rows_and_says_how_many_came_before(
    pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(split, "SHOWN_ROWS", 3)
    with open_recording(pair[0]) as parent, open_recording(pair[1]) as fork:
        app = split.build_split(parent, fork)
        async with app.run_test(size=(160, 40)) as pilot:
            await pilot.press("end")
            await pilot.pause()
            left = str(app.query_one("#split-parent-body", Static).render())
            assert f"… {len(app.split.rows) - 3} earlier rows" in left
            assert left.count(" · round ") == 3
            last: Any = app.split.rows[-1]
            assert f"ep{last.episode} · round {last.round}" in left
