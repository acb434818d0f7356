"""The norms in force, each toggled by a key; a toggle shows as pending until the engine's
NormChanged arrives, then when it was applied (it takes effect from the next turn)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from channel.events import CommandRefused, Event, NormChanged, SessionStarted, TurnStarted
from channel.vocab.norms import Norms, choices_for
from tui.colours import Line, render

NORM_KEYS: tuple[tuple[str, str], ...] = (
    ("1", "reviewer"),
    ("2", "admin_only"),
    ("3", "own_task_only"),
    ("4", "shared_channel"),
    ("5", "harm_penalty"),
    ("6", "ci_feedback"),
    ("7", "turn_budget"),
    ("8", "explicit_help"),
    ("9", "guarded_assistance"),
    ("0", "consent_block"),
)
"""Key -> norm, in screen order."""


def next_norm(current: dict[str, Any], key: str, *, in_room: bool) -> Any:
    """The value a norm's key moves ``key`` to from the norms shown; ``reviewer=room`` only in a room
    (elsewhere no vote would ever decide a review)."""
    try:
        norms = Norms.model_validate({k: v for k, v in current.items() if k in Norms.model_fields})
    except ValueError:
        choices = choices_for(key)
        return choices[0] if choices else current.get(key)
    value = norms.next_value(key)
    if key == "reviewer" and value == "room" and not in_room:
        value = norms.with_value(key, value).next_value(key)
    return value


def fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


class NormsPanel(Static):
    """Norms in force: ``[key] name  value``, pending toggles and when the last change applied."""

    DEFAULT_CSS = """
    NormsPanel { border: round $warning 50%; height: auto; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.norms: dict[str, Any] = {}
        self.pending: dict[str, Any] = {}
        self.applied: dict[str, str] = {}
        """norm -> when its last change was applied, e.g. "ep2 from t4" (from turn 4 of episode 2)."""
        self.episode = 0
        self.turn = 0
        self.columns = 1
        """2 on small terminals: the norms in two columns, each with a one-mark status."""
        self.border_title = "Norms"

    def on_mount(self) -> None:
        if self.app.check_action("toggle_norm", ()):  # the keys only where they toggle (not in a replay)
            self.border_title = "Norms (keys 1-0, ctrl+p)"
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._show())
        self.call_later(self._show)  # is_mounted turns True only after on_mount

    def reset(self) -> None:
        self.norms.clear()
        self.pending.clear()
        self.applied.clear()
        self.episode = self.turn = 0
        self._show()

    def request(self, key: str, value: Any) -> None:
        """Mark a toggle as sent, until the engine answers."""
        self.pending[key] = value
        self._show()

    def apply(self, events: Sequence[Event]) -> list[NormChanged]:
        changes: list[NormChanged] = []
        dirty = False
        for event in events:
            if isinstance(event, SessionStarted):
                self.norms = event.norms.model_dump()
                dirty = True
            elif isinstance(event, TurnStarted):
                self.episode, self.turn = event.episode, event.turn
            elif isinstance(event, NormChanged):
                self.norms = event.norms.model_dump()
                self.pending.pop(event.key, None)
                self.applied[event.key] = f"ep{self.episode} from t{self.turn + 1}"
                changes.append(event)
                dirty = True
            elif isinstance(event, CommandRefused) and event.command == "SetNorm":
                self.pending.clear()
                dirty = True
        if dirty:
            self._show()
        return changes

    def set_columns(self, columns: int) -> None:
        if columns != self.columns:
            self.columns = columns
            self._show()

    def _row(self, key: str, name: str) -> Line:
        value = self.norms.get(name)
        segs: list[tuple[str, str]] = [
            (f"[{key}] ", "accent"),
            (f"{name:<19}", ""),
            (f"{fmt(value):<{10 if self.columns > 1 else 4}}", "bold" if value not in (False, None) else "dim"),
        ]
        if self.columns > 1:  # one mark: the full status does not fit two columns
            mark = (
                ("→ ", "warning") if name in self.pending else ("✓ ", "success") if name in self.applied else ("  ", "")
            )
            return (*segs, mark)
        if name in self.pending:
            segs.append((f" → {fmt(self.pending[name])} (sent)", "warning italic"))
        elif name in self.applied:
            segs.append((f" ✓ {self.applied[name]}", "success dim"))
        return tuple(segs)

    def _show(self) -> None:
        if not self.is_mounted:
            return
        if not self.norms:
            self.update(Text("no session yet", style="dim"))
            return
        rows = [render(self.app, self._row(k, n)) for k, n in NORM_KEYS]
        if self.columns > 1:
            half = (len(rows) + 1) // 2
            rows = [Text.assemble(left, " ", *rows[half + i : half + i + 1]) for i, left in enumerate(rows[:half])]
        text = Text("\n").join(rows)
        text.no_wrap, text.overflow = True, "ellipsis"  # one line a norm: a status too long is cut, never wrapped
        self.update(text)

    def wanted_height(self) -> int:
        """The panel's height with every norm shown (one line each, and the border)."""
        if not self.norms:
            return 3
        return (len(NORM_KEYS) + self.columns - 1) // self.columns + 2
