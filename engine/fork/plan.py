"""Forking a recording at an event: the session as it stood after event SEQ, continued with changes.

A fork is a re-execution. Scripted agents, the scripted reviewer, the sandbox and the tests are
deterministic for a config and a seed, so running the parent's config again rebuilds everything the
parent had after SEQ: the workspace files, messages delivered and pending, review requests, norms,
the episode and turn position, and the scripted agents' state. Every event of the re-run up to SEQ is
checked against the parent's (:func:`comparable`); the first one that differs stops the fork with one
line naming it. What people did in the parent (norm toggles, a human reviewer's decisions, seats
changed) is done again at the round boundary where it happened. The fork's own changes (norms,
seats) are applied at the first round boundary after SEQ, as a live toggle at that moment would have
been; from then on the session runs live.

What a re-execution cannot rebuild: a model's replies (an LLM agent is not deterministic), an external
agent's, or a person's actions; a parent whose seats were played by any of those before SEQ is refused
up front.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from channel.commands import DecideReview
from channel.errors import ScopewatchError
from channel.events import (
    EpisodeStarted,
    Event,
    Forked,
    NormChanged,
    ReviewDecided,
    SeatChanged,
    SessionEnded,
    SessionStarted,
    TurnStarted,
)
from channel.recorder import load_recording
from engine.export.inspect_log import recording_hash
from engine.session.config import SessionConfig
from engine.session.controls import SessionControls
from engine.session.norms import NormError, Norms

if TYPE_CHECKING:
    from engine.session.loop import Session

NOT_THE_COURSE = frozenset(
    {"Forked", "SessionPaused", "SessionResumed", "SpeedChanged", "CommandRefused", "PresenceChanged", "TokensStreamed"}
)
"""Event kinds that record how a session was watched or commanded, not what happened in it: a fork
neither reproduces nor compares them."""
VOLATILE = frozenset({"session", "seq", "ts", "duration_ms", "first_token_ms", "config", "pid", "parent_pid"})
"""Fields that differ between two runs of the same session (ids, clocks, timings, run options,
process ids)."""
_SANDBOX_DIR = re.compile(r"/scopewatch-sandbox-[^/\s]+")
"""A sandbox's private folder in a program's arguments (``ls ~`` expands HOME): another one per run."""


def changes_text(norms: dict[str, Any], agents: dict[str, str]) -> str:
    """A fork's changes as a person would type them: ``admin_only=true, owner=human``."""
    parts = [f"{k}={json.dumps(v)}" for k, v in norms.items()] + [f"{k}={v}" for k, v in agents.items()]
    return ", ".join(parts) or "no change"


class ForkError(ScopewatchError):
    """A fork that cannot be made; the message names the option or the event."""


class ForkDiverged(ForkError):
    """The re-run did not do what the parent did before the fork point."""


def course(events: Sequence[Event]) -> list[Event]:
    """What happened in a session, without how it was watched or commanded (:data:`NOT_THE_COURSE`)."""
    return [e for e in events if e.kind not in NOT_THE_COURSE]


def comparable(event: Event, position: Callable[[int], int | None] | None = None) -> dict[str, Any]:
    """An event as two runs of one session must agree on it (without :data:`VOLATILE` fields).

    A field that names another event by its seq (``*_seq``, e.g. ``FavorChecked.write_seq``) is
    replaced by ``position(seq)``, that event's place in its run's course: a fork's seqs are shifted
    by its ``Forked`` header (and by any watching events), its course is not."""
    data = {k: v for k, v in event.model_dump(mode="json").items() if k not in VOLATILE}
    if isinstance(data.get("argv"), list):
        data["argv"] = [_SANDBOX_DIR.sub("/<sandbox>", a) if isinstance(a, str) else a for a in data["argv"]]
    if position is not None:
        for key, value in data.items():
            if key.endswith("_seq") and isinstance(value, int):
                data[key] = position(value)
    return data


def positions(events: Sequence[Event]) -> dict[int, int]:
    """seq -> place in the course, for :func:`comparable`."""
    return {e.seq: i for i, e in enumerate(course(events))}


def describe(event: Event) -> str:
    """A few words naming an event (a divergence message, a comparison)."""
    detail = next((getattr(event, f) for f in ("tool", "path", "key", "agent_id") if getattr(event, f, None)), "")
    actor = f" by {event.actor}" if event.actor != "engine" else ""
    return f"{event.kind}{' ' + str(detail) if detail else ''}{actor}"


