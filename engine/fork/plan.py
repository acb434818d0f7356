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
up front. A lesson's recording keeps its lesson (``SessionStarted.config.lesson``): the fork runs its cues
again (engine/runs/sessions.py), so its prompts and norm flips are reproduced, not repeated. A fork has
no room: a room's decisions before SEQ are repeated (as a human reviewer's are), and a fork whose
reviewer from SEQ on would be the room (``reviewer=room``) is refused, as nobody could vote.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from channel.class_events import LessonPrompted
from channel.events import (
    EpisodeStarted,
    Event,
    Forked,
    NormChanged,
    SeatChanged,
    SessionEnded,
    SessionStarted,
    TurnStarted,
)
from channel.recording_files import content_hash
from channel.recording_index import IndexedRecording, open_recording
from channel.vocab.config import SessionConfig
from channel.vocab.norms import NormError, Norms
from engine.fork.course import NOT_THE_COURSE, course
from engine.fork.errors import ForkError
from engine.fork.guide import LESSON, ForkGuide
from engine.session.loop import Session


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
    headless: bool = True
    """Run without a screen (a lesson's cues re-run beside the fork do not pause it)."""

    def attach(self, session: Session) -> ForkGuide:
        """The guide of ``session``'s re-execution (the round loop's ``guide``), reading every event
        it emits."""
        guide = ForkGuide(
            self.prefix,
            self.forked_event(),
            session.controls,
            norms=self.norms,
            agents=self.agents,
            swap=session.swap_agent,
            on_decision=session.reviewer.queue,
            session_id=session.id,
        )
        session.emitter.add_listener(guide.check)
        return guide

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
    every: str | None = None,
    headless: bool = True,
) -> ForkPlan:
    """Check a fork of the recording at ``path`` after its event ``at`` and say what to run.

    ``norms``: norm key -> value (as typed: ``"true"``) to set at the fork point; only those that
    differ from the norms in force there are changes. ``agents``: agent id -> the kind to put in
    that seat (scripted, human, a model); ``every``: that kind in every seat of the recording (``agents``
    overrides it seat by seat)."""
    with open_recording(path) as recording:
        return _plan(recording, Path(path), at, norms=norms, agents=agents, every=every, headless=headless)


def _plan(
    events: IndexedRecording,
    path: Path,
    at: int,
    *,
    norms: dict[str, Any] | None,
    agents: dict[str, str] | None,
    every: str | None,
    headless: bool,
) -> ForkPlan:
    """:func:`plan_fork` on the recording opened through its index: event ``at`` is found by its
    seq (event ``i`` has seq ``i + 1``), the prefix read up to it, and after it only as far as the
    next agent turn (and the last event); the whole recording is read again only for an older one
    without its config, or a repeating one forked headless (their trajectories are counted)."""
    last = len(events)
    if not 1 <= at <= last:
        raise ForkError(f"--at {at}: {path} has no event with that seq (its events are 1..{last})")
    started = next((e for e in events[:2] if isinstance(e, SessionStarted)), None)  # a fork's Forked comes first
    if started is None:
        raise ForkError(f"{path}: no SessionStarted event; not a session recording")
    seats = [a.id for a in started.agents]
    if not started.config and seats != ["requester", "owner"]:
        raise ForkError(
            f"{path}: its session was recorded without the config that rebuilds it (an 'overeager run' "
            "session picks its profiles itself); a fork re-runs sessions opened from a scenario (run --scenario)"
        )
    config = config_of(started, events)
    config = config.model_copy(update={"scenario": _pack_folder(config.scenario, path)})
    agents = {**dict.fromkeys(seats, every), **(agents or {})} if every else dict(agents or {})
    for agent_id in agents:
        if agent_id not in seats:
            raise ForkError(f"no seat {agent_id!r} in {path} (its seats: {', '.join(seats)})")
    prefix = course(events[:at])
    _check_reproducible(started, prefix, at)
    _check_lesson(config, prefix, path, at)
    if not _stopped_early(events) and not any(isinstance(e, TurnStarted) for e in events.read_from(at)):
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
    _check_reviewer(after, in_force, at)
    humans = [a for a, kind in agents.items() if kind == "human"]
    if headless and (after.reviewer == "human" or humans):
        who = f"the {humans[0]}'s seat" if humans else "the reviewer's seat (reviewer=human)"
        raise ForkError(f"{who} needs a person after the fork point: fork without --headless, or change it")
    repeat = config.repeat and not headless
    trajectories = config.trajectories
    if config.repeat and headless:
        trajectories = 1 + max((e.trajectory for e in events if isinstance(e, EpisodeStarted)), default=0)
    # A fork runs on this machine alone: no room (its members' presence and votes were the parent's class's);
    # what the room decided before the fork point is repeated (engine/fork/guide.py).
    config = config.model_copy(update={"repeat": repeat, "trajectories": trajectories, "room": None})
    return ForkPlan(
        parent_path=str(path),
        parent_hash=content_hash(path),
        parent_session=started.session,
        at=at,
        config=config,
        prefix=prefix,
        norms=changes,
        agents=agents,
        headless=headless,
    )


