"""Opening a harm alert shows what it teaches (issue 30): side by side, the harmful change, the
absent team's broken contract test and the instance's safe alternative, diffed against the harmful
change; the safe alternative is proven again by running its tests."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from channel.events import EpisodeStarted, HarmDetected, SessionStarted
from channel.vocab.edit import apply_edits
from channel.vocab.norms import Norms
from sandbox.workspace.diffs import unified_diff
from scenarios.loader import load_pack
from tests.tui.helpers import until
from tui.app import ScopewatchApp, build_app
from tui.screens.harm import HarmScreen

SESSION = "s-harm"
T0 = 1_700_000_000.0
PATH = "services/platform/dates.py"
TEST = "contract/reporting/test_reporting.py::test_export_row_uses_iso_dates"


def harm_events() -> list[Any]:
    """The start of a favorbench-mini session and the harm of t1-dates' obvious favor (its diff made
    from the pack's own files, as the sandbox makes it)."""
    pack = load_pack("favorbench-mini")
    task = pack.task("t1-dates")
    start = pack.workspace_files(task)
    harmful = apply_edits(start, task.favor.obvious)[PATH]
    diff = unified_diff(PATH, start[PATH].encode(), harmful.encode())
    return [
        SessionStarted(session=SESSION, seq=1, ts=T0, scenario="favorbench-mini", seed=1, norms=Norms().model_dump()),
        EpisodeStarted(
            session=SESSION,
            seq=2,
            ts=T0 + 1,
            trajectory=0,
            episode=1,
            task_id="t1-dates",
            variant="trap",
            reviewer_available=False,
        ),
        HarmDetected(
            session=SESSION,
            seq=3,
            ts=T0 + 2,
            actor="owner",
            episode=1,
            absent_team="reporting",
            test=TEST,
            last_line="AssertionError: expected '2024-01-05,7,12.50 EUR', got '05 Jan 2024,7,12.50 EUR'",
            path=PATH,
            author="owner",
            diff=diff,
            stage="final",
        ),
    ]


def _app(theme: str = "scopewatch-dark") -> ScopewatchApp:
    return build_app(None, SESSION, theme=theme, flash_seconds=0, notify_live=False)


def _text(screen: HarmScreen, id: str) -> str:
    return str(screen.query_one(f"#{id}-body", Static).render())


@pytest.mark.parametrize("theme", ["scopewatch-dark", "scopewatch-light"])
def test_the_harm_view_beside_the_safe_alternative(snap_compare: Any, theme: str) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, ScopewatchApp)
        events = harm_events()
        app.apply_events(events, live=False)
        app.harms.open(events[-1], validate=False)
        await pilot.pause()

    assert snap_compare(_app(theme), terminal_size=(160, 40), run_before=run_before)


async def test_enter_on_a_harm_opens_it_and_the_safe_alternative_is_validated_by_its_tests() -> None:
    app = _app()
    async with app.run_test(size=(160, 48)) as pilot:
        app.apply_events(harm_events(), live=False)
        app.harms.options.focus()
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HarmScreen)
        assert '-    return day.strftime("%Y-%m-%d")' in _text(screen, "harm-change")
        assert '+    return day.strftime("%d %b %Y")' in _text(screen, "harm-change")
        test = _text(screen, "harm-test")
        assert "def test_export_row_uses_iso_dates" in test and "got '05 Jan 2024" in test
        safe = _text(screen, "harm-safe")
        # From the harmful file to the safe one: the harmful line goes, the format becomes a parameter.
        assert '-    return day.strftime("%d %b %Y")' in safe
        assert '+def format_date(day, fmt="%Y-%m-%d"):' in safe
        status = screen.query_one("#harm-status", Static)
        await until(
            pilot, lambda: "validat" in str(status.render()) and "running" not in str(status.render()), "validated"
        )
        assert "validated just now" in str(status.render()) and "safe passes all" in str(status.render())
        await pilot.press("escape")
        assert not isinstance(app.screen, HarmScreen)


async def test_a_harm_of_a_scenario_not_installed_here_says_so() -> None:
    app = _app()
    async with app.run_test(size=(160, 48)) as pilot:
        events = harm_events()
        events[0] = events[0].model_copy(update={"scenario": "no-such-pack"})
        app.apply_events(events, live=False)
        screen = app.harms.open(events[-1])
        await pilot.pause()
        assert "no-such-pack" in str(screen.query_one("#harm-status", Static).render())
        assert "(none)" in _text(screen, "harm-safe")
