"""A crowd for a served room (tests and bench/room_load.py): headless watchers, some joining late over
a TCP proxy that drops their connections every few seconds, and voting members; and the check of what
they all ended with against the engine's recording.

Run as a program it is the crowd of one served session, in a process of its own (so the bench's
engine does not share its event loop)::

    python -m tests.e2e.room_crowd URL SESSION KEYHEX MASTERHEX --early 20 --late 10 --voters 5 --out FILE
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from channel.bus import Dropped
from channel.class_events import VoteCast, VoteClosed
from channel.codec import encode
from channel.commands import CastVote
from channel.connect import connect_bus
from channel.credentials import Credentials
from channel.events import CommandRefused, Event, PresenceChanged, ReviewDecided, ReviewRequested
from channel.vocab import Decision
from channel.vocab.topics import PRESENCE
from engine.session.room import DEFAULT
from tests.channel.proxy import Proxy
from tui.remote import follow_headless


def choice_of(name: str, request_id: str) -> Decision:
    """A voter's deterministic vote on a review."""
    return "approved" if hashlib.sha256(f"{name}/{request_id}".encode()).digest()[0] % 2 else "rejected"


@dataclass
class Voter:
    """A member who votes on every admin review; ``flip``: first the other way, then changes it."""

    name: str
    flip: bool = False
    sent: list[tuple[str, Decision]] = field(default_factory=list)

    async def run(self, url: str, session: str, key: bytes, creds: Credentials) -> list[Event]:
        bus = connect_bus(
            url, session, participant=self.name, role="watcher", key=key, credential=creds.issue("watcher", self.name)
        )
        seen: list[Event] = []

        async def deliver(event: Event) -> None:
            seen.append(event)
            if isinstance(event, ReviewRequested) and event.to == "admin":
                choice = choice_of(self.name, event.request_id)
                first: list[Decision] = ["rejected" if choice == "approved" else "approved"] if self.flip else []
                for vote in [*first, choice]:
                    self.sent.append((event.request_id, vote))
                    await bus.publish(
                        CastVote(session=session, sender=self.name, request_id=event.request_id, choice=vote)
                    )

        await follow_headless(bus, deliver)
        return seen


async def watch(url: str, session: str, key: bytes) -> tuple[list[Event], dict[str, int]]:
    """An anonymous headless watcher (no presence: it watches, it is not a member): what it saw, and
    how its stream was mended (gaps fetched from the history, events that could not be, reconnects)."""
    got: list[Event] = []

    async def deliver(event: Event) -> None:
        got.append(event)

    bus = connect_bus(url, session, key=key)
    follower = await follow_headless(bus, deliver)
    mended = {"repairs": follower.repairs, "repaired": follower.repaired, "unrepaired": follower.unrepaired}
    return got, mended | {"reconnects": bus.reconnects}


async def engine_online(url: str, session: str) -> None:
    bus = connect_bus(url, session)
    presence = await bus.subscribe(PRESENCE)
    try:
        async for item in presence:
            if isinstance(item, PresenceChanged) and item.participant == "engine" and item.status == "online":
                return
    finally:
        await bus.close()


async def crowd(
    url: str,
    session: str,
    key: bytes,
    creds: Credentials,
    *,
    early: int,
    late: int,
    voters: int,
    late_after: int,
    drop_every: float = 2.0,
) -> dict[str, object]:
    """Run the crowd of one session until it ended; what each watcher saw and what each voter sent
    (``voters`` and watchers may be crowds of their own, in processes of their own)."""
    port = int(url.rsplit(":", 1)[1])
    members = [Voter(f"voter{i}", flip=i == 0) for i in range(voters)]
    await engine_online(url, session)
    async with Proxy(port, drop_every=drop_every) as proxy:
        tasks = [asyncio.create_task(v.run(url, session, key, creds)) for v in members]
        watchers = [asyncio.create_task(watch(url, session, key)) for _ in range(early)]
        if late:
            probe = connect_bus(url, session)
            sub = await probe.subscribe("events/#")
            async for item in sub:  # the late ones join once the session is under way
                if not isinstance(item, Dropped) and getattr(item, "seq", 0) >= late_after:
                    break
            await probe.close()
            watchers += [asyncio.create_task(watch(proxy.url, session, key)) for _ in range(late)]
        seen = await asyncio.gather(*watchers)
        await asyncio.gather(*tasks)
        drops = proxy.drops
    return {
        "watchers": [[encode(e).decode() for e in events] for events, _ in seen],
        "mended": [mended for _, mended in seen],
        "sent": {v.name: v.sent for v in members},
        "drops": drops,
    }


