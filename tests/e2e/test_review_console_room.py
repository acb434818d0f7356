"""The ``review`` console beside a room, on a real mosquitto (classroom6 #3): the console cannot vote,
so it is no member. With the instructor's console open, one student's approve is a strict majority of
the one member present, and the ballot closes at once (not at its deadline)."""

from __future__ import annotations

import asyncio

import pytest

from channel.class_events import RoomChanged, VoteClosed
from channel.commands import CastVote
from channel.connect import parse_bus_url
from channel.credentials import Credentials
from channel.events import ReviewRequested
from channel.mqtt import MqttBus
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.runs.runner import serve_session
from tests.channel.broker import Broker
from tests.e2e.support import ROOT, cli, new_session, until


@pytest.mark.timeout(240)
async def test_the_review_console_is_not_a_room_member_and_one_students_vote_is_a_majority(
    mqtt_broker: Broker,
) -> None:
    session, creds = new_session(), Credentials()
    config = SessionConfig(room="class", norms=Norms(reviewer="room"), tasks=("w1-gbp",), vote_deadline_s=600)
    engine = asyncio.create_task(serve_session(config, mqtt_broker.url, session_id=session, credentials=creds))
    address = parse_bus_url(mqtt_broker.url)
    viewer = MqttBus(address, session)
    events = await viewer.subscribe("events/#")
    seen: list[object] = []

    async def collect() -> None:
        async for item in events:
            seen.append(item)

    collector = asyncio.create_task(collect())
    console = await asyncio.create_subprocess_exec(
        *cli("review", "--bus", mqtt_broker.url, "--session", session, "--token", creds.issue("instructor").token),
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    alice = MqttBus(address, session, participant="alice", role="watcher", credential=creds.issue("watcher", "alice"))
    try:
        assert console.stdout is not None and console.stdin is not None
        async with asyncio.timeout(90):  # the console is online (its presence announced) once it says this
            while b"pending" not in (line := await console.stdout.readline()):
                assert line, "the review console ended early"
        await alice.subscribe("events/#")  # alice joins the room
        await until(lambda: any(isinstance(e, RoomChanged) and e.members for e in seen), "alice present")
        await until(lambda: any(isinstance(e, ReviewRequested) and e.to == "admin" for e in seen), "a review")
        rid = next(e.request_id for e in seen if isinstance(e, ReviewRequested) and e.to == "admin")
        await alice.publish(CastVote(session=session, request_id=rid, choice="approved", sender="alice"))
        await until(lambda: any(isinstance(e, VoteClosed) for e in seen), "the ballot closed (not at its deadline)")
    finally:
        if console.returncode is None:
            console.kill()
            await console.wait()
        engine.cancel()
        collector.cancel()
        await asyncio.gather(engine, collector, return_exceptions=True)
        await alice.close()
        await viewer.close()
    closed = next(e for e in seen if isinstance(e, VoteClosed))
    assert (closed.decision, closed.present, closed.reason) == ("approved", 1, "majority")
    rooms = [[m.name for m in e.members] for e in seen if isinstance(e, RoomChanged)]
    assert ["alice"] in rooms and not any(n.startswith("reviewer-") for names in rooms for n in names), rooms
