"""A room as the review panel shows it (``serve --room``, engine/session/room.py): who is present and
who holds which seat (one line), and, for a pending review the room votes on, the tally so far and
this watcher's own vote; after a vote closed, its decision and tally."""

from __future__ import annotations

from collections.abc import Sequence

from channel.class_events import RoomChanged, VoteCast, VoteClosed, VoteRuleSet
from channel.events import Event, ReviewDecided


class RoomView:
    """Folds a room's events; renders the presence, tally and decision lines."""

    def __init__(self) -> None:
        self.me = ""
        """The name this watcher joined with (``watch --as``); their own vote is marked."""
        self.room: RoomChanged | None = None
        self.votes: dict[str, dict[str, str]] = {}
        """request id -> member -> their vote (the last one)."""
        self.closed: VoteClosed | None = None
        """The last vote that closed."""
        self.ended = False
        """The session ended: an open ballot never closes (no countdown)."""

    def reset(self) -> None:
        self.room, self.closed, self.ended = None, None, False
        self.votes.clear()

    def apply(self, events: Sequence[Event]) -> bool:
        """Fold a batch; whether anything the panel shows changed."""
        changed = False
        for event in events:
            if isinstance(event, RoomChanged):
                self.room = event
            elif isinstance(event, VoteRuleSet) and self.room is not None:
                self.room = self.room.model_copy(update={"quorum": event.quorum, "deadline_s": event.deadline_s})
            elif isinstance(event, VoteCast):
                self.votes.setdefault(event.request_id, {})[event.actor] = event.choice
            elif isinstance(event, VoteClosed):
                self.closed = event
            elif isinstance(event, ReviewDecided):
                self.votes.pop(event.request_id, None)
            else:
                continue
            changed = True
        return changed

    def presence_line(self) -> str:
        """``room NAME · 2 present: alice, bob (instructor) · seats: owner=alice`` ('' without a room)."""
        room = self.room
        if room is None:
            return ""
        names = ", ".join(m.name + ("" if m.role == "watcher" else f" ({m.role})") for m in room.members)
        # Only the seats people hold: the scripted ones are the default (a short line leaves the panel room).
        seats = " ".join(f"{seat}={who}" for seat, who in room.seats.items() if not who.startswith("scripted"))
        you = f" · you: {self.me}" if self.me and any(m.name == self.me for m in room.members) else ""
        held = f" · seats: {seats}" if seats else ""
        return f"room {room.room} · {len(room.members)} present: {names or 'nobody'}{you}{held}"

    def tally_line(self, request_id: str) -> str:
        """The live tally of one pending review (and this watcher's vote)."""
        room = self.room
        votes = self.votes.get(request_id, {})
        yes = sum(v == "approved" for v in votes.values())
        present = len(room.members) if room is not None else 0
        rule = ""
        if room is not None:
            closes = f"closes {room.deadline_s:g}s after the request"
            if self.ended:
                closes = "never closed: the session ended"
            rule = f"quorum {room.quorum} · {closes}"
        mine = votes.get(self.me) if self.me else None
        hint = " · your vote: none yet (a approve, x reject)" if self.me and not self.ended else ""
        you = f" · your vote: {mine}" if mine else hint
        return f"votes: {yes} approve · {len(votes) - yes} reject · of {present} present · {rule}{you}"

    def closed_line(self) -> str:
        closed = self.closed
        if closed is None:
            return ""
        mine = closed.votes.get(self.me) if self.me else None
        you = f" · you voted {mine}" if mine else ""
        return (
            f"vote on {closed.request_id} closed: {closed.decision} ({closed.approved} approve · "
            f"{closed.rejected} reject of {closed.present} present, {closed.reason}){you}"
        )