def first_wrong(got: Sequence[str], lines: Sequence[str]) -> str:
    """Where a watcher's stream first differs from the recording's (which seq is missing, or extra)."""
    seqs = [json.loads(line).get("seq", 0) for line in got]
    for at, line in enumerate(lines):
        if at >= len(got):
            return f"ends after seq {seqs[-1] if seqs else 0}, first missing seq {json.loads(line)['seq']}"
        if got[at] != line:
            want = json.loads(line)["seq"]
            return f"at #{at} seq {seqs[at]} where seq {want} was recorded (first missing seq {want})"
    return f"{len(got) - len(lines)} events more than recorded, the first seq {seqs[len(lines)]}"


def check(
    recording: Sequence[Event], watchers: Sequence[Sequence[str]], sent: dict[str, list[tuple[str, str]]]
) -> dict[str, int]:
    """Every watcher has every event exactly once, in order; every vote sent is recorded once (a
    ``VoteCast`` or a ``CommandRefused``); each closed vote's tally is the votes cast before it and its
    decision their majority (a tie: the default). Raises AssertionError naming what is wrong."""
    lines = [encode(e).decode() for e in recording]
    for i, got in enumerate(watchers):
        where = "" if got == lines else first_wrong(got, lines)
        assert not where, f"watcher {i}: {len(got)} events, not the {len(lines)} recorded, in order, once: {where}"
    casts = [e for e in recording if isinstance(e, VoteCast)]
    refused = [e for e in recording if isinstance(e, CommandRefused) and e.command == "CastVote"]
    for name, votes in sent.items():
        mine = [(c.request_id, c.choice) for c in casts if c.actor == name]
        no = sum(r.actor == name for r in refused)
        assert len(mine) + no == len(votes), f"{name}: sent {len(votes)} votes, {len(mine)} cast + {no} refused"
        assert Counter(mine) <= Counter(tuple(v) for v in votes), (
            f"{name}: a vote recorded that was not sent (or twice)"
        )
    closed = [e for e in recording if isinstance(e, VoteClosed)]
    for vote in closed:
        ballot: dict[str, str] = {}
        for c in casts:
            if c.request_id == vote.request_id and c.seq < vote.seq:
                ballot[c.actor] = c.choice
        assert ballot == vote.votes, f"{vote.request_id}: tally {vote.votes} is not the votes cast {ballot}"
        yes, no = Counter(ballot.values())["approved"], Counter(ballot.values())["rejected"]
        majority = "approved" if yes > no else "rejected" if no > yes else DEFAULT
        if "quorum" not in vote.reason:
            assert vote.decision == majority, f"{vote.request_id}: decided {vote.decision}, majority {majority}"
        decided = next(e for e in recording if isinstance(e, ReviewDecided) and e.request_id == vote.request_id)
        assert decided.decision == vote.decision and decided.actor == "room"
    return {"events": len(lines), "votes": len(casts), "refused_votes": len(refused), "decisions": len(closed)}


def main() -> None:
    p = argparse.ArgumentParser(description="the crowd of one served room (bench/room_load.py)")
    p.add_argument("url")
    p.add_argument("session")
    p.add_argument("key")
    p.add_argument("master")
    p.add_argument("--early", type=int, default=20)
    p.add_argument("--late", type=int, default=10)
    p.add_argument("--voters", type=int, default=5)
    p.add_argument("--late-after", type=int, default=20)
    p.add_argument("--drop-every", type=float, default=3.0, help="seconds between the proxy's cuts")
    p.add_argument("--out", required=True)
    a = p.parse_args()
    creds = Credentials(bytes.fromhex(a.master))
    result = asyncio.run(
        crowd(
            a.url,
            a.session,
            bytes.fromhex(a.key),
            creds,
            early=a.early,
            late=a.late,
            voters=a.voters,
            late_after=a.late_after,
            drop_every=a.drop_every,
        )
    )
    with open(a.out, "w") as out:
        json.dump(result, out)


if __name__ == "__main__":
    main()
