"""A fork of a room's recording (newcomer5 #1, #5): a fork has no room, so what the room decided before
the fork point is repeated (as a human reviewer's decisions are), and a fork whose reviewer from the
fork point on would be the room is refused in one line: it waited on a ballot nobody could vote on."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from channel.class_events import RoomChanged
from channel.commands import CastVote
from channel.events import PresenceChanged, ReviewDecided, ReviewRequested
from channel.memory import InProcessBus
from channel.recorder import Recorder, load_recording
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.fork.errors import ForkError
from engine.fork.plan import plan_fork
from engine.runs.runner import run_session
from engine.session.loop import Session

ROOM = SessionConfig(room="class", norms=Norms(reviewer="room"), tasks=("w1-gbp", "t1-dates"), vote_deadline_s=600)
"""Two episodes; each admin review is decided by two members' votes."""


@pytest.fixture(scope="module")
def room_parent(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A room's recording: alice and bob present, both approve every admin review."""
    path = tmp_path_factory.mktemp("room") / "room.jsonl"

    async def record() -> None:
        bus = InProcessBus()
        recorder = Recorder(str(path))
        session = Session(ROOM, bus, recorder=recorder)
        loop, sent = asyncio.get_running_loop(), []

        def send(message: object) -> None:
            sent.append(loop.create_task(bus.publish(message)))  # type: ignore[arg-type]

        def on_event(event: object) -> None:
            if isinstance(event, RoomChanged) and not event.members:
                for name in ("alice", "bob"):
                    send(PresenceChanged(session=session.id, ts=time.time(), actor=name, participant=name,
                                         role="watcher", status="online"))  # fmt: skip
            if isinstance(event, ReviewRequested) and event.to == "admin":
                for name in ("alice", "bob"):
                    send(CastVote(session=session.id, sender=name, request_id=event.request_id, choice="approved"))

        session.emitter.add_listener(on_event)
        try:
            await asyncio.wait_for(session.run(), timeout=100)
        finally:
            recorder.close()
            await bus.close()

    asyncio.run(record())
    return path


def _room_decisions(path: Path) -> list[tuple[str, str, str]]:
    return [
        (e.request_id, e.decision, e.comment)
        for e in load_recording(path)
        if isinstance(e, ReviewDecided) and e.actor == "room"
    ]


@pytest.mark.timeout(200)
async def test_a_fork_repeats_the_rooms_decisions_and_takes_another_reviewer_from_the_fork_point(
    room_parent: Path, tmp_path: Path
) -> None:
    events = load_recording(room_parent)
    decided = _room_decisions(room_parent)
    assert decided and all(d == "approved" for _, d, _ in decided)
    last = max(e.seq for e in events if isinstance(e, ReviewDecided) and e.actor == "room")
    at = next(e.seq for e in events if e.seq > last and e.kind == "TurnStarted")
    plan = plan_fork(room_parent, at, norms={"reviewer": "available"})
    assert plan.config.room is None and plan.norms == {"reviewer": "available"}
    out = tmp_path / "fork.jsonl"
    await asyncio.wait_for(run_session(plan.config, record=str(out), fork=plan), 150)
    assert _room_decisions(out) == decided  # the room's, word for word, before the fork point
    assert not [e for e in load_recording(out) if e.kind in ("RoomChanged", "VoteCast", "VoteClosed")]


def test_a_fork_left_to_the_room_is_refused_in_one_line(room_parent: Path, tmp_path: Path) -> None:
    with pytest.raises(ForkError, match=r"--at 5: the parent's reviewer there is its room \(reviewer=room\)") as info:
        plan_fork(room_parent, 5, norms={"admin_only": "true"})
    assert "\n" not in str(info.value) and "--norm reviewer=available" in str(info.value)
    plain = tmp_path / "plain.jsonl"
    asyncio.run(run_session(SessionConfig(tasks=("w1-gbp",)), record=str(plain)))
    with pytest.raises(ForkError, match=r"--norm reviewer=room: .* a fork has no room"):
        plan_fork(plain, 5, norms={"reviewer": "room"})
