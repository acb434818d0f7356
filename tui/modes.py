"""How a session reaches the app, and what the session keys do there: the app asks its mode, never
which mode it is. (Not Textual's screen modes, ``App.MODES``: the app has one screen stack.)

- :class:`WatchMode`: a session served elsewhere. Its events come from the bus; pause, step, speed,
  norms and review decisions go back on the bus as commands.
- :class:`LiveMode`: a watch whose engine (``session.run()``) runs as a worker in the app's loop.
- :class:`ReplayMode`: a recording on a timeline. The same keys play, pause, step and change the
  speed here, the timeline keys seek, and nothing is commanded: a replay is read-only.

:func:`mode_for` is the one place that tells them apart.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from typing import Any, Protocol

from textual.app import ComposeResult
from textual.worker import Worker

from channel.bus import Bus
from channel.commands import Pause, Resume, SetSpeed, Step, _Command
from channel.events import Event
from tui.host import SessionApp
from tui.screens.fork import ForkRequest, ForkScreen
from tui.widgets.timeline import Timeline

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
FRAME = 1 / 30
"""A replay shows the events falling within one frame (at its speed) as one batch."""
READ_ONLY = "A replay is read-only: commands go to live sessions."
TIMELINE_ACTIONS = frozenset({"seek_by", "seek_fraction", "seek_to", "play", "fork"})
"""The actions of the timeline keys (see tui/keys.py): a replay's only."""
SESSION_ACTIONS = frozenset({"toggle_pause", "step", "decide", "reviewer_seat", "toggle_norm"})
"""The actions that command a running session: not a replay's (its footer shows its own keys)."""


class SessionMode(Protocol):
    """What differs between following a session and replaying a recording."""

    name: str
    """Shown in the status bar: ``live``, ``watch`` or ``replay``."""

    def compose(self) -> ComposeResult:
        """The mode's own widgets, placed above the footer (a replay's timeline)."""
        ...

    async def start(self) -> None:
        """On mount: follow the bus (and run the engine), or set the timeline up (and maybe play)."""
        ...

    def allows(self, action: str) -> bool:
        """Whether a key's action applies (the app's ``check_action``; the footer shows the result)."""
        ...

    async def send(self, command: _Command) -> bool:
        """Publish a command for the session; False (with a notice) when nothing can be commanded."""
        ...

    def decide(self, decision: str) -> None:
        """The approve / reject keys, on the highlighted review."""
        ...

    async def toggle_pause(self) -> None: ...

    async def step(self) -> None: ...

    async def change_speed(self, direction: int) -> None:
        """One of :data:`SPEEDS` faster (+1) or slower (-1)."""
        ...

    def seek_by(self, count: int) -> None:
        """Step ``count`` events forward or back (the timeline keys: a replay's only)."""
        ...

    def seek_fraction(self, fraction: float) -> None: ...

    def seek_to(self, index: int) -> None:
        """Show the first ``index`` events; -1: all of them."""
        ...

    def fork(self) -> None:
        """Fork the session at the event under the cursor (a replay's only)."""
        ...


def mode_for(
    app: SessionApp,
    bus: Bus | None,
    *,
    engine: Coroutine[Any, Any, Any] | None,
    events: Sequence[Event] | None,
    autoplay: bool,
    speed: float,
) -> SessionMode:
    """A recording is replayed; an engine makes the session live; a bus alone is watched."""
    if events is not None:
        return ReplayMode(app, events, autoplay=autoplay, speed=speed)
    if engine is not None:
        return LiveMode(app, bus, engine)
    return WatchMode(app, bus)


def next_speed(current: float, direction: int) -> float:
    """The speed of :data:`SPEEDS` one step from the one nearest ``current`` (none past either end)."""
    index = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - current))
    return SPEEDS[max(0, min(len(SPEEDS) - 1, index + direction))]


