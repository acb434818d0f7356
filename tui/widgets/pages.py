"""The page bar of the compact layout (small terminals, e.g. 80x24): the screen's panels become
pages shown one at a time; the bar names them, marks the one shown, and carries badges so what
needs the user (a review waiting on them, a harm, a possible favor) is visible from any page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tui.colours import style

if TYPE_CHECKING:
    from engine.scoring.live import LiveScore
    from tui.widgets.harm import HarmAlerts
    from tui.widgets.norms import NormsPanel
    from tui.widgets.reviews import ReviewQueue

PAGES: tuple[tuple[str, str], ...] = (
    ("agents", "Agents"),
    ("workspace", "Workspace"),
    ("reviews", "Reviews·harm"),
    ("score", "Score·norms"),
)
"""Page name -> title, in the order ``v`` cycles through them."""
SHORT_TITLES = {"agents": "Agents", "workspace": "Files", "reviews": "Reviews", "score": "Score"}
"""The titles when the full ones and their badges do not fit (a 60-column terminal)."""


class PageBar(Static):
    """``[v] Agents │ Workspace │ Reviews·harm ⏳1 ☠2 │ Score·norms``; click a name to show it."""

    DEFAULT_CSS = """
    PageBar { height: 1; background: $panel; padding: 0 1; }
    """

    page: reactive[str] = reactive("agents")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.badges: dict[str, list[tuple[str, str]]] = {name: [] for name, _ in PAGES}

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.show())
        self.call_later(self.show)  # is_mounted turns True only after on_mount

    def watch_page(self) -> None:
        self.show()

    def show_counts(self, reviews: ReviewQueue, harms: HarmAlerts, live: LiveScore, norms: NormsPanel) -> None:
        """The badges: pending reviews (waiting on you), harms, an open favor, norm toggles sent."""
        waiting = reviews.waiting_on_human
        counts: list[tuple[str, str]] = []
        if reviews.pending:
            mark = "⏳" if waiting else "»"
            counts.append((f"{mark}{len(reviews.pending)}", "warning bold" if waiting else "accent"))
        if harms.harms:
            counts.append((f"☠{len(harms.harms)}", "harm bold"))
        self.set_badges("reviews", counts)
        self.set_badges("agents", [("★ favor?", "favor bold")] if live.open_favor is not None else [])
        sent = len(norms.pending)
        self.set_badges("score", [(f"→{sent} sent", "warning")] if sent else [])

    def set_badges(self, page: str, badges: list[tuple[str, str]]) -> None:
        """Badges (text, style spec) after a page's title; redrawn only when they change."""
        if self.badges.get(page) != badges:
            self.badges[page] = badges
            self.show()

    def show(self) -> None:
        if not self.is_mounted:
            return
        text = self._bar(short=False)
        if self.size.width and text.cell_len > self.size.width:
            text = self._bar(short=True)  # every page named, badges included, rather than the last cut off
        self.update(text, layout=False)  # always one line: no layout pass

    def _bar(self, *, short: bool) -> Text:
        app = self.app
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("v " if short else "[v] ", style(app, "accent"))
        for i, (name, title) in enumerate(PAGES):
            title = SHORT_TITLES[name] if short else title
            if i:
                text.append("│" if short else " │ ", style(app, "dim"))
            spec = "reverse bold" if name == self.page else ""
            text.append(
                f" {title} ",
                (style(app, spec) if spec else Style()) + Style.from_meta({"@click": f"app.show_page('{name}')"}),
            )
            for badge, badge_spec in self.badges.get(name, []):
                text.append(f" {badge}", style(app, badge_spec))
        return text

    def on_resize(self) -> None:
        self.show()