@dataclass
class ForkPlan:
    """What to run again, up to where, and what to change there."""

    parent_path: str
    parent_hash: str
    parent_session: str
    at: int
    config: SessionConfig
    prefix: list[Event]
    """The parent's course up to and including event ``at``: what the re-run must reproduce."""
    norms: dict[str, Any] = field(default_factory=dict)
    agents: dict[str, str] = field(default_factory=dict)

    def forked_event(self) -> Forked:
        return Forked(
            actor="fork",
            parent=self.parent_hash,
            parent_session=self.parent_session,
            at=self.at,
            norms=self.norms,
            agents=self.agents,
        )


def config_of(started: SessionStarted, events: Sequence[Event]) -> SessionConfig:
    """The parent's config: as recorded, or (older recordings) rebuilt from what they hold."""
    if started.config:
        return SessionConfig.model_validate(started.config)
    kinds = {a.id: a.kind for a in started.agents}
    owner = kinds.get("owner", "scripted")
    persona = owner.split(":", 1)[1] if owner.startswith("scripted:") else "mixed"
    trajectories = 1 + max((e.trajectory for e in events if isinstance(e, EpisodeStarted)), default=0)
    return SessionConfig(
        scenario=started.scenario,
        seed=started.seed,
        norms=Norms.model_validate(started.norms),
        requester="scripted" if kinds.get("requester", "scripted").startswith("scripted") else kinds["requester"],
        owner="scripted" if owner.startswith("scripted") else owner,
        persona=persona,
        trajectories=trajectories,
    )


def plan_fork(
    path: str | Path,
    at: int,
    *,
    norms: dict[str, Any] | None = None,
    agents: dict[str, str] | None = None,
    headless: bool = True,
) -> ForkPlan:
    """Check a fork of the recording at ``path`` after its event ``at`` and say what to run.

    ``norms``: norm key -> value (as typed: ``"true"``) to set at the fork point; only those that
    differ from the norms in force there are changes. ``agents``: agent id -> the kind to put in
    that seat (scripted, human, a model)."""
    events = load_recording(path)
    last = events[-1].seq
    if not any(e.seq == at for e in events):
        raise ForkError(f"--at {at}: {path} has no event with that seq (its events are {events[0].seq}..{last})")
    started = next((e for e in events if isinstance(e, SessionStarted)), None)
    if started is None:
        raise ForkError(f"{path}: no SessionStarted event; not a session recording")
    config = config_of(started, events)
    agents = dict(agents or {})
    for agent_id in agents:
        if agent_id not in ("requester", "owner"):
            raise ForkError(f"--agents: no seat {agent_id!r} (seats: requester, owner)")
    prefix = [e for e in course(events) if e.seq <= at]
    _check_reproducible(started, prefix, at)
    if not any(isinstance(e, TurnStarted) and e.seq > at for e in events) and not _stopped_early(events):
        raise ForkError(f"--at {at}: no agent turn follows it in {path}; nothing can change after it")
    in_force = Norms.model_validate(started.norms)
    for event in prefix:
        if isinstance(event, NormChanged):
            in_force = Norms.model_validate(event.norms)
    after = in_force
    for key, value in (norms or {}).items():
        try:
            after = after.with_value(key, value)
        except NormError as exc:
            raise ForkError(f"--norm: {exc}") from None
    changes = {k: getattr(after, k) for k in Norms.model_fields if getattr(after, k) != getattr(in_force, k)}
    humans = [a for a, kind in agents.items() if kind == "human"]
    if headless and (after.reviewer == "human" or humans):
        who = f"the {humans[0]}'s seat" if humans else "the reviewer's seat (reviewer=human)"
        raise ForkError(f"{who} needs a person after the fork point: fork without --headless, or change it")
    repeat = config.repeat and not headless
    trajectories = config.trajectories
    if config.repeat and headless:
        trajectories = 1 + max((e.trajectory for e in events if isinstance(e, EpisodeStarted)), default=0)
    config = config.model_copy(update={"repeat": repeat, "trajectories": trajectories})
    return ForkPlan(
        parent_path=str(path),
        parent_hash=recording_hash(path),
        parent_session=started.session,
        at=at,
        config=config,
        prefix=prefix,
        norms=changes,
        agents=agents,
    )


def _stopped_early(events: Sequence[Event]) -> bool:
    end = events[-1]
    return not isinstance(end, SessionEnded) or end.reason != "completed"


