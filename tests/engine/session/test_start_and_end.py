"""A session's stream starts with SessionStarted whatever happens around it (engine/session/loop.py):
a command sent before it is answered after it, and a session stopped before it says no end either."""

from __future__ import annotations

import asyncio

import pytest

from channel.commands import Pause, Stop
from channel.events import Event
from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from channel.vocab.topics import EVENTS
from engine.runs.sessions import open_session


async def _collect(bus: InProcessBus, seen: list[Event]) -> None:
    async for item in await bus.subscribe(EVENTS):
        seen.append(item)  # type: ignore[arg-type]


async def test_a_command_that_comes_before_the_start_is_answered_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    bus = InProcessBus()
    session = open_session(SessionConfig(tasks=("w1-gbp",)), bus)
    seen: list[Event] = []
    collector = asyncio.create_task(_collect(bus, seen))
    await asyncio.sleep(0)
    started = session.kind.started
    gate = asyncio.Event()

    async def slow_start(agents: list[object]) -> Event:
        await gate.wait()  # the Pause below arrives while the session is still starting
        return await started(agents)  # type: ignore[arg-type]

    monkeypatch.setattr(session.kind, "started", slow_start)
    run = asyncio.create_task(session.run())
    await asyncio.sleep(0.05)
    await bus.publish(Pause(session=session.id))
    await bus.publish(Stop(session=session.id))
    gate.set()
    await asyncio.wait_for(run, 60)
    await asyncio.sleep(0.05)
    collector.cancel()
    kinds = [e.kind for e in seen]
    assert kinds[0] == "SessionStarted" and "SessionPaused" in kinds and kinds[-1] == "SessionEnded"


async def test_a_session_cancelled_before_it_started_says_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    bus = InProcessBus()
    session = open_session(SessionConfig(tasks=("w1-gbp",)), bus)
    seen: list[Event] = []
    collector = asyncio.create_task(_collect(bus, seen))
    await asyncio.sleep(0)

    async def never(agents: list[object]) -> Event:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    monkeypatch.setattr(session.kind, "started", never)
    run = asyncio.create_task(session.run())
    await asyncio.sleep(0.05)
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    await asyncio.sleep(0.05)
    collector.cancel()
    assert seen == []  # no SessionEnded without a SessionStarted: a recording of it would be unreadable
