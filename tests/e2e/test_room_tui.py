"""Two watchers' TUIs in one room, on a real mosquitto (Pilot): alice and bob see each other present,
vote on the same review with the approve key, both see the live tally, their own vote, and the
decision; alice's pause key (a watcher's token) is refused with an event, never acted on."""

from __future__ import annotations

import asyncio

import pytest

from channel.class_events import VoteCast, VoteClosed
from channel.connect import parse_bus_url
from channel.credentials import Credentials
from channel.events import CommandRefused, SessionPaused
from channel.signing import new_key
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.runs.runner import serve_session
from tests.channel.broker import Broker
from tests.e2e.support import new_session, until
from tui.app import ScopewatchApp
from tui.remote import attach_app


def _text(app: ScopewatchApp) -> str:
    status, preview = app.reviews.status.content, app.reviews.preview.content
    return f"{getattr(status, 'plain', status)}\n{getattr(preview, 'plain', preview)}"


@pytest.mark.timeout(240)
async def test_two_watchers_vote_on_one_review_and_both_see_the_tally_and_the_decision(mqtt_broker: Broker) -> None:
    session, key, creds = new_session(), new_key(), Credentials()
    config = SessionConfig(room="class", norms=Norms(reviewer="room"), tasks=("w1-gbp",), vote_deadline_s=600)
    engine = asyncio.create_task(serve_session(config, mqtt_broker.url, session_id=session, key=key, credentials=creds))
    address = parse_bus_url(mqtt_broker.url)
    apps = {
        name: attach_app(
            address,
            session,
            participant=name,
            credential=creds.issue("watcher", name),
            key=key.public,  # a viewer holds the public key only
            flash_seconds=0,
            notify_live=False,
        )
        for name in ("alice", "bob")
    }
    alice, bob = apps["alice"], apps["bob"]
    seen: list[object] = []
    async with alice.run_test(size=(200, 50)) as pa, bob.run_test(size=(200, 50)) as pb:
        assert alice.bus is not None
        events = await alice.bus.subscribe("events/#")

        async def collect() -> None:
            async for item in events:
                seen.append(item)

        alice.run_worker(collect(), name="test-collector")

        async def both(pause: float = 0.02) -> None:
            await pa.pause(pause)
            await pb.pause(pause)

        for app in (alice, bob):
            await until(
                lambda app=app: any(r.to == "admin" for r in app.reviews.pending.values()), "a review", pause=both
            )
            await until(lambda app=app: "2 present: alice, bob" in _text(app), "both present", pause=both)
        rid = next(iter(alice.reviews.pending))
        assert "you: alice" in _text(alice) and "you: bob" in _text(bob)
        assert "votes: 0 approve · 0 reject · of 2 present" in _text(bob)

        await pa.press("p")  # a watcher's token may only vote: refused, never acted on
        await pa.press("a")
        await until(lambda: "your vote: approved" in _text(alice), "alice sees her vote", pause=both)
        await until(
            lambda: "votes: 1 approve · 0 reject · of 2 present" in _text(bob), "bob sees the tally", pause=both
        )
        assert "your vote: none yet" in _text(bob)
        await pb.press("a")
        closed = f"vote on {rid} closed: approved (2 approve · 0 reject of 2 present, majority)"
        for app, name in ((alice, "alice"), (bob, "bob")):
            await until(lambda app=app: closed in _text(app), f"{name} sees the decision", pause=both)
            assert "you voted approved" in _text(app) and rid not in app.reviews.pending
        await until(
            lambda: any(isinstance(e, CommandRefused) and e.command == "Pause" for e in seen), "refusal", pause=both
        )
    engine.cancel()
    await asyncio.gather(engine, return_exceptions=True)
    refused = next(e for e in seen if isinstance(e, CommandRefused) and e.command == "Pause")
    assert refused.actor == "alice" and "role watcher may not send Pause" in refused.reason
    assert not any(isinstance(e, SessionPaused) for e in seen)
    assert [(e.actor, e.choice) for e in seen if isinstance(e, VoteCast)] == [
        ("alice", "approved"),
        ("bob", "approved"),
    ]
    assert next(e.votes for e in seen if isinstance(e, VoteClosed)) == {"alice": "approved", "bob": "approved"}