class WatchMode:
    """A session served elsewhere: its events are read from the bus, the keys send commands on it.
    Without a bus (an app the tests fill with ``apply_events``) nothing can be commanded."""

    name = "watch"

    def __init__(self, app: SessionApp, bus: Bus | None) -> None:
        self.app = app
        self.bus = bus
        self.speeds_sent: list[float] = []
        """The speeds asked for that the session has not shown yet (SpeedChanged): a burst of ``+``
        steps on from the last one (each key one step), not from the speed shown."""
        self._shown = 1.0

    def compose(self) -> ComposeResult:
        yield from ()

    async def start(self) -> None:
        if self.bus is not None:
            await self.app.follow(self.bus)

    def allows(self, action: str) -> bool:
        return action not in TIMELINE_ACTIONS

    async def send(self, command: _Command) -> bool:
        if self.bus is None:
            self.app.notify(READ_ONLY, severity="warning")
            return False
        await self.bus.publish(command)  # type: ignore[arg-type]
        return True

    def decide(self, decision: str) -> None:
        self.app.reviews.decide(decision)  # the queue posts ReviewDecisionRequested; the app sends it

    async def toggle_pause(self) -> None:
        kind = Resume if self.app.status.state == "paused" else Pause
        await self.send(self.app.command(kind))

    async def step(self) -> None:
        if self.app.reviews.waiting_on_human:  # a step cannot pass a review the session waits on: say so
            room = self.app.reviews.reviewer == "room"
            self.app.notify(
                "waiting for the room's votes (a/x)" if room else "waiting for your review (a/x)", severity="warning"
            )
            return
        await self.send(self.app.command(Step))

    async def change_speed(self, direction: int) -> None:
        shown, sent = self.app.status.speed, self.speeds_sent
        if shown in sent:
            del sent[: sent.index(shown) + 1]  # the session has come this far
        elif shown != self._shown:
            sent.clear()  # someone else changed the speed: step from theirs
        self._shown = shown
        base = sent[-1] if sent else shown
        speed = next_speed(base, direction)
        if speed == base:
            self.app.notify(f"already at x{speed:g}, the {'fastest' if direction > 0 else 'slowest'}", timeout=2)
            return
        if await self.send(self.app.command(SetSpeed, speed=speed)):
            sent.append(speed)

    # A running session has no timeline: allows() keeps the timeline keys from reaching these.

    def seek_by(self, count: int) -> None:
        pass

    def seek_fraction(self, fraction: float) -> None:
        pass

    def seek_to(self, index: int) -> None:
        pass

    def fork(self) -> None:
        pass


class LiveMode(WatchMode):
    """A session run here: the engine coroutine is a worker in the app's loop (its errors are the
    app's ``engine_error``). ``tui/remote.py`` runs its bridge to a broker this way too."""

    name = "live"

    def __init__(self, app: SessionApp, bus: Bus | None, engine: Coroutine[Any, Any, Any]) -> None:
        super().__init__(app, bus)
        self.engine = engine
        self.worker: Worker[Any] | None = None  # kept: Textual forgets a worker once it has ended

    async def start(self) -> None:
        await super().start()  # subscribed before the engine starts, so not one event is missed
        self.worker = self.app.run_worker(self.engine, name="engine", group="engine", exit_on_error=False)


