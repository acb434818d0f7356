"""Snapshots (pytest-textual-snapshot) of the main screen, the review queue and replay, each in two
themes. Fixed events and timestamps, no flashing, no toasts: the pictures are deterministic.
Update after a deliberate change with ``pytest tests/tui --snapshot-update`` and look at them."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from channel.events import NormChanged
from channel.vocab.norms import Norms
from tests.tui.helpers import replay
from tests.tui.scripted import SESSION, T0, index_after, session_events
from tui.app import ScopewatchApp, build_app

THEMES = ["scopewatch-dark", "scopewatch-light"]


def _live_app(theme: str) -> ScopewatchApp:
    return build_app(None, SESSION, theme=theme, flash_seconds=0, notify_live=False)


@pytest.mark.parametrize("theme", THEMES)
def test_main_screen(snap_compare: Any, theme: str) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, ScopewatchApp)
        app.apply_events(session_events(), live=False)
        await pilot.pause()

    assert snap_compare(_live_app(theme), terminal_size=(160, 48), run_before=run_before)


@pytest.mark.parametrize("theme", THEMES)
def test_review_queue_waiting_on_the_human(snap_compare: Any, theme: str) -> None:
    events = session_events()
    norms = Norms(reviewer="human").model_dump()
    events.append(
        NormChanged(
            session=SESSION,
            seq=len(events) + 1,
            ts=T0 + 100,
            key="reviewer",
            old="trajectory",
            new="human",
            norms=norms,
        )
    )

    async def run_before(pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, ScopewatchApp)
        app.apply_events(events, live=False)
        app.reviews.options.focus()
        await pilot.pause()

    assert snap_compare(_live_app(theme), terminal_size=(120, 36), run_before=run_before)


@pytest.mark.parametrize("theme", THEMES)
def test_replay_at_the_harm(snap_compare: Any, theme: str) -> None:
    events = session_events()
    app = build_app(None, SESSION, events=events, theme=theme, flash_seconds=0)

    async def run_before(pilot: Pilot[int]) -> None:
        replay(app).seek(index_after(events, "HarmDetected", stage="final"))
        await pilot.pause()

    assert snap_compare(app, terminal_size=(160, 48), run_before=run_before)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("page", ["agents", "reviews", "score"])
def test_small_terminal_pages(snap_compare: Any, theme: str, page: str) -> None:
    """80x24: the compact layout, one page of panels at a time (the page bar shows the others' badges)."""

    async def run_before(pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, ScopewatchApp)
        app.apply_events(session_events(), live=False)
        app.action_show_page(page)
        await pilot.pause()

    assert snap_compare(_live_app(theme), terminal_size=(80, 24), run_before=run_before)
