"""A room's votes decide reviews (engine/session/room.py): the counting rule, and a real session on
the in-process bus whose members vote (presence published as a watcher's bus would)."""

from __future__ import annotations

import asyncio
import time

import pytest

from channel.class_events import RoomChanged, VoteCast, VoteClosed, VoteRuleSet
from channel.commands import CastVote, SetVoteRule
from channel.events import CommandRefused, PresenceChanged, ReviewDecided, ReviewRequested, SessionEnded
from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.session.loop import Session
from engine.session.room import DEFAULT, count

TASK = "w1-gbp"


def test_count_majority_of_present_quorum_deadline_and_default() -> None:
    present = {"a", "b", "c"}
    assert count({"a": "approved"}, present, 1, expired=False) is None  # 1 of 3: not yet
    assert count({"a": "approved", "b": "approved"}, present, 1, expired=False) == ("approved", "majority")
    assert count({"a": "approved", "b": "approved"}, present, 3, expired=False) is None  # below quorum
    votes = {"a": "approved", "b": "rejected", "c": "approved"}
    assert count(votes, present, 3, expired=False) == ("approved", "majority")
    assert count({"a": "approved", "b": "rejected"}, {"a", "b"}, 1, expired=False) == (DEFAULT, "all voted: tie")
    assert count({"a": "approved"}, present, 1, expired=True) == ("approved", "deadline")
    assert count({"a": "approved"}, present, 2, expired=True) == (DEFAULT, "deadline without quorum")
    assert count({}, set(), 1, expired=True) == (DEFAULT, "deadline without quorum")
    # Everyone present voted, but fewer than the quorum: the ballot waits for members who join late, then its
    # deadline (docs/classroom.md rule 2, "with the quorum met"; it closed at once, rejected: newcomer4 09).
    assert count({"a": "approved"}, {"a"}, 2, expired=False) is None
    assert count({"a": "approved"}, {"a"}, 2, expired=True) == (DEFAULT, "deadline without quorum")


def _presence(session: str, name: str, role: str = "watcher", status: str = "online") -> PresenceChanged:
    return PresenceChanged(session=session, ts=time.time(), actor=name, participant=name, role=role, status=status)  # type: ignore[arg-type]


@pytest.mark.timeout(120)
async def test_members_vote_a_changed_vote_replaces_and_the_tally_decides() -> None:
    bus = InProcessBus()
    config = SessionConfig(room="class", norms=Norms(reviewer="room"), tasks=(TASK,), vote_deadline_s=600)
    session = Session(config, bus)
    sid = session.id
    events: list = []
    loop = asyncio.get_running_loop()
    sent: list[asyncio.Task[None]] = []

    def send(message: object) -> None:
        sent.append(loop.create_task(bus.publish(message)))  # type: ignore[arg-type]

    def on_event(event: object) -> None:
        events.append(event)
        if isinstance(event, RoomChanged) and not event.members and len(events) < 5:
            for name in ("alice", "bob", "carol"):
                send(_presence(sid, name))
            send(_presence(sid, "viewer-1", role="viewer"))  # anonymous: watches, is no member
        if isinstance(event, ReviewRequested) and event.to == "admin":
            rid = event.request_id
            send(CastVote(session=sid, sender="mallory", request_id=rid, choice="approved"))  # not in the room
            send(CastVote(session=sid, sender="alice", request_id="nope", choice="approved"))  # unknown review
            send(CastVote(session=sid, sender="alice", request_id=rid, choice="rejected"))
            send(CastVote(session=sid, sender="alice", request_id=rid, choice="approved"))  # replaces it
            send(CastVote(session=sid, sender="bob", request_id=rid, choice="approved"))
        if isinstance(event, VoteCast) and event.actor == "bob":
            send(SetVoteRule(session=sid, sender="teacher", quorum=2, deadline_s=600))

    session.emitter.add_listener(on_event)
    await asyncio.wait_for(session.run(), timeout=100)
    rooms = [e for e in events if isinstance(e, RoomChanged)]
    assert [m.name for m in rooms[-1].members] == ["alice", "bob", "carol"]
    casts = [(e.actor, e.choice, e.replaced) for e in events if isinstance(e, VoteCast)]
    assert ("alice", "approved", "rejected") in casts and ("bob", "approved", None) in casts
    refused = [e.reason for e in events if isinstance(e, CommandRefused) and e.command == "CastVote"]
    assert any("mallory is not in room class" in r for r in refused)
    assert any("no open vote on review 'nope'" in r for r in refused)
    closed = [e for e in events if isinstance(e, VoteClosed)]
    assert closed and closed[0].decision == "approved" and closed[0].reason == "majority"
    assert closed[0].votes == {"alice": "approved", "bob": "approved"} and closed[0].present == 3
    decided = next(e for e in events if isinstance(e, ReviewDecided))
    assert decided.actor == "room" and decided.applied and decided.request_id == closed[0].request_id
    assert decided.seq > closed[0].seq and "2 approve, 0 reject of 3 present" in decided.comment
    assert [(e.quorum, e.deadline_s) for e in events if isinstance(e, VoteRuleSet)] == [(2, 600)]
    assert isinstance(events[-1], SessionEnded)
    for task in sent:
        task.cancel()


@pytest.mark.timeout(60)
async def test_nobody_votes_the_deadline_falls_to_the_default() -> None:
    bus = InProcessBus()
    config = SessionConfig(room="class", norms=Norms(reviewer="room"), tasks=(TASK,), vote_deadline_s=0.2)
    session = Session(config, bus)
    events: list = []
    session.emitter.add_listener(events.append)
    await asyncio.wait_for(session.run(), timeout=50)
    closed = [e for e in events if isinstance(e, VoteClosed)]
    assert closed and all(c.decision == DEFAULT and c.reason == "deadline without quorum" for c in closed)
    assert [e.decision for e in events if isinstance(e, ReviewDecided)][: len(closed)] == [DEFAULT] * len(closed)


async def test_a_member_in_two_windows_stays_while_either_is_connected() -> None:
    """newcomer5 #2: one name, two connections (each its own presence topic); closing one keeps the member."""
    from engine.session.room import Room

    emitted: list[object] = []

    async def emit(event: object) -> object:
        emitted.append(event)
        return event

    room = Room("class", emit, lambda: Norms(reviewer="room"), seats={})  # type: ignore[arg-type]
    first, second = (_presence("s", "alice").model_copy(update={"connection": c}) for c in ("c1", "c2"))
    await room.saw(first)
    await room.saw(second)
    await room.saw(second.model_copy(update={"status": "left"}))
    assert room.members == {"alice": "watcher"}
    await room.saw(first.model_copy(update={"status": "left"}))
    assert room.members == {}
    rooms = [e for e in emitted if isinstance(e, RoomChanged)]
    assert [[m.name for m in e.members] for e in rooms] == [["alice"], []]
