"""Episode kinds: what differs between the episodes the one round loop runs.

The round loop (:class:`engine.session.loop.Session`) owns what every session shares: commands and
the round boundary, turns and budgets, inboxes, the recording, a fork's guide, ``SessionEnded``. An
**episode kind** supplies the rest, behind :class:`EpisodeKind`:

- who sits in the seats (:meth:`~EpisodeKind.build_agents`, :meth:`~EpisodeKind.seat_agent`);
- which trajectories of which tasks run (:attr:`~EpisodeKind.plans`, :meth:`~EpisodeKind.endless`);
- how the stream opens (:meth:`~EpisodeKind.started`) and moves to another trajectory
  (:meth:`~EpisodeKind.enter`);
- one episode: its workspace, seats and toolboxes (:meth:`~EpisodeKind.open_episode`), its
  ``EpisodeStarted`` and briefs (:meth:`~EpisodeKind.begin`, :meth:`~EpisodeKind.brief`), what runs
  after each round (:meth:`~EpisodeKind.after_round`) and how it ends (:meth:`~EpisodeKind.close`).

The kinds: the favor episode of seed 000 (:mod:`engine.session.favor`: a requester and an owner,
the reviewer, absent teams' contract tests, hidden task tests) and the audit episode of seed 003
(:mod:`engine.overeager.episodes`: one agent, ``ask_user``, live traps and verdicts). A branch
episode (CooperBench: branches, merge requests, CODEOWNERS on main) is a third implementation of the
same interface; the loop does not change for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from channel.emitter import Emitter
from channel.events import SessionStarted
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.agents.base import Agent, EpisodeBrief
from engine.session.controls import SessionControls
from engine.session.episode import EpisodeRuntime
from engine.session.reviewer import Reviewer
from engine.session.toolbox import SessionToolbox


class Plan(Protocol):
    """One trajectory as the loop runs it: its number in the session and its task ids, in order."""

    @property
    def number(self) -> int: ...

    @property
    def tasks(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class LoopParts:
    """What a kind may use of the loop that runs it (given once, by :meth:`EpisodeKind.bind`)."""

    config: SessionConfig
    emitter: Emitter
    controls: SessionControls
    reviewer: Reviewer
    norms: Callable[[], Norms]
    limiter: asyncio.Semaphore | None
    """The semaphore bounding model calls in flight (``--max-concurrency``), or None."""


@dataclass
class Episode:
    """One episode a kind has opened: its task, its runtime (workspace, seats, monitors) and each
    seat's toolbox."""

    task_id: str
    runtime: EpisodeRuntime
    toolboxes: dict[str, SessionToolbox]


P = TypeVar("P", bound=Plan)


class BoundKind(Generic[P]):
    """What every episode kind does alike: it is bound once to the loop's parts, and its session's
    trajectories are computed then. A kind that needs more at bind time extends :meth:`bind`."""

    _parts: LoopParts | None = None
    _plans: list[P]

    @property
    def parts(self) -> LoopParts:
        if self._parts is None:
            raise RuntimeError(f"{type(self).__name__} is used before a session bound it")
        return self._parts

    def bind(self, parts: LoopParts) -> None:
        self._parts = parts
        self._plans = list(self.trajectories(parts.config))

    def trajectories(self, config: SessionConfig) -> Sequence[P]:
        raise NotImplementedError


class EpisodeKind(Protocol):
    """What one kind of episode supplies to the round loop (see the module docstring)."""

    name: str
    """``favor``, ``audit`` (later ``branch``): the kind's name, in messages."""

    def bind(self, parts: LoopParts) -> None:
        """Called once by the loop, before anything else: the parts of the loop the kind uses."""

    def trajectories(self, config: SessionConfig) -> Sequence[Plan]:
        """The first ``config.trajectories`` trajectories a session of ``config`` runs (no loop needed:
        progress displays count episodes with it)."""

    @property
    def plans(self) -> Sequence[Plan]:
        """The session's trajectories (:meth:`trajectories` of its config)."""

    def endless(self) -> Iterator[Plan]:
        """Every trajectory without end (``repeat``: until stopped); the first ones are :attr:`plans`."""

    @property
    def seats(self) -> tuple[str, ...]:
        """The seat ids of the active agents (a fork's ``--agents`` names these)."""

    def build_agents(self) -> dict[str, Agent]:
        """The agent in each seat, by seat id."""

    def seat_agent(self, seat: str, kind: str) -> Agent:
        """A new agent of ``kind`` (scripted, human, a model) for ``seat`` (a fork's or a person's swap)."""

    async def started(self, agents: Sequence[Agent]) -> SessionStarted:
        """The session's first fact."""

    async def enter(self, plan: Plan, *, before: Plan | None, agents: Sequence[Agent]) -> None:
        """Trajectory ``plan`` starts; ``before`` is the one the stream was in (None: none yet)."""

    async def open_episode(self, plan: Plan, number: int, task_id: str) -> Episode:
        """The workspace, seats and toolboxes of episode ``number`` (the task ``task_id``)."""

    async def begin(self, episode: Episode) -> None:
        """Announce the episode (``EpisodeStarted``); the loop then briefs the agents."""

    def brief(self, episode: Episode, agent_id: str) -> EpisodeBrief:
        """What ``agent_id`` is told when the episode starts (or when it takes the seat mid-episode)."""

    async def after_round(self, episode: Episode) -> None:
        """What runs after every round of turns (the reviewer, the favor and harm checks, ...)."""

    async def close(self, episode: Episode) -> None:
        """The episode's end: its outcome as events (``EpisodeEnded`` and what the kind adds)."""
