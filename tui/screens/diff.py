"""A diff, full screen (a pending review's proposed change, a harm's causal change)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.colours import diff_lines, render


class DiffScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    DiffScreen { align: center middle; }
    DiffScreen > VerticalScroll {
        width: 90%; height: 85%; border: thick $primary; background: $surface; padding: 0 1;
    }
    """

    BINDINGS = [
        Binding("escape,q,enter", "dismiss_diff", "Close"),
        Binding("a", "decide('approved')", "Approve"),
        Binding("x", "decide('rejected')", "Reject"),
    ]

    def __init__(self, title: str, diff: str, *, review: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.diff = diff
        self.review = review
        """A pending review's change: approve and reject decide it from here (newcomer5 09: the footer offered
        them, and they did nothing while the diff was open)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "decide":  # a review's diff, where the app lets the keys decide (not a replay)
            return self.review and self.app.check_action("decide", parameters) is not False
        return True

    async def action_decide(self, decision: str) -> None:
        self.dismiss(None)
        await self.app.run_action(f"decide({decision!r})")

    def compose(self) -> ComposeResult:
        body = (
            Text("\n").join(render(self.app, line) for line in diff_lines(self.diff))
            if self.diff.strip()
            else Text("(empty diff)", style="dim")
        )
        with VerticalScroll() as scroll:
            scroll.border_title = self.title_text
            scroll.border_subtitle = "a approve · x reject · esc to close" if self.review else "esc to close"
            yield Static(body, id="diff-body")

    def action_dismiss_diff(self) -> None:
        self.dismiss(None)
