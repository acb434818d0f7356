"""A served room under a crowd, on a real mosquitto (the smaller version of bench/room_load.py):
headless watchers, some joining late over a proxy that cuts their connections every two seconds,
and five voting members. Every watcher ends with every event exactly once, in order; every vote
is recorded once; every decision is the votes' majority."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from channel.class_events import RoomChanged, VoteClosed
from channel.credentials import Credentials
from channel.recorder import read_recording
from channel.signing import new_key
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.runs.runner import serve_session
from tests.channel.broker import Broker
from tests.e2e.room_crowd import check, crowd
from tests.e2e.support import new_session


@pytest.mark.timeout(300)
async def test_a_crowd_of_watchers_and_voters_sees_every_event_once_and_the_votes_decide(
    mqtt_broker: Broker, tmp_path: Path
) -> None:
    session, key, creds = new_session(), new_key(), Credentials()
    record = tmp_path / "room.jsonl"
    config = SessionConfig(room="class", norms=Norms(reviewer="room"), vote_deadline_s=120, seed=1)
    people = asyncio.create_task(
        crowd(mqtt_broker.url, session, key.public, creds, early=6, late=4, voters=5, late_after=10, drop_every=2.0)
    )
    await asyncio.wait_for(
        serve_session(config, mqtt_broker.url, record=str(record), session_id=session, key=key, credentials=creds),
        240,
    )
    result = await asyncio.wait_for(people, 120)
    recording = list(read_recording(record))
    counts = check(recording, result["watchers"], result["sent"])  # type: ignore[arg-type]
    assert counts["decisions"] >= 1 and counts["votes"] >= 5 * counts["decisions"] // 2
    assert all(c.reason != "deadline without quorum" for c in recording if isinstance(c, VoteClosed))
    rooms = [e for e in recording if isinstance(e, RoomChanged)]
    assert max(len(r.members) for r in rooms) == 5  # the voters are members; anonymous watchers are not
    assert len(result["watchers"]) == 10  # type: ignore[arg-type]
