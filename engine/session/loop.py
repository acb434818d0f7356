"""The round loop: one class runs every session, whatever its kind of episode.

Session -> trajectory (ordered tasks) -> episode (one task per active agent, a turn budget).
In a round every active agent takes one turn concurrently; what they post reaches readers at the
start of the next round; norm changes, pause/step and the human reviewer are handled at the
boundary between rounds (norm changes due between episodes also before the next one starts). What
differs between kinds of episode (favor, audit, later branch: who
sits in the seats, the workspace, what runs after a round, how an episode ends) is the
:class:`~engine.session.kind.EpisodeKind`'s; a fork's re-execution steers the loop from outside
through a :class:`RoundGuide` (engine/fork/).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Protocol

from channel.bus import Bus
from channel.commands import DecideReview, SeatCall
from channel.emitter import Emitter
from channel.errors import ScopewatchError
from channel.events import (
    AgentErrored,
    AgentFinished,
    Event,
    FileChanged,
    SeatChanged,
    SessionEnded,
    TurnStarted,
)
from channel.recorder import Recorder
from channel.rejects import RejectedCommands
from channel.tasks import cancel_and_wait, raise_if_cancelled
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from channel.vocab.topics import COMMANDS, PRESENCE
from engine.agents.base import Agent, TurnContext
from engine.agents.human import HumanAgent
from engine.llm.errors import ModelUnreachable
from engine.llm.secrets import event_scrubber, redact
from engine.session.controls import SessionControls
from engine.session.episode import EpisodeRuntime
from engine.session.favor import FavorEpisodes
from engine.session.inboxes import Inboxes
from engine.session.kind import Episode, EpisodeKind, LoopParts, Plan
from engine.session.order import TurnOrder
from engine.session.reviewer import Reviewer
from engine.session.room import Room


class SessionFailed(ScopewatchError):
    """The session cannot go on (a fork that diverged from its parent): it ends ``failed: ...``."""


class RoundGuide(Protocol):
    """Steers a session from outside, at its round boundaries (a fork's re-execution, engine/fork/)."""

    def opening(self) -> Event | None:
        """An event to emit before ``SessionStarted`` (a fork's ``Forked``), or None."""

    async def boundary(self, last_seq: int) -> None:
        """Before each round boundary; raises :class:`SessionFailed` to stop the session."""

    def finish(self) -> None:
        """After the last episode of a session that was not stopped."""


class Session:
    """Runs a configured session on a bus, its episodes of one kind. The UI talks to it only through
    the bus."""

    def __init__(
        self,
        config: SessionConfig,
        bus: Bus,
        kind: EpisodeKind | None = None,
        *,
        recorder: Recorder | None = None,
        session_id: str | None = None,
        clock: Callable[[], float] = time.time,
        guide: Callable[[Session], RoundGuide] | None = None,
        start_seq: int = 0,
        episodes_before: int = 0,
    ) -> None:
        """``kind``: the episodes to run (default: favor episodes of ``config.scenario``); ``guide``:
        builds the guide that steers this session (a fork's :meth:`~engine.fork.plan.ForkPlan.attach`);
        ``start_seq`` and ``episodes_before``: a resumed session's (with its ``session_id``), whose events
        and episode numbers follow on from those its recording holds (engine/overeager/runner.py)."""
        self.config = config
        self.bus = bus
        self.id = session_id or f"s-{uuid.uuid4().hex[:8]}"
        self.emitter = Emitter(
            bus, self.id, recorder=recorder, clock=clock, scrub=event_scrubber(), start_seq=start_seq
        )
        self.episodes_before = episodes_before
        self.reviewer = Reviewer(self.emitter.emit, lambda: self.norms)
        self.controls = SessionControls(
            self.emitter.emit,
            config.norms,
            on_decision=self._decision,
            on_seat_call=self._seat_call,
            pace=config.pace,
            secret=config.reviewer_secret,
            session=self.id,
        )
        self.inboxes = Inboxes(lambda: self.norms)
        self.limiter = asyncio.Semaphore(config.max_concurrency) if config.max_concurrency else None
        """Bounds the model calls in flight across agents (``--max-concurrency``)."""
        self._episode: Episode | None = None
        self.kind: EpisodeKind = kind if kind is not None else FavorEpisodes.of(config.scenario)
        self.kind.bind(
            LoopParts(
                config=config,
                emitter=self.emitter,
                controls=self.controls,
                reviewer=self.reviewer,
                norms=lambda: self.norms,
                limiter=self.limiter,
            )
        )
        self.agents: dict[str, Agent] = self.kind.build_agents()
        self.emitter.add_listener(self._route)
        self.room: Room | None = None
        """``serve --room``: its members, and with ``reviewer=room`` their votes (engine/session/room.py)."""
        if config.room:
            seats = {agent_id: agent.kind for agent_id, agent in self.agents.items()}
            self.room = Room(
                config.room, self.emitter.emit, lambda: self.norms, seats=seats, quorum=config.vote_quorum,
                deadline_s=config.vote_deadline_s, wake=self.controls.wake,
            )  # fmt: skip
            self.controls.on_room = self.room.command
            self.emitter.add_listener(self.room.observe)
        self.guide: RoundGuide | None = None if guide is None else guide(self)

    @property
    def norms(self) -> Norms:
        """The norms in force (they change between rounds, by command)."""
        return self.controls.norms

    @property
    def plans(self) -> Sequence[Plan]:
        """The session's trajectories."""
        return self.kind.plans

    # --- seats -----------------------------------------------------------------------------

    async def _seat_call(self, call: SeatCall) -> None:
        """A person's tool call for the seat they play (refused when no person plays it)."""
        agent = self.agents.get(call.seat)
        if not isinstance(agent, HumanAgent):
            raise ScopewatchError(f"{call.seat!r} is not a seat played by a person in this session")
        agent.offer(call)
        if self.room is not None:
            await self.room.seat_played(call.seat, call.sender)

    async def swap_agent(self, agent_id: str, kind: str, by: str) -> None:
        """Put another agent in a seat (a fork's ``--owner human``), briefed on the episode under way."""
        old = self.agents[agent_id]
        agent = self.kind.seat_agent(agent_id, kind)
        agent.trajectory = getattr(old, "trajectory", 0)  # type: ignore[attr-defined]
        if (episode := self._episode) is not None:
            await old.end_episode()
            await agent.start_episode(self.kind.brief(episode, agent_id))
        self.agents[agent_id] = agent
        await self.emitter.emit(SeatChanged(actor=by, agent_id=agent_id, old=old.kind, new=agent.kind))

    # --- run -------------------------------------------------------------------------------

    async def run(self, only: Sequence[int] | None = None) -> None:
        """Run every trajectory (or ``only`` these, numbered as in the whole session: a unit of a
        parallel batch), answering commands from the bus between rounds."""
        # Subscribed first, answered only once SessionStarted is out: a command sent meanwhile waits
        # in the subscription (none is lost, and no answer comes before the session's first event).
        commands = await self.bus.subscribe(COMMANDS)
        if isinstance(self.bus, RejectedCommands):
            self.bus.on_rejected(self.controls.refuse)
        listener: asyncio.Task[None] | None = None
        room_task: asyncio.Task[None] | None = None
        reason = "completed"
        kind = self.kind
        started = False
        try:
            opening = None if self.guide is None else self.guide.opening()
            if opening is not None:
                await self.emitter.emit(opening)
            await self.emitter.emit(await kind.started(list(self.agents.values())))
            started = True
            listener = asyncio.create_task(self.controls.listen(commands), name="scopewatch-commands")
            if self.room is not None:
                await self.emitter.emit(self.room.state())
                room_task = asyncio.create_task(self.room.listen(await self.bus.subscribe(PRESENCE)), name="room")
            episode = self.episodes_before
            plans = kind.endless() if self.config.repeat else iter(kind.plans)
            for plan in plans if only is None else (kind.plans[t] for t in only):
                if only is not None:
                    # Episode numbers run on across a session: a unit of a batch numbers after the others.
                    episode = sum(len(before.tasks) for before in kind.plans[: plan.number])
                if self.controls.stopped:
                    break
                # The stream is in the previous trajectory's (a batch unit's too, once merged).
                before = kind.plans[plan.number - 1] if only is not None and plan.number > 0 else None
                await kind.enter(plan, before=before, agents=list(self.agents.values()))
                for agent in self.agents.values():
                    agent.trajectory = plan.number  # type: ignore[attr-defined]
                for task_id in plan.tasks:
                    raise_if_cancelled()  # a Ctrl-C an await dropped on the way ends the session here
                    if self.controls.stopped:
                        break
                    episode += 1
                    await self._run_episode(plan, episode, task_id)
            if self.controls.stopped:
                reason = "stopped"
            elif self.guide is not None:
                self.guide.finish()
        except asyncio.CancelledError:
            reason = "cancelled"
            raise
        except (ModelUnreachable, SessionFailed) as exc:
            reason = f"failed: {exc}"
            raise
        except BaseException as exc:
            reason = f"crashed: {type(exc).__name__}: {exc}"
            raise
        finally:
            await cancel_and_wait(listener, room_task)
            await commands.close()
            if started:  # a session stopped before it started has no end to say either
                with contextlib.suppress(Exception):
                    await asyncio.shield(self.controls.settle(final=True))
                with contextlib.suppress(Exception):
                    await asyncio.shield(self.emitter.emit(SessionEnded(reason=reason)))

    async def _run_episode(self, plan: Plan, number: int, task_id: str) -> None:
        # A change due between episodes (a lesson cue on EpisodeEnded, a fork at an episode's end, a toggle
        # sent meanwhile) applies before the next EpisodeStarted: that episode's prompt and every turn are
        # under it, and it is that episode's norms (seed 000 §5.3.1), not a change "mid-episode".
        if self.guide is not None:
            await self.guide.boundary(self.emitter.last_seq)
        await self.controls.apply_norms()
        episode = await self.kind.open_episode(plan, number, task_id)
        runtime = episode.runtime
        try:
            self._episode = episode
            self.inboxes.open(runtime.seats)
            await self.kind.begin(episode)
            for agent_id, agent in self.agents.items():
                await agent.start_episode(self.kind.brief(episode, agent_id))
            await self._rounds(episode)
            await self.kind.close(episode)
            for agent in self.agents.values():
                await agent.end_episode()
        finally:
            self._episode = None
            await runtime.sandbox.close()

    async def _rounds(self, episode: Episode) -> None:
        runtime, toolboxes = episode.runtime, episode.toolboxes
        turns = dict.fromkeys(toolboxes, 0)
        while not self.controls.stopped:
            if self.guide is not None:
                await self.guide.boundary(self.emitter.last_seq)
            await self.controls.boundary(
                apply_decisions=lambda: self._decisions(runtime),
                waits_for_human=lambda: self.reviewer.waits_for_human(runtime, room=self.room is not None),
                wait_s=(lambda: None) if self.room is None else self.room.wait_s,
            )
            if self.controls.stopped:
                return
            active = [a for a, tb in toolboxes.items() if not tb.finished and turns[a] < self._budget(episode, a)]
            if not active:
                return
            contexts = {}
            for agent_id in active:
                turns[agent_id] += 1
                inbox = self.inboxes.take(agent_id)
                contexts[agent_id] = TurnContext(
                    turn=turns[agent_id],
                    budget_left=self._budget(episode, agent_id) - turns[agent_id] + 1,
                    norms=self.norms,
                    tools=toolboxes[agent_id],
                    inbox=inbox,
                )
                await self.emitter.emit(
                    TurnStarted(
                        actor=agent_id,
                        episode=runtime.number,
                        turn=turns[agent_id],
                        budget_left=contexts[agent_id].budget_left,
                    )
                )
            # Every seat scripted: the round's calls in seat order, so its effects do not depend on timing.
            order = TurnOrder(active) if all(self.agents[a].kind.startswith("scripted") for a in active) else None
            for agent_id in active:
                toolboxes[agent_id].order = order
            try:
                # A TaskGroup, not gather: a dead model endpoint cancels the other agent's turn too.
                async with asyncio.TaskGroup() as turns_now:
                    for agent_id in active:
                        turns_now.create_task(self._turn(episode, agent_id, contexts[agent_id], order))
            except BaseExceptionGroup as group:
                # Not ``except*``: before Python 3.11.4 an exception raised inside ``except*`` is wrapped
                # in a new group, and the CLI's one line became a traceback (tests/test_python_versions.py).
                dead, _ = group.split(ModelUnreachable)
                if dead is None:
                    raise
                raise _first_leaf(dead) from None
            for agent_id in active:
                tb = toolboxes[agent_id]
                if not tb.finished and turns[agent_id] >= self._budget(episode, agent_id):
                    tb.finished = True
                    await self.emitter.emit(
                        AgentFinished(actor=agent_id, episode=runtime.number, reason="turn budget used up")
                    )
            await self.kind.after_round(episode)

    async def _decisions(self, runtime: EpisodeRuntime) -> None:
        """At the boundary: a person's decisions, then the room's closed votes."""
        await self.reviewer.apply_decisions(runtime)
        if self.room is not None:
            await self.room.close_ready(runtime)

    def _decision(self, cmd: DecideReview) -> None:
        """A person's decision: an ACP agent waiting for a permission gets it now, inside its turn;
        a review request at the next round boundary."""
        if self._episode is not None and self._episode.runtime.permissions.answer(cmd):
            return
        self.reviewer.queue(cmd)

    def _budget(self, episode: Episode, agent_id: str) -> int:
        """The agent's turn budget under the norms in force (a cut applies to the owner by default)."""
        return self.norms.budget_for(episode.runtime.seats[agent_id].role)

    async def _turn(self, episode: Episode, agent_id: str, ctx: TurnContext, order: TurnOrder | None) -> None:
        """One agent's turn; whatever goes wrong inside is an event, never a crashed session."""
        try:
            await self._act(episode, agent_id, ctx)
        finally:
            episode.toolboxes[agent_id].order = None
            if order is not None:
                await order.leave(agent_id)

    async def _act(self, episode: Episode, agent_id: str, ctx: TurnContext) -> None:
        try:
            await self.agents[agent_id].take_turn(ctx)
        except (asyncio.CancelledError, KeyboardInterrupt, ModelUnreachable):
            raise
        except Exception as exc:
            await self.emitter.emit(
                AgentErrored(
                    actor=agent_id,
                    error=type(exc).__name__,
                    message=redact(str(exc))[:500],
                    episode=episode.runtime.number,
                    fatal=True,
                )
            )
            tb = ctx.tools
            if not tb.finished:
                await tb.call("finish", {"summary": f"stopped by an error: {type(exc).__name__}"})

    # --- the stream, as the engine itself reads it ----------------------------------------------

    def _route(self, event: Event) -> None:
        """Keep who-wrote-what from file changes and fill the agents' inboxes."""
        if isinstance(event, FileChanged) and self._episode is not None:
            runtime = self._episode.runtime
            runtime.writes.saw(event)
            if runtime.favors is not None:
                runtime.favors.saw(event)
        self.inboxes.route(event)


def _first_leaf(group: BaseExceptionGroup[ModelUnreachable]) -> ModelUnreachable:
    """The first exception in a (possibly nested) group, the one the session stops with."""
    first = group.exceptions[0]
    return _first_leaf(first) if isinstance(first, BaseExceptionGroup) else first