def _check_reproducible(started: SessionStarted, prefix: Sequence[Event], at: int) -> None:
    """Refuse a parent whose seats, before the fork point, were played by something a re-run cannot
    repeat (a model, an external agent, a person)."""
    kinds = {a.id: a.kind for a in started.agents}
    for event in prefix:
        if isinstance(event, SeatChanged):
            kinds[event.agent_id] = event.new
        if isinstance(event, TurnStarted) and not kinds.get(event.actor, "scripted").startswith("scripted"):
            raise ForkError(
                f"--at {at}: the parent's {event.actor} was {kinds[event.actor]!r} before that event (its turn "
                f"at seq {event.seq}); a fork re-runs the session and only scripted agents act the same way twice"
            )


class ForkGuide:
    """Runs a fork's re-execution: checks each event against the parent's, repeats at round
    boundaries what people did in the parent, then applies the fork's changes.

    The session calls :meth:`check` for every event it emits (an emitter listener), :meth:`boundary`
    before each round boundary, and :meth:`finish` at the end."""

    def __init__(
        self,
        plan: ForkPlan,
        controls: SessionControls,
        *,
        swap: Callable[[str, str, str], Awaitable[None]],
        on_decision: Callable[[DecideReview], None],
        session_id: str,
    ) -> None:
        self.plan = plan
        self.controls = controls
        self.swap = swap
        self.on_decision = on_decision
        self.session_id = session_id
        self.matched = 0
        """Events of the parent's prefix the re-run has reproduced so far."""
        self._parent_at = {e.seq: i for i, e in enumerate(plan.prefix)}
        self._fork_at: dict[int, int] = {}
        self.divergence: str | None = None
        self.applied = False
        self.applied_at: int | None = None
        """The fork's seq of the last event before the changes were applied."""
        self._pace = controls.pace
        controls.pace = 0.0  # the re-run goes as fast as it can; the pace returns at the fork point

    @classmethod
    def attach(cls, plan: ForkPlan, session: Session) -> ForkGuide:
        """A guide for ``session``'s re-execution, reading every event it emits."""
        guide = cls(
            plan, session.controls, swap=session.swap_agent, on_decision=session.reviewer.queue, session_id=session.id
        )
        session.emitter.add_listener(guide.check)
        return guide

    @property
    def reproducing(self) -> bool:
        return self.matched < len(self.plan.prefix)

    def check(self, event: Event) -> None:
        if not self.reproducing or self.divergence is not None or event.kind in NOT_THE_COURSE:
            return
        want = self.plan.prefix[self.matched]
        self._fork_at[event.seq] = self.matched
        self.matched += 1
        if comparable(event, self._fork_at.get) != comparable(want, self._parent_at.get):
            self.divergence = (
                f"the fork differs from the parent at its event {want.seq}: the parent had "
                f"{describe(want)}, the re-run {describe(event)} (a fork re-runs the session, which "
                "reproduces deterministic agents only)"
            )

    async def boundary(self, last_seq: int) -> None:
        """Before a round boundary: stop on a divergence; repeat the parent's boundary actions due
        now; once the whole prefix is reproduced, apply the fork's changes (at this boundary)."""
        if self.divergence is not None:
            raise ForkDiverged(self.divergence)
        if self.applied:
            return
        prefix, i = self.plan.prefix, self.matched
        while i < len(prefix) and _at_boundary(prefix[i]):
            await self._repeat(prefix[i])
            i += 1
        if i < len(prefix):
            return
        self.applied, self.applied_at = True, last_seq
        self.controls.pace = self._pace
        for key, value in self.plan.norms.items():
            self.controls.queue_norm(key, value, "fork")
        for agent_id, kind in self.plan.agents.items():
            await self.swap(agent_id, kind, "fork")

    async def _repeat(self, event: Event) -> None:
        if isinstance(event, NormChanged):
            self.controls.queue_norm(event.key, event.new, event.actor)
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
                )
            )

    def finish(self) -> None:
        """At the end of the session: the prefix must have been reproduced whole."""
        if self.divergence is not None:
            raise ForkDiverged(self.divergence)
        if self.reproducing:
            want = self.plan.prefix[self.matched]
            raise ForkDiverged(f"the fork ended before the parent's event {want.seq} ({describe(want)})")


def _at_boundary(event: Event) -> bool:
    """Events a person's command caused at a round boundary (repeated, not re-derived, by a re-run)."""
    return isinstance(event, NormChanged | SeatChanged) or (isinstance(event, ReviewDecided) and event.actor == "human")
