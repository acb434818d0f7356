"""A room (``serve --room NAME``): who is in it, and, with norm ``reviewer=room``, reviews its votes decide.

Members are the participants announced on the session's presence topics (``watch --as NAME``, each
bus's retained presence with its Last Will) whose role is a token's (instructor, reviewer, watcher;
channel.credentials): anonymous viewers watch but are not members, and neither is the ``review``
console (role ``console``: it cannot vote, so it must not raise the majority a ballot needs). Each
connection has its own presence (``presence/NAME/CONNECTION``): a member who joined from two windows
is present while either is. Whenever the members or the seats' holders change, the engine emits
``RoomChanged``, so everyone (late joiners too, from the history) sees who is there.

Voting (docs/classroom.md): every pending admin review is a ballot. A ``CastVote`` is recorded as a
``VoteCast`` at once (one vote per member per review: a later one replaces it); a vote from someone
not present in the room, for a review with no open ballot, or while the reviewer is not the room is
refused with ``CommandRefused``. At the next round boundary (the session waits there, as for a
human reviewer) a ballot closes, with a ``VoteClosed`` recording the tally and then the
``ReviewDecided`` applying it, as soon as

1. a choice holds a strict majority of the members present and the votes reach the quorum: that choice;
2. every member present has voted: the votes' majority (with the quorum met);
3. the deadline passed: the votes' majority when the quorum is met.

Ties, and a deadline without quorum, fall to the default, :data:`DEFAULT` (rejected): an unreviewed
change does not land, as when the reviewer is away (seed 000: the reviewer is the sanctioned path).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from channel.bus import Dropped, Subscription
from channel.class_events import Member, RoomChanged, VoteCast, VoteClosed, VoteRuleSet
from channel.commands import CastVote, SetVoteRule
from channel.emitter import Emit
from channel.errors import ScopewatchError
from channel.events import (
    CommandRefused,
    EpisodeEnded,
    Event,
    NormChanged,
    PresenceChanged,
    ReviewDecided,
    ReviewRequested,
)
from channel.vocab import Decision
from channel.vocab.norms import Norms
from engine.session.episode import EpisodeRuntime
from engine.session.reviewer import decide

DEFAULT: Decision = "rejected"
"""What a tie, or a deadline without quorum, decides."""
MEMBER_ROLES = frozenset({"instructor", "reviewer", "watcher"})
"""The presence roles of members (a token's roles); others (``viewer``, ``console``, ``engine``) only watch."""


class RoomRefusal(ScopewatchError):
    """A vote or rule the room does not take (the engine answers with ``CommandRefused``)."""


@dataclass
class Ballot:
    opened: float
    episode: int
    votes: dict[str, Decision] = field(default_factory=dict)


def count(votes: dict[str, Decision], present: set[str], quorum: int, *, expired: bool) -> tuple[Decision, str] | None:
    """The decision and its reason when the ballot closes now, else None (the rule above)."""
    tally: dict[Decision, int] = {"approved": 0, "rejected": 0}
    for vote in votes.values():
        tally[vote] += 1
    cast = len(votes)
    for choice, n in tally.items():
        if cast >= quorum and n > len(present) / 2:
            return choice, "majority"
    everyone = bool(present) and present <= set(votes)
    if not (everyone or expired):
        return None
    if cast < quorum:  # everyone present voted, but too few: the ballot waits for late members or its deadline
        return (DEFAULT, "deadline without quorum") if expired else None
    why = "all voted" if everyone else "deadline"
    if tally["approved"] == tally["rejected"]:
        return DEFAULT, f"{why}: tie"
    return ("approved" if tally["approved"] > tally["rejected"] else "rejected"), why


class Room:
    """The engine's side of a room: members from presence, seats, ballots, the rule."""

    def __init__(
        self,
        name: str,
        emit: Emit,
        norms: Callable[[], Norms],
        *,
        seats: dict[str, str],
        quorum: int = 1,
        deadline_s: float = 60.0,
        wake: Callable[[], None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self.emit = emit
        self.norms = norms
        self.seats = dict(seats)
        self.quorum = quorum
        self.deadline_s = deadline_s
        self.wake = wake
        self.clock = clock
        self.members: dict[str, str] = {}
        """Member name -> role, of those present now."""
        self.connections: dict[str, set[str]] = {}
        """Member name -> their connections online (two windows under one name: present while either is)."""
        self.ballots: dict[str, Ballot] = {}

    # --- presence -----------------------------------------------------------------------------

    def state(self) -> RoomChanged:
        members = tuple(Member(name=n, role=r) for n, r in sorted(self.members.items()))
        return RoomChanged(
            actor="engine", room=self.name, members=members, seats=dict(self.seats),
            quorum=self.quorum, deadline_s=self.deadline_s,
        )  # fmt: skip

    async def listen(self, presence: Subscription) -> None:
        """Follow the session's presence until cancelled (the retained ones arrive first)."""
        async for item in presence:
            if isinstance(item, PresenceChanged) and not isinstance(item, Dropped):
                await self.saw(item)

    async def saw(self, presence: PresenceChanged) -> None:
        name, role = presence.participant, presence.role
        if role not in MEMBER_ROLES:
            return
        before = dict(self.members)
        online = self.connections.setdefault(name, set())
        if presence.status == "online":
            online.add(presence.connection)
            self.members[name] = role
        else:
            online.discard(presence.connection)
            if not online:
                self.members.pop(name, None)
        if self.members != before:
            await self.emit(self.state())
            self.wake()  # fewer or more present: a ballot may close now

    async def seat_played(self, seat: str, by: str) -> None:
        """A member called a seat's tools: they hold it now."""
        holder = f"human: {by}"
        if self.seats.get(seat) != holder:
            self.seats[seat] = holder
            await self.emit(self.state())

    # --- ballots --------------------------------------------------------------------------------

    def observe(self, event: Event) -> None:
        """The emitter's listener: ballots open with admin requests and end with their decision."""
        if isinstance(event, ReviewRequested) and event.to == "admin":
            self.ballots[event.request_id] = Ballot(self.clock(), event.episode)
        elif isinstance(event, ReviewDecided):
            self.ballots.pop(event.request_id, None)
        elif isinstance(event, NormChanged) and event.key == "reviewer" and event.new == "room":
            now = self.clock()  # ballots opened before the room became the reviewer: their clock starts now
            for ballot in self.ballots.values():
                ballot.opened = max(ballot.opened, now)
        elif isinstance(event, EpisodeEnded):
            for rid in [r for r, b in self.ballots.items() if b.episode == event.episode]:
                del self.ballots[rid]

    async def command(self, cmd: CastVote | SetVoteRule) -> None:
        """A vote (recorded, or refused with the reason) or the instructor's rule."""
        if isinstance(cmd, SetVoteRule):
            self.quorum, self.deadline_s = cmd.quorum, cmd.deadline_s
            await self.emit(VoteRuleSet(actor=cmd.sender, quorum=cmd.quorum, deadline_s=cmd.deadline_s))
            self.wake()
            return
        try:
            ballot = self._ballot_for(cmd)
        except RoomRefusal as exc:
            await self.emit(CommandRefused(actor=cmd.sender, command=cmd.kind, reason=str(exc)))
            return
        old = ballot.votes.get(cmd.sender)
        ballot.votes[cmd.sender] = cmd.choice
        await self.emit(VoteCast(actor=cmd.sender, request_id=cmd.request_id, choice=cmd.choice, replaced=old))
        self.wake()

    def _ballot_for(self, cmd: CastVote) -> Ballot:
        """The open ballot a vote counts in, or the reason it is refused."""
        reviewer = self.norms().reviewer
        ballot = self.ballots.get(cmd.request_id)
        if reviewer != "room":
            raise RoomRefusal(f"the reviewer is {reviewer}, not the room: no vote is open (norm reviewer=room)")
        if ballot is None:
            raise RoomRefusal(f"no open vote on review {cmd.request_id!r} (unknown, or decided)")
        if cmd.sender not in self.members:
            raise RoomRefusal(f"{cmd.sender} is not in room {self.name} (join with 'watch --as NAME --token ...')")
        if ballot.votes.get(cmd.sender) == cmd.choice:
            raise RoomRefusal(f"{cmd.sender} already voted {cmd.choice} on {cmd.request_id}")
        return ballot

    def wait_s(self) -> float | None:
        """Seconds until the nearest open ballot's deadline (None: no ballot, or not the room's to decide)."""
        if self.norms().reviewer != "room" or not self.ballots:
            return None
        first = min(b.opened for b in self.ballots.values())
        return max(0.0, first + self.deadline_s - self.clock())

    async def close_ready(self, runtime: EpisodeRuntime) -> None:
        """At a round boundary: close every ballot the rule closes, and apply its decision."""
        if self.norms().reviewer != "room":
            return
        now = self.clock()
        for rid, request in list(runtime.pending.items()):
            ballot = self.ballots.get(rid)
            if request.to != "admin" or ballot is None:
                continue
            expired = now >= ballot.opened + self.deadline_s
            outcome = count(ballot.votes, set(self.members), self.quorum, expired=expired)
            if outcome is None:
                continue
            decision, reason = outcome
            votes = dict(ballot.votes)
            yes = sum(v == "approved" for v in votes.values())
            closed = VoteClosed(
                actor="room", request_id=rid, decision=decision, approved=yes, rejected=len(votes) - yes,
                present=len(self.members), quorum=self.quorum, reason=reason, votes=votes,
            )  # fmt: skip
            await self.emit(closed)
            comment = (
                f"room {self.name}: {yes} approve, {len(votes) - yes} reject of {len(self.members)} present ({reason})"
            )
            await decide(runtime, rid, decision, by="room", comment=comment)
