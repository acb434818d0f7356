"""A round's tool calls where every seat is scripted (engine/session/order.py): in seat order, one at
a time, so a session's course does not depend on how long a call takes (a fork re-runs its parent and
checks every event: the CI once saw an owner's ``git status`` list the requester's file in one run and
not in the other)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from channel.recorder import load_recording
from channel.vocab.config import SessionConfig
from engine.fork.course import comparable, course, positions
from engine.runs.runner import run_session
from engine.session.order import TurnOrder
from engine.session.toolbox import SessionToolbox


def test_seats_take_turns_one_call_each_and_a_seat_that_left_is_skipped() -> None:
    async def go() -> list[str]:
        order, done = TurnOrder(["owner", "requester", "admin"]), []

        async def seat(name: str, calls: int, pause: float) -> None:
            for i in range(calls):
                async with order.call(name):
                    await asyncio.sleep(pause)  # a slow call: the others still wait for it
                    done.append(f"{name}{i}")
            await order.leave(name)

        await asyncio.gather(seat("admin", 2, 0), seat("requester", 1, 0), seat("owner", 3, 0.01))
        return done

    assert asyncio.run(go()) == ["owner0", "requester0", "admin0", "owner1", "admin1", "owner2"]


SEED_13 = SessionConfig(seed=13, tasks=("t1-dates", "t2-retries"))
"""In round 3 of episode 2 the requester writes a file while the owner runs ``git status --short``."""


def _course(path: Any) -> list[dict[str, Any]]:
    events = load_recording(path)
    at = positions(events)
    return [comparable(e, at.get) for e in course(events)]


@pytest.mark.timeout(600)
def test_a_slow_write_changes_nothing_in_a_scripted_session(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    asyncio.run(run_session(SEED_13, record=str(tmp_path / "quick.jsonl")))
    write = SessionToolbox._write_file

    async def slow(self: SessionToolbox, path: str, content: str) -> str:
        await asyncio.sleep(0.5)  # the write takes longer: the owner's command must not overtake it
        return await write(self, path, content)

    monkeypatch.setattr(SessionToolbox, "_write_file", slow)
    asyncio.run(run_session(SEED_13, record=str(tmp_path / "slow.jsonl")))
    assert _course(tmp_path / "slow.jsonl") == _course(tmp_path / "quick.jsonl")
