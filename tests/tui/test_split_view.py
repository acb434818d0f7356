"""A fork beside its parent, on screen (issue 30): play stops at the first difference and marks
it; ``f`` then "Fork beside" in a replay asks for it; ``replay FORK --parent`` refuses a stranger."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from channel.events import Event
from channel.recorder import load_recording
from tests.engine.fork.test_split import fork_pair
from tests.tui.helpers import replay, until
from tui.app import build_app
from tui.cli import main
from tui.screens.fork import ForkRequest, ForkScreen
from tui.split import SplitApp, build_split


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return fork_pair(tmp_path_factory.mktemp("split-view"))


def _events(pair: tuple[Path, Path]) -> tuple[list[Event], list[Event]]:
    return load_recording(pair[0]), load_recording(pair[1])


async def _play_to_the_difference(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, SplitApp)
    await pilot.press("space")
    await until(pilot, lambda: app.stopped_at_difference, "play stopped at the first difference")
    await pilot.pause()


@pytest.mark.parametrize("theme", ["scopewatch-dark", "scopewatch-light"])
def test_the_split_view_at_the_first_difference(snap_compare: Any, theme: str, pair: tuple[Path, Path]) -> None:
    app = build_split(*_events(pair), theme=theme)
    assert snap_compare(app, terminal_size=(160, 40), run_before=_play_to_the_difference)


async def test_play_stops_at_the_first_difference_and_marks_it(pair: tuple[Path, Path]) -> None:
    app = build_split(*_events(pair))
    async with app.run_test(size=(160, 40)) as pilot:
        await _play_to_the_difference(pilot)
        first = app.split.first_row
        assert first is not None and app.cursor == first + 1 and not app.playing
        left = str(app.query_one("#split-parent-body", Static).render())
        right = str(app.query_one("#split-fork-body", Static).render())
        assert "◆ first difference" in left and "◆ first difference" in right
        assert "MessagePosted by requester" in left and "ReviewRequested by requester" in right
        assert "→ NormChanged admin_only by fork" in right
        assert "stopped at the first difference" in str(app.status.render())
        assert "favor True → False" not in str(app.labels.render())  # episode 2 is not played through yet
        await pilot.press("end")
        assert "favor True → False ≠" in str(app.labels.render())
        end = app.cursor
        await pilot.press("space")  # at the end: plays again from the fork point, past the difference
        # From the fork point again: ticks may come in while it redraws (more of them on a loaded machine), so the
        # cursor is only known to be back before the end.
        assert app.playing and app.cursor < end


async def test_fork_beside_in_a_replay_asks_for_the_split_view(pair: tuple[Path, Path]) -> None:
    events = load_recording(pair[0])
    app = build_app(None, events[0].session, events=events, flash_seconds=0, notify_live=False)
    async with app.run_test(size=(160, 48)) as pilot:
        timeline = replay(app)
        timeline.seek(20)
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, ForkScreen)
        await pilot.click("#fork-beside")
        await pilot.pause()
    assert timeline.fork_request == ForkRequest(events[19].seq, {}, {}, beside=True)


def test_replay_parent_refuses_a_recording_that_is_not_its_parent(
    pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    parent, fork = pair
    assert main(["replay", str(parent), "--parent", str(fork)]) == 2
    assert "not a fork" in capsys.readouterr().err


async def test_a_small_terminal_shows_rows_in_both_columns(pair: tuple[Path, Path]) -> None:
    app = build_split(*_events(pair))
    async with app.run_test(size=(60, 15)) as pilot:
        await _play_to_the_difference(pilot)
        await pilot.press("end")  # every episode played through: the labels are at their longest
        await pilot.pause()
        for column in ("#split-parent", "#split-fork"):
            assert app.query_one(column).region.height >= 8, column  # six rows or more inside the border
