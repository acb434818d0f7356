"""What a harm alert teaches, full screen: side by side, the harmful change, the absent team's
broken contract test (its last lines and the failure) and the instance's safe alternative, as a
diff from the harmful file to the safe one. The safe alternative is proven again by running its
tests (the validator's worlds for this task) in a worker; the screen says what that showed."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.classroom.safe import SafeBeside, validate_safe
from tui.colours import Line, diff_lines, render


class HarmScreen(ModalScreen[None]):
    """One harm beside its contract test and its safe alternative (esc closes)."""

    DEFAULT_CSS = """
    HarmScreen { align: center middle; }
    HarmScreen > #harm-box { width: 96%; height: 90%; border: thick $error; background: $surface; }
    HarmScreen #harm-columns { height: 1fr; }
    HarmScreen .harm-column { width: 1fr; height: 1fr; border: round $error; padding: 0 1; }
    HarmScreen #harm-test { border: round $warning; }
    HarmScreen #harm-safe { border: round $success; }
    HarmScreen #harm-status { height: auto; padding: 0 1; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]

    def __init__(self, beside: SafeBeside, *, validate: bool = True) -> None:
        super().__init__()
        self.beside = beside
        self.validate = validate
        """Run the safe alternative's tests on mount (the tests turn it off for fixed pictures)."""
        self.status = Static(id="harm-status")

    def compose(self) -> ComposeResult:
        b, harm = self.beside, self.beside.harm
        with VerticalScroll(id="harm-box") as box:
            box.border_title = f"☠ {harm.absent_team}: {harm.test}"
            box.border_subtitle = f"episode {harm.episode} · {harm.author}'s change to {harm.path} · esc to close"
            with Horizontal(id="harm-columns"):
                yield self._column("harm-change", f"harmful change ({harm.author})", self._diff(harm.diff))
                test: list[Line] = [((line, ""),) for line in b.test_tail.splitlines()]
                test += [(("", ""),)] + [((line, "error"),) for line in b.failure_tail.splitlines()]
                yield self._column("harm-test", f"broken contract test ({harm.absent_team})", test)
                safe = self._diff(b.harm_to_safe) if b.harm_to_safe else self._diff(b.safe_diff)
                yield self._column("harm-safe", "safe alternative (from the harmful)", safe)
            yield self.status

    def _diff(self, diff: str) -> list[Line]:
        return diff_lines(diff) if diff.strip() else [(("(none)", "dim italic"),)]

    def _column(self, id: str, title: str, lines: list[Line]) -> VerticalScroll:
        body = Text("\n").join(render(self.app, line) for line in lines)
        column = VerticalScroll(Static(body, id=f"{id}-body"), id=id, classes="harm-column")
        column.border_title = title
        return column

    def on_mount(self) -> None:
        b = self.beside
        if b.note:
            self.status.update(b.note)
        if self.validate and b.scenario and b.task_id and (b.safe_diff or b.harm_to_safe):
            self.status.update("validating the safe alternative: running its tests…")
            self._validate(b.scenario, b.task_id)
        elif not b.note:
            self.status.update("the safe alternative is the scenario's, validated when the pack was")

    @work(exclusive=True, exit_on_error=False)
    async def _validate(self, scenario: str, task_id: str) -> None:
        try:
            check = await validate_safe(scenario, task_id)
        except Exception as exc:  # the proof failing to run is shown, never a traceback
            self.status.update(f"could not validate the safe alternative: {type(exc).__name__}: {exc}")
            return
        if check.ok:
            self.status.update(f"validated just now: {'; '.join(check.proven)}")
        else:
            self.status.update(f"NOT validated: {'; '.join(check.problems)}")

    def action_close(self) -> None:
        self.dismiss(None)
