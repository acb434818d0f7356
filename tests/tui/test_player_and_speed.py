"""One state and one speed on screen (tui/modes.py, tui/widgets/status.py): a replay's status line
shows the player's, seeking works while playing, the speed keys step through every speed once per
key, and a step while the session waits on the reviewer says so."""

from __future__ import annotations

from channel.commands import SetSpeed, Step
from channel.events import NormChanged, SpeedChanged
from channel.memory import InProcessBus
from channel.vocab.norms import Norms
from tests.tui.helpers import drain, feed, replay, until
from tests.tui.scripted import SESSION, index_after, session_events
from tui.app import build_app
from tui.modes import next_speed

SIZE = (160, 45)


async def test_a_replays_status_line_shows_the_players_state_and_speed() -> None:
    app = build_app(None, SESSION, events=session_events(), flash_seconds=0, autoplay=True)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: replay(app).cursor > 3, "playing")
        await pilot.press("space", "plus", "plus")
        await pilot.pause()
        line = app.status.render().plain  # type: ignore[union-attr]
        assert line.startswith("|| paused x4 "), line
        assert not replay(app).timeline.playing and replay(app).timeline.speed == 4


async def test_seeking_while_playing_plays_on_from_there() -> None:
    events = session_events()
    app = build_app(None, SESSION, events=events, flash_seconds=0, autoplay=True, speed=0.25)
    async with app.run_test(size=SIZE) as pilot:
        mode = replay(app)
        await until(pilot, lambda: mode.cursor >= 1, "playing")
        await pilot.press("end")
        await pilot.pause(0.3)
        assert mode.cursor == len(events) and not mode.timeline.playing  # at the end: stopped at once
        await pilot.press("home", "space")  # at the start, play again; then ] jumps on while playing
        await until(pilot, lambda: mode.timeline.playing and mode.cursor >= 1, "playing again")
        before = mode.cursor
        await pilot.press("right_square_bracket")
        await pilot.pause(0.3)
        assert mode.cursor >= before + len(events) // 10, (before, mode.cursor)
        assert mode.timeline.playing


def test_the_speeds_step_one_at_a_time() -> None:
    speeds = [1.0]
    while (faster := next_speed(speeds[-1], +1)) != speeds[-1]:
        speeds.append(faster)
    assert speeds == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]


async def test_a_burst_of_speed_keys_steps_once_a_key_and_none_past_the_fastest() -> None:
    bus = InProcessBus()
    commands = await bus.subscribe("cmd/#")
    app = build_app(bus, SESSION, flash_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, session_events())
        await pilot.press("plus", "plus", "plus")  # before the session answers
        await pilot.pause()
        sent = await drain(bus, commands)
        assert [c.speed for c in sent if isinstance(c, SetSpeed)] == [2.0, 4.0, 8.0]
        await feed(pilot, bus, [SpeedChanged(session=SESSION, seq=500, actor="tui", speed=64.0)])
        await pilot.press("plus")
        await pilot.pause()
        assert not [c for c in await drain(bus, commands) if isinstance(c, SetSpeed)]
        assert "already at x64" in app.notices.render().plain  # type: ignore[union-attr]


async def test_a_step_while_the_session_waits_on_the_human_reviewer_says_so() -> None:
    bus = InProcessBus()
    commands = await bus.subscribe("cmd/#")
    app = build_app(bus, SESSION, flash_seconds=0)
    events = session_events()  # ends with a review request to the admin, pending
    human = Norms(reviewer="human")
    change = NormChanged(
        session=SESSION, seq=events[-1].seq + 1, actor="tui", key="reviewer", old="trajectory", new="human", norms=human
    )
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, [*events, change])
        assert app.reviews.waiting_on_human
        assert "waiting for your review (a/x)" in app.status.render().plain  # type: ignore[union-attr]
        await pilot.press("n")
        await pilot.pause()
        assert not [c for c in await drain(bus, commands) if isinstance(c, Step)]
        assert "waiting for your review (a/x)" in app.notices.render().plain  # type: ignore[union-attr]


async def test_a_new_episodes_top_line_starts_at_turn_0_not_the_last_episodes_last_turn() -> None:
    """classroom6 #6: a lesson cue on EpisodeStarted pauses the class there, with the top line in view."""
    events = session_events()
    upto = events[: index_after(events, "EpisodeStarted", episode=3)]  # episode 2 ended at turn 2
    app = build_app(None, SESSION, events=upto, flash_seconds=0, autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end")
        await until(pilot, lambda: replay(app).cursor == len(upto), "at episode 3's start")
        line = app.status.render().plain  # type: ignore[union-attr]
        assert "· ep3 " in line and "· turn 0 " in line, line


async def test_a_replay_names_only_keys_it_binds_and_a_live_session_its_own() -> None:
    """nc7 05: the idle hint said "r: play the reviewer" and the Norms panel "keys 1-0" in a replay, where
    neither key does anything: each screen names only the keys it binds."""
    app = build_app(None, SESSION, events=session_events(), flash_seconds=0, autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        hint = app.notices.render().plain  # type: ignore[union-attr]
        assert "☠ harm to an absent team" in hint and "?: keys" in hint and "r: play" not in hint
        assert app.norms_panel.border_title == "Norms"
    live = build_app(InProcessBus(), SESSION, flash_seconds=0)
    async with live.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert live.notices.render().plain.endswith("r: play the reviewer · ?: keys")  # type: ignore[union-attr]
        assert live.norms_panel.border_title == "Norms (keys 1-0, ctrl+p)"
