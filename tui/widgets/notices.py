"""The notice line: one line above the footer where everything that has no panel of its own is said.

The notification policy: alerts live in their panels (Pending reviews, Harm alerts); this line is
the app's only toast. It is part of the layout, so it never covers a panel; it shows one notice at a
time; notices of one kind that come in a burst are grouped into one ("★ 3 possible favors"). When
nothing is being said it shows the hint: what the marks mean and which keys matter.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.app import App
from textual.widgets import Static

from channel.events import Event, FileChanged, HarmDetected, LessonPrompted, TrapFired
from engine.scoring.judge import EpisodeLabel
from tui.colours import render
from tui.widgets.harm import harm_summary

MARKS = "★ possible favor · ⚑ out-of-scope write · ⊗ refused · ☠ harm to an absent team"
HINT_KEYS = (("reviewer_seat", "r: play the reviewer"), ("keys", "?: keys"))
"""The keys the hint names, by action: only those the screen binds are named (a replay has no reviewer's seat)."""


def hint(app: App[object]) -> str:
    """The idle line: what the marks mean and the keys that matter, of those the app allows now."""
    return " · ".join([MARKS, *(text for action, text in HINT_KEYS if app.check_action(action, ()))])


GROUP_SECONDS = 10.0
"""Notices of one kind within this many seconds of the last are grouped."""

_STYLE = {"information": "primary", "warning": "warning", "error": "error"}


@dataclass(frozen=True)
class Notice:
    """One notice as it was said (the line may show it grouped with others)."""

    title: str
    message: str
    severity: str


class NoticeBar(Static):
    """One line: the latest notice (grouped with its kind's recent ones), or the hint."""

    DEFAULT_CSS = """
    NoticeBar { height: 1; padding: 0 1; background: $boost; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._clock = time.monotonic
        self.text = ""
        """The notice shown now ("" while the hint is shown)."""
        self.kind = ""
        self.count = 0
        self.severity = "information"
        self._last = 0.0
        self._expires = 0.0
        self._said_harms: set[tuple[int, str, str, str]] = set()
        self.history: deque[Notice] = deque(maxlen=500)
        """Every notice said, newest last (the tests read it; the line shows one at a time)."""

    def on_mount(self) -> None:
        self.set_interval(1.0, self._expire)
        self._draw()

    def say(self, message: str, *, title: str = "", severity: str = "information", timeout: float = 6.0) -> None:
        """Show a notice; one of the same kind (its title) soon after the last is grouped with it."""
        self.history.append(Notice(title, message, severity))
        kind = title or severity
        now = self._clock()
        if kind == self.kind and self.text and now - self._last < GROUP_SECONDS:
            self.count += 1
        else:
            self.kind, self.count = kind, 1
        self.text = message
        self.severity = severity if severity in _STYLE else "information"
        self._last = now
        self._expires = now + max(timeout, 2.0)
        self._draw()

    def announce(
        self,
        harms: Sequence[HarmDetected],
        favors: Sequence[EpisodeLabel],
        favor_writes: Sequence[FileChanged],
        requester: str,
        batch: Sequence[Event] = (),
    ) -> None:
        """What a live batch brought that deserves a word: possible favors as they are written, harms
        (once each: found live and again at episode end), favors the judge labelled, traps as they
        fire (audit runs)."""
        for prompt in (e for e in batch if isinstance(e, LessonPrompted)):
            choices = f" [{' / '.join(prompt.choices)}]" if prompt.choices else ""
            self.say(f"{prompt.prompt}{choices}", title="📣 Lesson", severity="warning", timeout=60)
        for trap in (e for e in batch if isinstance(e, TrapFired)):
            title = f"⚠ Trap {trap.trap} ({trap.severity})"
            self.say(f"{trap.actor}: {trap.description}", title=title, severity="error")
        for write in favor_writes:
            self.say(
                f"{write.actor} wrote {write.path}: out of its task, unreviewed; {requester}'s task needs it",
                title="★ Possible favor",
                severity="warning",
            )
        for harm in harms:
            key = (harm.episode, harm.absent_team, harm.test, harm.path)
            if key not in self._said_harms:
                self._said_harms.add(key)
                title = f"☠ Harm to absent team {harm.absent_team}"
                self.say(f"{harm_summary(harm)} (Harm alerts: enter for the safe way)", title=title, severity="error")
        for label in favors:
            self.say(
                f"{label.owner} made {label.requester}'s change outside its own task, unreviewed "
                f"({label.favor_type}; ep{label.episode} {label.task_id}, {label.variant})",
                title="Favor",
                severity="warning",
            )

    def clear_notice(self) -> None:
        self.text, self.kind, self.count = "", "", 0
        self._draw()

    def _expire(self) -> None:
        if self.text and self._clock() >= self._expires:
            self.clear_notice()

    def _draw(self) -> None:
        if not self.text:
            self.update(render(self.app, [(hint(self.app), "dim")]), layout=False)  # always one line: no layout pass
            return
        head = self.kind if self.kind not in _STYLE else ""
        if self.count > 1:
            head = f"{head} x{self.count}".strip()
        line: Text = render(
            self.app,
            [
                (f"{head}: " if head else "", f"bold {_STYLE[self.severity]}"),
                (" ".join(self.text.split()), _STYLE[self.severity]),
            ],
        )
        line.no_wrap = True
        line.truncate(max(10, self.size.width - 2), overflow="ellipsis")
        self.update(line, layout=False)
