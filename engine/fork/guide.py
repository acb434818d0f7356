"""A fork's re-execution as it runs: every event checked against the parent's up to the fork point,
what people did in the parent repeated at the round boundary where it happened, then the fork's own
changes applied (see :mod:`engine.fork.plan`). The round loop sees a :class:`ForkGuide` as its
:class:`~engine.session.loop.RoundGuide`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from channel.commands import DecideReview
from channel.event_base import NewerEvent
from channel.events import Event, FileChanged, Forked, NormChanged, ReviewDecided, SeatChanged
from engine.fork.course import NOT_THE_COURSE, comparable_pair, describe
from engine.fork.errors import ForkDiverged
from engine.session.controls import SessionControls


class ForkGuide:
    """Runs a fork's re-execution: checks each event against the parent's, repeats at round
    boundaries what people did in the parent, then applies the fork's changes.

    The session calls :meth:`check` for every event it emits (an emitter listener), :meth:`boundary`
    before each round boundary, and :meth:`finish` at the end."""

    def __init__(
        self,
        prefix: Sequence[Event],
        forked: Forked,
        controls: SessionControls,
        *,
        norms: dict[str, Any],
        agents: dict[str, str],
        swap: Callable[[str, str, str], Awaitable[None]],
        on_decision: Callable[[DecideReview, str], None],
        session_id: str,
    ) -> None:
        """``prefix``: the parent's course up to the fork point (what the re-run must reproduce);
        ``forked``: the fork's first event; ``norms``, ``agents``: the changes made at the fork point."""
        self.prefix = list(prefix)
        self.forked = forked
        self.norms = norms
        self.agents = agents
        self.controls = controls
        self.swap = swap
        self.on_decision = on_decision
        self.session_id = session_id
        self.matched = 0
        """Events of the parent's prefix the re-run has reproduced so far."""
        self._parent_at = {e.seq: i for i, e in enumerate(self.prefix)}
        self._fork_at: dict[int, int] = {}
        self.divergence: str | None = None
        self.applied = False
        self.applied_at: int | None = None
        """The fork's seq of the last event before the changes were applied."""
        self._pace = controls.pace
        controls.pace = 0.0  # the re-run goes as fast as it can; the pace returns at the fork point

    def opening(self) -> Event:
        """The fork's first event (``Forked``), before the re-run's ``SessionStarted``."""
        return self.forked

    @property
    def reproducing(self) -> bool:
        return self.matched < len(self.prefix)

    def check(self, event: Event) -> None:
        if not self.reproducing or self.divergence is not None or event.kind in NOT_THE_COURSE:
            return
        want = self.prefix[self.matched]
        self._fork_at[event.seq] = self.matched
        self.matched += 1
        if isinstance(want, NewerEvent):  # a newer engine's course: this one cannot reproduce it
            self.divergence = (
                f"the parent's event {want.seq} is a {want.newer_kind}, a kind this scopewatch does not know "
                "(written by a newer scopewatch?): fork it with that version"
            )
        else:
            theirs, mine = comparable_pair(want, event, self._parent_at.get, self._fork_at.get)
            if mine != theirs:
                self.divergence = _divergence(want, event, theirs, mine)

    async def boundary(self, last_seq: int) -> None:
        """Before a round boundary: stop on a divergence; repeat the parent's boundary actions due
        now; once the whole prefix is reproduced, apply the fork's changes (at this boundary)."""
        if self.divergence is not None:
            raise ForkDiverged(self.divergence)
        if self.applied:
            return
        prefix, i = self.prefix, self.matched
        while i < len(prefix):
            decided = _decision_at(prefix, i)  # an approval's files come before its ReviewDecided
            if decided is not None:
                await self._repeat(prefix[decided])
                i = decided + 1
            elif _at_boundary(prefix[i]):
                await self._repeat(prefix[i])
                i += 1
            else:
                break
        if i < len(prefix):
            return
        self.applied, self.applied_at = True, last_seq
        self.controls.pace = self._pace
        for key, value in self.norms.items():
            self.controls.queue_norm(key, value, "fork")
        for agent_id, kind in self.agents.items():
            await self.swap(agent_id, kind, "fork")

    async def _repeat(self, event: Event) -> None:
        if isinstance(event, NormChanged):  # as the parent had it (a room's reviewer=room too: a fork has no room)
            self.controls.queue_norm(event.key, event.new, event.actor, room_checked=False)
        elif isinstance(event, SeatChanged):
            await self.swap(event.agent_id, event.new, event.actor)
        elif isinstance(event, ReviewDecided):
            self.on_decision(
                DecideReview(
                    session=self.session_id,
                    sender=event.actor,
                    request_id=event.request_id,
                    decision=event.decision,
                    comment=event.comment,
                ),
                event.actor,
            )

    def finish(self) -> None:
        """At the end of the session: the prefix must have been reproduced whole."""
        if self.divergence is not None:
            raise ForkDiverged(self.divergence)
        if self.reproducing:
            want = self.prefix[self.matched]
            raise ForkDiverged(f"the fork ended before the parent's event {want.seq} ({describe(want)})")


LESSON = "lesson"
"""The actor of a lesson's prompts and norm flips: the lesson's cues, run again beside a fork, redo them (they are
reproduced and checked, as an agent's turn is, not repeated like a person's toggle)."""
DECIDERS = ("human", "room")
"""Who decides reviews at a round boundary by people's doing: a person in the reviewer's seat, a room's votes."""


def _at_boundary(event: Event) -> bool:
    """Events a person's command caused at a round boundary (repeated, not re-derived, by a re-run)."""
    if isinstance(event, NormChanged) and event.actor == LESSON:
        return False
    return isinstance(event, NormChanged | SeatChanged) or (
        isinstance(event, ReviewDecided) and event.actor in DECIDERS
    )


def _decision_at(prefix: Sequence[Event], i: int) -> int | None:
    """Where the person's or room's ``ReviewDecided`` is whose approved files start at ``i`` (they are
    written, ``via`` review, just before it), or None when ``prefix[i]`` is not such a file."""
    first = prefix[i]
    if not (isinstance(first, FileChanged) and first.via == "review" and first.actor in DECIDERS):
        return None
    j = i
    while j < len(prefix) and isinstance(f := prefix[j], FileChanged) and f.via == "review" and f.actor == first.actor:
        j += 1
    if j < len(prefix) and isinstance(d := prefix[j], ReviewDecided) and d.actor == first.actor:
        return j
    return None


def _divergence(want: Event, got: Event, theirs: dict[str, Any], mine: dict[str, Any]) -> str:
    """The line a fork stops with. Two events described alike differ in what they carry (a file's content, a test's
    result): with the same agents, that is the pack changed since the recording, which the line names (it blamed the
    agents, describing both sides the same)."""
    where = f"the fork differs from the parent at its event {want.seq}"
    if describe(want) != describe(got):
        return (
            f"{where}: the parent had {describe(want)}, the re-run {describe(got)} (a fork re-runs the session, which "
            "reproduces deterministic agents only)"
        )
    fields = ", ".join(sorted(k for k in theirs.keys() | mine.keys() if theirs.get(k) != mine.get(k)))
    return (
        f"{where}: both had {describe(want)}, with a different {fields} (the re-run reads the pack as it is now: were "
        "its files or tests changed since the recording? Else an agent is not deterministic)"
    )
