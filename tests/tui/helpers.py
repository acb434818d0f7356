"""Shared helpers for the TUI tests: feed events through a bus, wait for the app to fold them in."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from textual.pilot import Pilot

from channel.bus import Subscription
from channel.commands import Step
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


SENTINEL = "tests.tui.helpers.drain"


async def drain(bus: InProcessBus, subscription: Subscription) -> list[object]:
    """Everything published on ``subscription`` before this call: a sentinel command (of another
    session, so the app ignores it) is published now, and what arrives before it is the answer
    (the bus delivers in order). Call it after ``pilot.pause()``, once the app has sent."""
    await bus.publish(Step(session="drain-sentinel", sender=SENTINEL))
    out: list[object] = []
    while True:
        item = await asyncio.wait_for(subscription.get(), 10)  # a bound on a hang, not a judge of empty
        if isinstance(item, Step) and item.sender == SENTINEL:
            return out
        out.append(item)
