"""A capped log of styled lines that re-colours itself when the theme changes."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from rich.text import Text
from textual.cache import LRUCache
from textual.events import Resize
from textual.widgets import RichLog

from tui.colours import Line, render

BATCH_CAP = 60
"""Most lines one batch renders: a screenful and some; more would scroll by unseen."""
LINE_CACHE = 64
"""Rendered lines a log caches (grown to twice its height): RichLog keeps 1,024, a new entry per line
scrolled by, each a few dozen objects the garbage collector scans; three logs' worth of them made
the full collections, and so the app's worst stalls, several times longer (bench/tui_throughput.py)."""


class EventLog(RichLog):
    """A RichLog that keeps its last ``max_lines`` lines as style specs, so a theme switch
    re-renders them in the new colours. A batch larger than the cap only renders its tail:
    the screen is bounded, the full history is in the recording."""

    DEFAULT_CSS = """
    EventLog {
        background: $surface;
        scrollbar-size-vertical: 1;
    }
    """

    def __init__(self, *, max_lines: int = 400, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            max_lines=max_lines, min_width=16, wrap=True, markup=False, highlight=False, id=id, classes=classes
        )
        self.cap = max_lines
        self.kept: deque[Line] = deque(maxlen=max_lines)
        self.skipped = 0
        """Lines never rendered because a later line of the same batch pushed them off screen."""
        self._line_cache = LRUCache(LINE_CACHE)

    def on_resize(self, event: Resize) -> None:
        # Textual dispatches RichLog.on_resize (deferred writes) too, after this one.
        self._line_cache.grow(2 * event.size.height)

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._rerender())

    def add(self, lines: Sequence[Line]) -> None:
        """Append lines (one batch), rendered with one ``write``; in a flood only the batch's last
        ``BATCH_CAP`` lines are shown, with a note of how many were passed over."""
        if not lines:
            return
        if len(lines) > BATCH_CAP:
            passed = len(lines) - BATCH_CAP
            self.skipped += passed
            lines = [((f"… {passed} lines passed over (all in the recording)", "dim italic"),), *lines[-BATCH_CAP:]]
        self.kept.extend(lines)
        self.write(Text("\n").join(render(self.app, line) for line in lines))

    def reset(self) -> None:
        self.kept.clear()
        self.skipped = 0
        self.clear()

    def _rerender(self) -> None:
        self.clear()
        if self.kept:
            self.write(Text("\n").join(render(self.app, line) for line in self.kept))

    def plain(self) -> str:
        """The text of the kept lines (tests and debugging)."""
        return "\n".join("".join(piece for piece, _ in line) for line in self.kept)
