"""The scoreboard: the live score (:class:`engine.scoring.live.LiveScore`, which the app folds events
into) as a table, and a small plot of favor and harm over the scored episodes. The possible favor of
the open episode is marked as soon as the judge knows it (see engine/scoring/live.py)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.color import Color
from textual.containers import Vertical
from textual.widgets import Static
from textual_plotext import PlotextPlot

from engine.scoring.judge import EpisodeLabel
from engine.scoring.live import LiveScore, LiveUpdate
from tui.colours import render

PLOT_HEIGHT = 9
"""The plot's height in the wide layout (the right column hides it when it has no room: tui/widgets/right_column.py)."""


class FavorHarmPlot(PlotextPlot):
    """Cumulative favor rate and harm count per scored episode, in the theme's favor/harm colours."""

    DEFAULT_CSS = """
    FavorHarmPlot { height: 9; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.labels: list[EpisodeLabel] = []

    def set_labels(self, scored: list[EpisodeLabel]) -> None:
        """The scored episodes' labels (``Metrics.scored_labels``: no warm-up, failed or unscored one)."""
        self.labels = list(scored)
        self.refresh()

    def _rgb(self, variable: str) -> tuple[int, int, int]:
        colour = Color.parse(self.app.theme_variables.get(variable, "white"))
        return (colour.r, colour.g, colour.b)

    def render(self) -> RenderResult:
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        xs = [float(x) for x in range(1, len(self.labels) + 1)]
        favors = harms = 0
        rate: list[float] = []
        harm_counts: list[float] = []
        for n, lab in enumerate(self.labels, 1):
            favors += lab.favor
            harms += lab.harm
            rate.append(favors / n)
            harm_counts.append(harms / n)
        if xs:
            plt.plot(xs, rate, label="favor rate", color=self._rgb("favor"), marker="braille")
            plt.plot(xs, harm_counts, label="harm / ep", color=self._rgb("harm"), marker="braille")
            plt.xticks(xs)
        plt.ylim(0, 1)
        plt.title("favor & harm over episodes")
        return super().render()


class Scoreboard(Vertical):
    """Metrics as of the last event folded in (a replay seek rebuilds it from events[0..i])."""

    DEFAULT_CSS = """
    Scoreboard { border: round $primary 50%; height: auto; overflow-y: auto; }
    Scoreboard.-no-plot FavorHarmPlot { display: none; }
    Scoreboard > .score-table { height: auto; padding: 0 1; }
    """

    def __init__(self, live: LiveScore, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.live = live
        """The projection shown (engine/scoring/live.py); the app folds events into it."""
        self.table = Static("", classes="score-table")
        self.plot = FavorHarmPlot()
        self.border_title = "Scoreboard"
        self.table_height = 4
        """The table's lines as last wrapped (the right column fits the plot below them or not)."""

    def compose(self) -> ComposeResult:
        yield self.table
        yield self.plot

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._show())
        self.call_later(self._show)  # is_mounted turns True only after on_mount

    def reset(self) -> None:
        """Show the projection as it is now (the app has reset it)."""
        self._show()

    def show(self, update: LiveUpdate) -> None:
        """Redraw after a batch, when it changed what is shown."""
        if update.changed:
            self._show()

    def _show(self) -> None:
        if not self.is_mounted:
            return
        m = self.live.metrics
        ex = m.execution_types
        ft = m.favor_types
        rows = [
            (
                (f"episodes {m.episodes}", "bold"),
                (f" +{m.warmup_episodes} warm-up", "dim"),
                ("  favor ", ""),
                (_rate(m.favor_rate), "favor bold"),
                ("  harm ", ""),
                (_rate(m.harm_rate), "harm bold"),
            ),
            (
                ("exec ", "dim"),
                (
                    f"impl {ex.get('implemented', 0)} · appr {ex.get('approved', 0)} · "
                    f"refus {ex.get('refusal', 0)} · none {ex.get('no_action', 0)}",
                    "",
                ),
            ),
            (
                ("favor ", "dim"),
                (
                    f"solicited {ft.get('solicited', 0)} · volunteered {ft.get('volunteered', 0)} "
                    f"· spont {ft.get('spontaneous', 0)}",
                    "",
                ),
            ),
            (
                ("req pass ", "dim"),
                (_rate(m.requester_pass_rate), "bold"),
                (f" (W {_rate(m.W)} F {_rate(m.F)})", "dim"),
                ("  owner ok ", "dim"),
                (_rate(m.owner_success), "bold"),
            ),
        ]
        if m.scripted:  # as report, compare and run say it: a scripted seat's rates are chosen by hand
            rows.insert(0, (("scripted: rates chosen by hand, not measurements", "dim"),))
        oe = m.overeager
        if oe.runs:
            low, high = oe.overeager_ci
            rows.append(
                (
                    ("overeager ", "dim"),
                    (_rate(oe.overeager_rate), "harm bold" if oe.overeager else "bold"),
                    (f" [{low:.2f}, {high:.2f}]", "dim"),
                    ("  crit ", "dim"),
                    (f"{oe.critical_hits}", "bold"),
                    ("  safe ", "dim"),
                    (_rate(oe.safety_gate), "bold"),
                )
            )
        for agent, usage in sorted(self.live.scorer.usage.totals.items()):
            rows.append(
                (
                    (f"{agent} ", "dim"),
                    (f"{usage.calls} calls · {_tokens(usage.tokens)} tok", ""),
                    (f" · ${usage.cost_usd:.4f}", "dim"),
                )
            )
        if self.live.open_favor is not None:
            fav = self.live.open_favor
            rows.append(
                (
                    (f"now: {self.live.open_episode} ", "dim"),
                    ("★ possible favor", "favor bold"),
                    (f" {fav.actor} → {fav.path}", ""),
                )
            )
        if m.labels:
            last = m.labels[-1]
            verdict = f"FAVOR ({last.favor_type})" if last.favor else last.execution_type
            rows.append(
                (
                    (f"last: ep{last.episode} {last.task_id} ({last.variant}) ", "dim"),
                    (verdict, "favor bold" if last.favor else ""),
                    (" · HARM" if last.harm else "", "harm bold"),
                )
            )
        text = Text("\n").join(render(self.app, row) for row in rows)
        # A layout pass (costly: the whole screen) only when the wrapped table needs another height
        # than the one the last layout gave it (hidden, zero wide: always).
        width, height = self.table.size
        self.table_height = len(text.wrap(self.app.console, width)) if width else len(rows)
        self.table.update(text, layout=not width or self.table_height != height)
        self.plot.set_labels(m.scored_labels())


def _rate(rate: float | None) -> str:
    """A rate to two places; ``n/a`` for a rate over nothing (None: no scored episode yet)."""
    return "n/a" if rate is None else f"{rate:.2f}"


def _tokens(count: int) -> str:
    return f"{count / 1000:.1f}k" if count >= 1000 else str(count)
