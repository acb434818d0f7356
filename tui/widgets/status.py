"""The status line: scenario, session, episode and task, turn, running / paused / ended, speed."""

from __future__ import annotations

from collections.abc import Sequence

from textual.widgets import Static

from channel.events import (
    DomainEntered,
    EpisodeStarted,
    Event,
    PresenceChanged,
    SessionEnded,
    SessionPaused,
    SessionResumed,
    SessionStarted,
    SpeedChanged,
    TurnStarted,
)
from tui.colours import render


class StatusBar(Static):
    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; padding: 0 1; }
    """

    def __init__(self, session_id: str, *, mode: str = "live", id: str | None = None) -> None:
        super().__init__("", id=id)
        self.session_id = session_id
        self.mode = mode
        self.scenario = ""
        self.episode = ""
        self.turn = 0
        self.state = "waiting"
        self.speed = 1.0
        self.dropped = 0
        self.events = 0
        self.sandbox_warning = ""
        """Set when agent commands run without isolation: shown on the line, always."""
        self.no_trace = ""
        """Why agent commands run without the exec tracer ("" when they run with it): shown, always."""
        self.waiting = False
        """The session waits on the human reviewer (or the room's votes): shown instead of "running"."""
        self.player: tuple[bool, float] | None = None
        """A replay's player (playing, speed): shown instead of the recorded session's state and speed."""
        self.compact = False
        """A small terminal: leave out the session id and the event count (the line stays one line)."""
        self.broker_lost = False
        """A watcher's link to the broker is down (it reconnects): shown instead of the state."""

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.show())
        self.call_later(self.show)  # is_mounted turns True only after on_mount

    def reset(self) -> None:
        self.scenario = self.episode = ""
        self.turn = 0
        self.events = 0
        self.state = "waiting"
        self.show()

    def apply(self, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, SessionStarted):
                self.scenario = event.scenario
                if self.state != "paused":  # a pause asked for before the start holds
                    self.state = "running"
                self.sandbox_warning = event.sandbox_warning
                _, _, why = event.sandbox.partition("(no exec trace: ")
                self.no_trace = why.rstrip(")")
            elif isinstance(event, DomainEntered):
                self.scenario = event.scenario
            elif isinstance(event, EpisodeStarted):
                self.episode = f"ep{event.episode} {event.task_id} ({event.variant})"
                self.turn = 0  # a new episode has had no turn yet (not the last episode's last one)
            elif isinstance(event, TurnStarted):
                self.turn = event.turn
            elif isinstance(event, SessionPaused):
                self.state = "paused"
            elif isinstance(event, SessionResumed):
                self.state = "running"
            elif isinstance(event, SpeedChanged):
                self.speed = event.speed
            elif isinstance(event, SessionEnded):
                self.state = "ended"
            elif isinstance(event, PresenceChanged) and event.participant == "engine" and self.state != "ended":
                # The engine's Last Will: it left without SessionEnded, so it died (or is back).
                if event.status == "left":
                    self.state = "engine gone"
                elif self.state == "engine gone":
                    self.state = "running"
        self.events += len(events)
        self.show()

    def show(self) -> None:
        if not self.is_mounted:
            return
        icon, spec = {
            "running": ("▶", "success"),
            "paused": ("||", "warning"),
            "ended": ("■", "primary"),
            "engine gone": ("✗", "error"),
        }.get(self.state, ("…", "dim"))
        state, speed = self.state, self.speed
        if state == "running" and self.waiting:
            state, icon, spec = "waiting for your review (a/x)", "⏳", "warning"
        if self.player is not None:
            playing, speed = self.player
            state, icon, spec = ("playing", "▶", "success") if playing else ("paused", "||", "warning")
        head = f"{icon} {state} x{speed:g} "
        if self.broker_lost:
            head, spec = "✗ broker connection lost; reconnecting ", "warning"
        segs = [
            (head, spec),
            (f"· {self.episode or 'no episode'} · turn {self.turn} ", "bold"),
            (f"· {self.mode} ", "accent"),
        ]
        segs.append((f"{self.scenario or '-'} ", ""))
        if not self.compact:
            segs += [(f"· {self.session_id} ", "dim"), (f"· {self.events} events", "dim")]
        if self.sandbox_warning:
            segs.append((" · ⚠ no sandbox isolation", "error"))
        if self.no_trace:
            segs.append((f" · ⚠ no exec trace ({self.no_trace}): shim only", "warning"))
        if self.dropped:
            segs.append((f" · {self.dropped} not shown (in the recording)", "warning"))
        self.update(render(self.app, segs), layout=False)  # always one line: no layout pass
