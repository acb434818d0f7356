"""A fork beside its parent: the split view (``scopewatch replay FORK --parent PARENT``, or ``f``
then "Fork beside" in a replay). Both courses from the fork point, row by row, aligned by episode
and round (engine/fork/split.py); play reveals a row at a time and stops at the first difference,
which it marks, as it marks every row that differs, the fork's own changes and the episode labels
that differ. A small app of its own: it shows two recordings, not one session."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.timer import Timer
from textual.widgets import Footer, Static

from channel.events import Event
from engine.fork.split import SplitCourse, SplitLine, SplitRow, split_course
from themes import DARK, register_all, resolve
from tui.colours import Line, render

STEP_SECONDS = 0.4
"""Play reveals one row this often."""
SHORT_HEIGHT = 24
"""Below this height the head and the episode labels shrink (tui/split.py's CSS, ``.-short``)."""
SHOWN_ROWS = 200
"""Rows drawn at most, those up to the cursor (the rows before them are a line saying how many: a
fork of a long recording is not drawn whole at each step)."""


class SplitApp(App[object]):
    """The parent (left) and the fork (right) from the fork point, played row by row."""

    TITLE = "scopewatch: a fork beside its parent"
    CSS = """
    #split-head { height: auto; padding: 0 1; background: $panel; }
    #split-columns { height: 1fr; }
    .split-column { width: 1fr; border: round $primary 60%; padding: 0 1; }
    #split-labels { height: auto; max-height: 12; border: round $warning 60%; padding: 0 1; }
    #split-status { height: 1; padding: 0 1; color: $text-muted; }
    /* A short terminal (e.g. 60x15): the head and the labels give their room to the two columns. */
    .-short #split-head { max-height: 2; }
    .-short #split-labels { max-height: 3; border: none; overflow-y: auto; }
    """
    VERTICAL_BREAKPOINTS = [(0, "-short"), (SHORT_HEIGHT, "-tall")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "play", "Play/pause"),
        Binding("n,right", "step(1)", "Step"),
        Binding("left", "step(-1)", "Back"),
        Binding("home", "seek(0)", "Start"),
        Binding("end", "seek(-1)", "End"),
        Binding("q,escape", "quit", "Quit"),
    ]

    def __init__(self, split: SplitCourse, *, theme: str | None = None, autoplay: bool = False) -> None:
        super().__init__()
        register_all(self)
        self.theme = resolve(theme)
        self.split = split
        self.cursor = 0
        """Rows shown so far."""
        self.playing = False
        self.autoplay = autoplay
        self._timer: Timer | None = None
        self.stopped_at_difference = False
        self.head = Static(id="split-head")
        self.parent_view = Static(id="split-parent-body")
        self.fork_view = Static(id="split-fork-body")
        self.labels = Static(id="split-labels")
        self.status = Static(id="split-status")
        self._last_row = {split.rows.key(i)[0]: i for i in range(len(split.rows))}
        """Each episode's last row: it is played through once the cursor is past it."""

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(DARK.variables)

    def compose(self) -> ComposeResult:
        yield self.head
        with Horizontal(id="split-columns"):
            left = VerticalScroll(self.parent_view, id="split-parent", classes="split-column")
            left.border_title = "parent"
            yield left
            right = VerticalScroll(self.fork_view, id="split-fork", classes="split-column")
            right.border_title = f"fork: {self.split.changes}"
            yield right
        yield self.labels
        yield self.status
        yield Footer()

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, lambda _theme: self.show())
        self.show()
        if self.autoplay:
            self.action_play()

    # --- the timeline ------------------------------------------------------------------------

    def action_play(self) -> None:
        """Play from here (from the start at the end); pause when playing."""
        if self.playing:
            self._stop()
            return
        if self.cursor >= len(self.split.rows):
            self.cursor = 0
        self.playing = True
        self._timer = self.set_interval(STEP_SECONDS, self._tick)
        self.show()

    def _tick(self) -> None:
        self.move(1)
        first = self.split.first_row
        if first is not None and self.cursor == first + 1 and not self.stopped_at_difference:
            self.stopped_at_difference = True  # stop here once; play again goes on past it
            self._stop()
            self.notify("the first difference: the fork's changes changed something here", timeout=4)
        elif self.cursor >= len(self.split.rows):
            self._stop()

    def _stop(self) -> None:
        self.playing = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.show()

    def action_step(self, count: int) -> None:
        if self.playing:
            self._stop()
        self.move(count)

    def action_seek(self, index: int) -> None:
        if self.playing:
            self._stop()
        self.cursor = len(self.split.rows) if index < 0 else index
        self.show()

    def move(self, count: int) -> None:
        self.cursor = max(0, min(len(self.split.rows), self.cursor + count))
        self.show()

    # --- drawing -----------------------------------------------------------------------------

    def show(self) -> None:
        split = self.split
        d = split.first_difference
        head: Line = ((f"fork after seq {split.at}: ", "bold"), (split.changes, "accent bold"))
        if d is None:
            head += (("  · after the fork point both did the same", "dim"),)
        else:
            head += (
                ("  · first difference: ", ""),
                (f"parent {d.parent_seq or '-'} {d.parent_event}", "warning"),
                (" | ", "dim"),
                (f"fork {d.fork_seq or '-'} {d.fork_event}", "warning"),
            )
        self.head.update(render(self, head))
        left, right = self._columns(split.rows[max(0, self.cursor - SHOWN_ROWS) : self.cursor])
        self.parent_view.update(left)
        self.fork_view.update(right)
        self.labels.update(self._labels())
        state = "playing" if self.playing else "paused"
        if self.stopped_at_difference and not self.playing and self.cursor == (split.first_row or 0) + 1:
            state = "stopped at the first difference (space: play on)"
        self.status.update(f"row {self.cursor}/{len(split.rows)} · {state}")
        for column in ("#split-parent", "#split-fork"):
            self.query_one(column, VerticalScroll).scroll_end(animate=False)

    def _columns(self, rows: Sequence[SplitRow]) -> tuple[Text, Text]:
        left: list[Line] = []
        right: list[Line] = []
        first = self.split.first_difference
        earlier = max(0, self.cursor - SHOWN_ROWS)
        if earlier:
            note: Line = ((f"… {earlier} earlier rows (left / home to go back)", "dim italic"),)
            left.append(note)
            right.append(note)
        for row in rows:
            mark = "◆ first difference" if row.first else "≠ differs" if row.differs else ""
            spec = "error bold" if row.first else "warning" if row.differs else "dim"
            title = ((f"ep{row.episode} · round {row.round} ", "bold"), (mark, spec))
            left.append(title)
            right.append(title)
            hot_p = first.parent_seq if first is not None and row.first else None
            hot_f = first.fork_seq if first is not None and row.first else None
            a = [self._line(x, x.seq == hot_p) for x in row.parent]
            b = [self._line(x, x.seq == hot_f) for x in row.fork]
            pad: Line = (("", ""),)
            a += [pad] * (len(b) - len(a))
            b += [pad] * (len(a) - len(b))
            left += a
            right += b
        if not rows:
            left.append((("press space to play from the fork point", "dim italic"),))
        return self._text(left), self._text(right)

    def _line(self, line: SplitLine, hot: bool) -> Line:
        if line.change:
            return ((f"  {line.seq:>5} → {line.text}", "accent bold"),)
        return ((f"  {line.seq:>5} {line.text}", "error bold reverse" if hot else ""),)

    def _text(self, lines: list[Line]) -> Text:
        return Text("\n").join(render(self, line) for line in lines)

    def _labels(self) -> Text:
        lines: list[Line] = [(("episode labels (when the episode is played through): parent → fork", "bold"),)]
        for ep in self.split.episodes:
            if self._last_row.get(ep.episode, self.cursor) >= self.cursor:
                continue  # not played through yet
            parts: list[tuple[str, str]] = [(f"ep{ep.episode} {ep.task_id}: ", "")]
            for key in ("favor", "execution_type", "favor_type", "harm", "requester_passed", "owner_passed"):
                a = "-" if ep.parent is None else ep.parent[key]
                b = "-" if ep.fork is None else ep.fork[key]
                if key in ep.differing:
                    parts.append((f"{key} {a} → {b} ≠  ", "warning bold"))
                else:
                    parts.append((f"{key} {a}  ", "dim"))
            lines.append(tuple(parts))
        return self._text(lines)


def build_split(
    parent: Sequence[Event],
    fork: Sequence[Event],
    *,
    parent_hash: str | tuple[str, ...] | None = None,
    parent_name: str = "this file",
    theme: str | None = None,
    autoplay: bool = False,
) -> SplitApp:
    """The split view of ``fork`` beside ``parent`` (the factory the CLI and the tests share);
    ``parent_hash``: the parent's hashes, one of which the fork must name (``parent_name``: its file)."""
    course = split_course(parent, fork, parent_hash=parent_hash, parent_name=parent_name)
    return SplitApp(course, theme=theme, autoplay=autoplay)
