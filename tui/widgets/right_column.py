"""The right column of the wide layout: the norms, the scoreboard, pending reviews and harm alerts.

The alert panels come first: the Reviews panel keeps room for what it holds (the status lines, the
requests, a room's tally and the request voted on) and Harm alerts its minimum, whatever the others
grow to (norm statuses, scoreboard rows). The scoreboard gives its room up first (its plot, then its
rows, which scroll), then the norms (they scroll). Textual's layout gives ``height: auto`` panels
all they ask for, so :meth:`RightColumn.fit` caps them from the column's height; it runs when the
column is resized and after each batch of events (it sets a style only when a value changes).
"""

from __future__ import annotations

from textual.containers import Vertical
from textual.events import Resize

from tui.widgets.harm import HarmAlerts
from tui.widgets.norms import NormsPanel
from tui.widgets.reviews import ReviewQueue
from tui.widgets.scoreboard import PLOT_HEIGHT, Scoreboard

HARMS_MIN = 5
"""Harm alerts: the border, and room for three alerts (or "no harm detected")."""
SCORE_MIN = 4
"""The scoreboard's border and two rows (the rest scrolls)."""
NORMS_MIN = 4
SHORT_NORMS = 7
"""A short terminal's norms panel (app.tcss, ``.-short NormsPanel``)."""


class RightColumn(Vertical):
    """Norms, scoreboard, reviews and harm alerts, fitted to the column's height."""

    def __init__(
        self, norms: NormsPanel, scoreboard: Scoreboard, reviews: ReviewQueue, harms: HarmAlerts, *, id: str
    ) -> None:
        super().__init__(norms, scoreboard, reviews, harms, id=id)
        self.norms, self.scoreboard, self.reviews, self.harms = norms, scoreboard, reviews, harms

    def on_resize(self, _event: Resize) -> None:
        self.fit()

    def fit(self) -> None:
        """Cap the norms and the scoreboard so the alert panels keep their room (nothing in the
        compact layout: its pages show one or two of these at a time)."""
        height = self.size.height
        screen = self.screen if self.is_attached else None
        if screen is None or not height or screen.has_class("-compact"):
            self._set(None, None, None, plot=True)
            return
        reviews = min(self.reviews.wanted_height(), height // 2)
        alerts = reviews + HARMS_MIN
        norms = self.norms.wanted_height()
        if screen.has_class("-short") or screen.has_class("-tiny"):
            norms = min(norms, SHORT_NORMS)
        norms = max(NORMS_MIN, min(norms, height - alerts - SCORE_MIN))
        score = max(SCORE_MIN, height - alerts - norms)
        plot = self.scoreboard.table_height + 2 + PLOT_HEIGHT <= score
        self._set(norms, score, reviews, plot=plot)

    def _set(self, norms: int | None, score: int | None, reviews: int | None, *, plot: bool) -> None:
        for widget, attribute, value in (
            (self.norms, "max_height", norms),
            (self.scoreboard, "max_height", score),
            (self.reviews, "min_height", reviews),
        ):
            current = getattr(widget.styles, attribute)
            if (None if current is None else current.value) != value:
                setattr(widget.styles, attribute, value)
        self.scoreboard.set_class(not plot, "-no-plot")
