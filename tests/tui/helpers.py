"""Shared helpers for the TUI tests: feed events through a bus, wait for the app to fold them in."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from textual.pilot import Pilot

from channel.bus import Subscription
from channel.events import Event
from channel.memory import InProcessBus
from tui.app import ScopewatchApp
from tui.modes import ReplayMode

MAX_PAUSES = 2000


async def until(pilot: Pilot[int], condition: Callable[[], bool], what: str) -> None:
    """Let the app run until ``condition`` holds (bounded by a count of pauses, not by time)."""
    for _ in range(MAX_PAUSES):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"never happened: {what}")


async def feed(pilot: Pilot[int], bus: InProcessBus, events: Sequence[Event]) -> None:
    app = pilot.app
    assert isinstance(app, ScopewatchApp)
    target = app.applied + len(events)
    for event in events:
        await bus.publish(event)
    await until(pilot, lambda: app.applied >= target, f"{len(events)} events applied")
    await pilot.pause()


def replay(app: ScopewatchApp) -> ReplayMode:
    """The timeline of an app built on a recording (``events=``): seek, cursor, playing."""
    assert isinstance(app.mode, ReplayMode)
    return app.mode


async def drain(subscription: Subscription) -> list[object]:
    """Everything queued on a subscription right now."""
    out: list[object] = []
    while True:
        try:
            out.append(await asyncio.wait_for(subscription.get(), 0.05))
        except (TimeoutError, StopAsyncIteration):
            return out
