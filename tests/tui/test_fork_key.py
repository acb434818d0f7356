"""In a replay, ``f`` forks at the event under the cursor (issue 17): the form asks what to change,
and the replay closes with the request (``scopewatch replay`` then opens the fork live)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Select

from channel.recorder import load_recording
from channel.vocab.config import SessionConfig
from engine.runs.runner import run_session
from tests.tui.helpers import replay
from tui.app import build_app
from tui.cli.fork import fork_recording_path
from tui.screens.fork import ForkRequest, ForkScreen


async def test_f_in_a_replay_asks_what_to_change_and_closes_with_the_fork_request(tmp_path: Path) -> None:
    record = tmp_path / "parent.jsonl"
    await run_session(SessionConfig(tasks=("t1-dates",)), record=str(record))
    events = load_recording(record)
    app = build_app(None, events[0].session, events=events, flash_seconds=0, notify_live=False)
    async with app.run_test(size=(160, 48)) as pilot:
        timeline = replay(app)
        assert app.check_action("fork", ()) is not False  # a replay's key
        timeline.seek(20)
        await pilot.press("f")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ForkScreen)
        assert screen.at == events[19].seq
        admin: Select[str] = screen.query_one("#norm-admin_only", Select)
        admin.value = "true"
        owner: Select[str] = screen.query_one("#seat-owner", Select)
        owner.value = "human"
        await pilot.click("#fork-go")
        await pilot.pause()
    assert timeline.fork_request == ForkRequest(events[19].seq, {"admin_only": "true"}, {"owner": "human"})
    assert fork_recording_path(str(record), 20) == str(tmp_path / "parent.fork-20.jsonl")


async def test_the_fork_key_is_a_replays_only() -> None:
    from channel.memory import InProcessBus

    app = build_app(InProcessBus(), "s-live", flash_seconds=0, notify_live=False)
    async with app.run_test(size=(160, 48)):
        assert app.check_action("fork", ()) is False
