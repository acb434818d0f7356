"""Harm alerts: each names the absent team, the failing contract test and the change that caused
it (author, path); enter opens what it teaches (tui/screens/harm.py: the harmful change beside the
broken test and the safe alternative)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from channel.events import DomainEntered, EpisodeStarted, Event, HarmDetected, SessionStarted
from engine.classroom.safe import safe_beside
from tui.colours import Line, render
from tui.screens.harm import HarmScreen


def harm_summary(event: HarmDetected) -> str:
    """One line naming absent team, test and change (also the notification text)."""
    return f"{event.absent_team}: {event.test} fails after {event.author}'s change to {event.path}"


class HarmAlerts(Vertical):
    """The list of harms found so far (live and final); enter opens the causal diff."""

    DEFAULT_CSS = """
    HarmAlerts { border: round $error 60%; height: 1fr; }
    HarmAlerts.alerting { border: heavy $error; }
    HarmAlerts > OptionList { height: 1fr; border: none; background: $surface; }
    HarmAlerts > .harm-empty { color: $text-muted; padding: 0 1; height: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.harms: list[HarmDetected] = []
        self.episodes: dict[int, tuple[str | None, str]] = {}
        """Episode -> the scenario (pack) and task it ran: where the safe alternative is found."""
        self._scenario: str | None = None
        self.options = OptionList()
        self.empty = Static("no harm detected", classes="harm-empty")
        self.border_title = "Harm alerts (enter: open)"

    def compose(self) -> ComposeResult:
        yield self.empty
        yield self.options

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._show())

    def reset(self) -> None:
        self.harms.clear()
        self.episodes.clear()
        self._scenario = None
        self._show()

    def apply(self, events: Sequence[Event]) -> list[HarmDetected]:
        """Fold events in; returns the new harms (the app notifies them when live)."""
        new = []
        for e in events:
            if isinstance(e, HarmDetected):
                new.append(e)
            elif isinstance(e, SessionStarted | DomainEntered):
                self._scenario = e.scenario
            elif isinstance(e, EpisodeStarted):
                self.episodes[e.episode] = (self._scenario, e.task_id)
        if new:
            start = len(self.harms)
            self.harms.extend(new)
            self._show(start)
        return new

    def _line(self, event: HarmDetected) -> Line:
        return (
            (f"☠ ep{event.episode} {event.stage} ", "harm bold"),
            (f"{event.absent_team} ", "team-absent bold"),
            (f"{event.test} ", "error"),
            (f"← {event.author}: {event.path}", ""),
            (f"  {event.last_line}" if event.last_line else "", "dim"),
        )

    def _show(self, start: int = 0) -> None:
        """Show the harms from ``start`` on (0: all of them again, as after a theme change); one
        ``add_options`` for them all (each ``add_option`` is a layout pass of the whole screen)."""
        if not self.is_mounted:
            return
        keep = self.options.highlighted
        if start == 0 or start != self.options.option_count:
            start = 0
            self.options.clear_options()
        self.options.add_options(
            [Option(render(self.app, self._line(harm)), id=str(i)) for i, harm in enumerate(self.harms[start:], start)]
        )
        if self.harms:
            self.options.highlighted = keep if keep is not None and keep < len(self.harms) else 0
        self.empty.display = not self.harms
        self.set_class(bool(self.harms), "alerting")
        self.border_title = f"Harm alerts: {len(self.harms)} (enter: open)" if self.harms else "Harm alerts"

    def on_option_list_option_selected(self, event: Any) -> None:
        self.open(self.harms[int(event.option.id)])

    def open(self, harm: HarmDetected, *, validate: bool = True) -> HarmScreen:
        """Show what ``harm`` teaches: its change beside the broken test and the safe alternative."""
        scenario, task_id = self.episodes.get(harm.episode, (self._scenario, None))
        screen = HarmScreen(safe_beside(harm, scenario, task_id), validate=validate)
        self.app.push_screen(screen)
        return screen
