"""Fork a replay at the event under the cursor: choose the norms in force from there, and who plays
each seat; the replay then closes and the fork opens live (``scopewatch fork`` does the work), or,
with "Fork beside", runs headless and opens beside its parent in the split view (tui/split.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Select

from channel.vocab.norms import Norms, choices_for

SEAT_CHOICES = ("keep", "scripted", "human")


@dataclass(frozen=True)
class ForkRequest:
    """Fork after event ``at`` with these norm values and seat kinds (only the changes)."""

    at: int
    norms: dict[str, str] = field(default_factory=dict)
    agents: dict[str, str] = field(default_factory=dict)
    beside: bool = False
    """Run the fork headless and show it beside its parent (the split view), not live."""


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


class ForkScreen(ModalScreen[ForkRequest | None]):
    DEFAULT_CSS = """
    ForkScreen { align: center middle; }
    ForkScreen > Vertical { width: 70; height: 90%; border: thick $primary; background: $surface; padding: 0 1; }
    ForkScreen VerticalScroll { height: 1fr; }
    ForkScreen Horizontal { height: 3; }
    ForkScreen Label { width: 22; padding: 1 0; }
    ForkScreen Select { width: 1fr; }
    ForkScreen #fork-buttons { height: 3; align: right middle; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, at: int, what: str, norms: dict[str, Any]) -> None:
        super().__init__()
        self.at = at
        self.what = what
        self.current = {k: v for k, v in norms.items() if k in Norms.model_fields}
        self.selects: dict[str, Select[str]] = {}

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"Fork after event {self.at} ({self.what})"
            box.border_subtitle = "changes apply at the next round · esc cancels"
            with VerticalScroll():
                for key in Norms.model_fields:
                    now = _text(self.current.get(key, getattr(Norms(), key)))
                    values = [_text(c) for c in choices_for(key)] or [now]
                    if now not in values:
                        values.insert(0, now)
                    select: Select[str] = Select(
                        [(v, v) for v in values], value=now, allow_blank=False, id=f"norm-{key}"
                    )
                    self.selects[key] = select
                    with Horizontal():
                        yield Label(key)
                        yield select
                for seat in ("owner", "requester"):
                    seat_select: Select[str] = Select(
                        [(c, c) for c in SEAT_CHOICES], value="keep", allow_blank=False, id=f"seat-{seat}"
                    )
                    self.selects[f"seat:{seat}"] = seat_select
                    with Horizontal():
                        yield Label(f"{seat} seat")
                        yield seat_select
            with Horizontal(id="fork-buttons"):
                yield Button("Fork", variant="primary", id="fork-go")
                yield Button("Fork beside", id="fork-beside")
                yield Button("Cancel", id="fork-cancel")

    def request(self, *, beside: bool = False) -> ForkRequest:
        """What the form says: the norms changed and the seats given to someone else."""
        norms, agents = {}, {}
        for key, select in self.selects.items():
            value = str(select.value)
            if key.startswith("seat:"):
                if value != "keep":
                    agents[key.removeprefix("seat:")] = value
            elif value != _text(self.current.get(key, getattr(Norms(), key))):
                norms[key] = value
        return ForkRequest(self.at, norms, agents, beside)

    @on(Button.Pressed, "#fork-go")
    def _go(self) -> None:
        self.dismiss(self.request())

    @on(Button.Pressed, "#fork-beside")
    def _beside(self) -> None:
        self.dismiss(self.request(beside=True))

    @on(Button.Pressed, "#fork-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