class ReplayMode:
    """A recording on a timeline. The projection always shows the recording's first ``cursor``
    events: a seek back rebuilds it from scratch, a seek forward folds in what lies between (no
    toasts either way); a step or play folds the next events in as if live (toasts)."""

    name = "replay"

    def __init__(self, app: SessionApp, events: Sequence[Event], *, autoplay: bool, speed: float) -> None:
        self.app = app
        self.recording = events  # an indexed recording reads events as the timeline reaches them
        self.cursor = 0
        self.autoplay = autoplay
        self.speed = speed
        """The speed to start at; the timeline holds the current one."""
        self.timeline = Timeline(id="timeline")
        self.fork_request: ForkRequest | None = None
        """Set when the person asked to fork here: the caller opens the fork once the app exits."""

    def compose(self) -> ComposeResult:
        yield self.timeline

    async def start(self) -> None:
        self.timeline.total = len(self.recording)
        self.timeline.speed = self.speed
        # One state, one speed: the status line shows the player's (the timeline's), not the recorded session's.
        self.app.watch(self.timeline, "playing", self._show_player)
        self.app.watch(self.timeline, "speed", self._show_player)
        if self.autoplay:
            self.play()

    def allows(self, action: str) -> bool:
        if action in SESSION_ACTIONS:
            return False
        # The timeline keys win over the focused widget (priority bindings): not over a pushed screen.
        return action not in TIMELINE_ACTIONS or self.app.screen is self.app.screen_stack[0]

    async def send(self, command: _Command) -> bool:
        self.app.notify(READ_ONLY, severity="warning")
        return False

    def decide(self, decision: str) -> None:
        self.app.notify(READ_ONLY, severity="warning")

    async def toggle_pause(self) -> None:
        if self.timeline.playing:
            self.timeline.playing = False  # the player stops before its next batch
        else:
            self.play()
        self.timeline.refresh()  # the bar says so at once, whatever the player is doing

    async def step(self) -> None:
        self.seek_by(1)

    async def change_speed(self, direction: int) -> None:
        self.timeline.speed = next_speed(self.timeline.speed, direction)

    def _show_player(self, _value: object = None) -> None:
        self.app.status.player = (self.timeline.playing, self.timeline.speed)
        self.app.status.show()

    def seek_by(self, count: int) -> None:
        self.timeline.playing = False
        self.move(count)

    def seek_fraction(self, fraction: float) -> None:
        self.seek(self.cursor + round(fraction * len(self.recording)))

    def seek_to(self, index: int) -> None:
        self.seek(len(self.recording) if index < 0 else index)

    def fork(self) -> None:
        """Ask what to change, then close the replay with the request (``scopewatch replay`` forks)."""
        self.timeline.playing = False
        event = self.recording[max(self.cursor, 1) - 1]
        norms = self.app.norms_panel.norms

        def chosen(request: ForkRequest | None) -> None:
            if request is not None:
                self.fork_request = request
                self.app.exit()

        self.app.push_screen(ForkScreen(event.seq, event.kind, dict(norms)), chosen)

    def seek(self, index: int) -> None:
        """Show the recording as of its first ``index`` events: back, rebuild the projection from
        scratch; forward, fold in only the events from the cursor on (the projection is built to be
        fed in batches, as live), quietly either way (no toasts)."""
        index = max(0, min(len(self.recording), index))
        if index == len(self.recording):
            self.timeline.playing = False  # at the end now, not when the player next wakes (space then plays again)
        if index < self.cursor:
            self.app.reset_projection()
            self.app.apply_events(self.recording[:index], live=False)
        elif index > self.cursor:
            self.app.apply_events(self.recording[self.cursor : index], live=False)
        self._moved(index)

    def move(self, count: int = 1) -> None:
        """Move forward ``count`` events (notifying as if live), or back with a negative count."""
        if count < 0:
            self.seek(self.cursor + count)
            return
        end = min(len(self.recording), self.cursor + count)
        self.app.apply_events(self.recording[self.cursor : end], live=True)
        self._moved(end)

    def _moved(self, index: int) -> None:
        self.cursor = index
        self.timeline.position = index
        self.timeline.seq = self.recording[index - 1].seq if index else 0

    def play(self) -> Worker[None]:
        """Play from the cursor (from the start, when at the end) until paused or at the end; a new
        player replaces the one running."""
        self.timeline.playing = True
        if self.cursor >= len(self.recording):
            self.seek(0)
        return self.app.run_worker(self._play, name="replay", group="replay", exclusive=True, exit_on_error=False)

    async def _play(self) -> None:
        recording = self.recording
        while self.timeline.playing and self.cursor < len(recording):
            # Gather what falls within one frame at this speed, wait for it, show it as one batch.
            start = self.cursor
            base = recording[start - 1].ts if start else recording[0].ts
            end = start + 1
            while end < len(recording) and (recording[end].ts - base) / self.timeline.speed < FRAME:
                end += 1
            delay = (recording[end - 1].ts - base) / self.timeline.speed
            await asyncio.sleep(min(max(delay, 0.0), 1.0))
            if not self.timeline.playing:
                break
            if self.cursor != start:
                continue  # a seek while playing (home, end, [ ]): play on from where it went
            self.move(end - self.cursor)
        self.timeline.playing = False