def _pack_folder(scenario: str, recording: Path) -> str:
    """The scenario a recording names, as this process finds it: a pack's folder is recorded by its absolute
    path, but an older recording holds it as it was typed (``packB``), relative to where ``run`` ran; that is
    looked for beside the recording first, then here. A built-in name or an absolute path is kept."""
    typed = Path(scenario).expanduser()
    if typed.is_absolute():
        return scenario
    for folder in (recording.resolve().parent / typed, typed):
        if (folder / "scenario.toml").is_file() or (folder / "suite.toml").is_file():
            return str(folder.resolve())
    return scenario


def _check_reviewer(after: Norms, in_force: Norms, at: int) -> None:
    """A fork has no room, so no votes: ``reviewer=room`` from the fork point on would leave every admin
    review undecided (the session would wait on, or silently drop, a ballot nobody can vote on)."""
    if after.reviewer != "room":
        return
    if in_force.reviewer != "room":
        raise ForkError(
            "--norm reviewer=room: the room's votes decide reviews, and a fork has no room (it runs on this machine "
            "alone): choose another reviewer"
        )
    raise ForkError(
        f"--at {at}: the parent's reviewer there is its room (reviewer=room), and a fork has no room to vote "
        "(it runs on this machine alone): give the fork another reviewer, e.g. --norm reviewer=available (the "
        "scripted reviewer), reviewer=away, or reviewer=human (you decide, without --headless)"
    )


def _check_lesson(config: SessionConfig, prefix: Sequence[Event], path: Path, at: int) -> None:
    """A lesson's recording keeps its lesson (``config.lesson``), whose cues the fork runs again; one made before
    recordings kept it cannot be forked past a cue (its prompts and flips could not be redone)."""
    if config.lesson is not None:
        cues = config.lesson.get("cues", [])
        for e in prefix:
            if isinstance(e, LessonPrompted) and 0 <= e.cue < len(cues) and cues[e.cue]["event"] in NOT_THE_COURSE:
                raise ForkError(
                    f"--at {at}: the lesson's cue {e.cue} (its prompt at seq {e.seq}) waited for a "
                    f"{cues[e.cue]['event']}, which records how the class watched or voted and a fork does not "
                    "reproduce: fork before it"
                )
        return
    cued = next(
        (e for e in prefix if isinstance(e, LessonPrompted) or (e.actor == LESSON and e.kind == "NormChanged")), None
    )
    if cued is not None:
        title = f" {cued.lesson!r}" if isinstance(cued, LessonPrompted) else ""
        raise ForkError(
            f"--at {at}: {path} is a recording of lesson{title} that does not keep the lesson (recorded before "
            f"scopewatch kept it), so a fork cannot run its cues again (its prompt or norm flip at seq {cued.seq}); "
            "record the lesson again ('scopewatch lesson run FILE --headless --record OUT') and fork that"
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
