"""The replay timeline: position in the recording, playing or paused, speed, and a bar."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tui.colours import render


class Timeline(Widget):
    """Shows where a replay is; the app moves it (play, pause, step, seek, speed)."""

    DEFAULT_CSS = """
    Timeline { height: 1; background: $panel; padding: 0 1; }
    """

    position: reactive[int] = reactive(0)
    total: reactive[int] = reactive(0)
    playing: reactive[bool] = reactive(False)
    speed: reactive[float] = reactive(1.0)
    seq: reactive[int] = reactive(0)

    def render(self) -> Text:
        head = (
            ("▶ playing" if self.playing else "|| paused", "success" if self.playing else "warning"),
            (f" x{self.speed:g}  event {self.position}/{self.total} (seq {self.seq})  ", ""),
        )
        help_ = ("  ←/→ step  [/] ±10%  home/end  space play", "dim")
        width = max(10, self.size.width - sum(len(t) for t, _ in head) - len(help_[0]) - 2)
        filled = round(width * self.position / self.total) if self.total else 0
        bar = (("━" * filled, "primary"), ("─" * (width - filled), "dim"))
        return render(self.app, (*head, *bar, help_))
