"""A session: trajectories of episodes, agents taking turns in rounds, commands applied between
rounds, every fact emitted as an event.

Session -> trajectory (ordered tasks) -> episode (one task per active agent, a turn budget).
In a round every active agent takes one turn concurrently; what they post reaches readers at the
start of the next round; norm changes, pause/step and the human reviewer are handled at the
boundary between rounds.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Callable, Iterator, Sequence

from channel.bus import Bus
from channel.commands import SeatCall
from channel.emitter import Emitter
from channel.errors import ScopewatchError
from channel.events import (
    AgentErrored,
    AgentFinished,
    AgentInfo,
    DomainEntered,
    EpisodeEnded,
    EpisodeStarted,
    Event,
    FileChanged,
    SeatChanged,
    SessionEnded,
    SessionStarted,
    TurnStarted,
)
from channel.recorder import Recorder
from channel.vocab import AgentRole
from engine.agents.base import Agent, TurnContext
from engine.agents.external import ExternalAgent, is_external
from engine.agents.human import HumanAgent
from engine.agents.scripted import ScriptedOwner, ScriptedRequester
from engine.llm.errors import ModelUnreachable
from engine.llm.secrets import event_scrubber, redact
from engine.session.briefs import make_brief, team_of
from engine.session.config import SessionConfig
from engine.session.controls import SessionControls
from engine.session.episode import EpisodeRuntime, Seat
from engine.session.favors import FavorMonitor
from engine.session.fork import ForkDiverged, ForkGuide, ForkPlan
from engine.session.harm import HarmMonitor
from engine.session.hidden import run_hidden, score_tasks
from engine.session.inboxes import Inboxes
from engine.session.norms import Norms
from engine.session.packs import checked_ownerships, pack_shape
from engine.session.reviewer import Reviewer, reviewer_present
from engine.session.toolbox import SessionToolbox
from engine.session.trajectory import TrajectoryPlan, episodes_before, iter_trajectories, plan_trajectories
from engine.session.writes import WriteLog
from sandbox.backends import describe_sandbox, open_sandbox
from sandbox.ownership import Ownership
from scenarios.loader import Pack
from scenarios.manifest import Task
from scenarios.suite import Suite, load_suite

REQUESTER: AgentRole = "requester"
OWNER: AgentRole = "owner"


class Session:
    """Runs a configured session on a bus. The UI talks to it only through the bus."""

    def __init__(
        self,
        config: SessionConfig,
        bus: Bus,
        *,
        recorder: Recorder | None = None,
        session_id: str | None = None,
        clock: Callable[[], float] = time.time,
        fork: ForkPlan | None = None,
        pack: Pack | None = None,
    ) -> None:
        self.config = config
        self.bus = bus
        self.id = session_id or f"s-{uuid.uuid4().hex[:8]}"
        self.emitter = Emitter(bus, self.id, recorder=recorder, clock=clock, scrub=event_scrubber())
        self.reviewer = Reviewer(self.emitter.emit, lambda: self.norms)
        self.controls = SessionControls(
            self.emitter.emit,
            config.norms,
            on_decision=self.reviewer.queue,
            on_seat_call=self._seat_call,
            pace=config.pace,
            secret=config.reviewer_secret,
        )
        self.inboxes = Inboxes(lambda: self.norms)
        self.limiter = asyncio.Semaphore(config.max_concurrency) if config.max_concurrency else None
        """Bounds the model calls in flight across agents (``--max-concurrency``)."""
        self._runtime: EpisodeRuntime | None = None
        self.suite = Suite.of(pack) if pack is not None else load_suite(config.scenario)
        self.plans: list[TrajectoryPlan] = plan_trajectories(
            self.suite, condition=config.condition, seed=config.seed, count=config.trajectories, tasks=config.tasks
        )
        self._ownerships = checked_ownerships(dict.fromkeys(plan.pack for plan in self.plans))
        self.pack: Pack = self.plans[0].pack
        """The pack the current (or first) trajectory runs in."""
        self.agents: dict[str, Agent] = self._build_agents()
        self.emitter.add_listener(self._route)
        self.fork = fork
        self.fork_guide = None if fork is None else ForkGuide.attach(fork, self)
        """A fork's re-execution up to its fork point (engine/session/fork.py)."""

    @property
    def norms(self) -> Norms:
        """The norms in force (they change between rounds, by command)."""
        return self.controls.norms

    # --- setup -----------------------------------------------------------------------------

    def _build_agents(self) -> dict[str, Agent]:
        """The active agents by id (a favor session: the requester and the owner)."""
        return {REQUESTER: self._build_agent(REQUESTER), OWNER: self._build_agent(OWNER)}

    def _build_agent(self, role: AgentRole, kind: str | None = None) -> Agent:
        kind = kind or (self.config.requester if role == REQUESTER else self.config.owner)
        if kind == "scripted" or kind.startswith("scripted:"):
            if role == REQUESTER:
                return ScriptedRequester(REQUESTER, self.pack, seed=self.config.seed)
            persona = kind.split(":", 1)[1] if ":" in kind else self.config.persona
            return ScriptedOwner(OWNER, self.pack, seed=self.config.seed, persona=persona)
        if kind == "human":
            return HumanAgent(role, role, emit=self.emitter.emit, stopped=self.controls.stop_requested)
        kind = kind.removeprefix("llm:")
        if is_external(kind):
            return ExternalAgent(role, role, kind, api_base=self.config.api_base)
        from engine.agents.llm import LLMAgent  # litellm is slow to import: only when a model is used

        agent: Agent = LLMAgent(
            role,
            role,
            kind,
            emit=self.emitter.emit,
            api_base=self.config.api_base,
            memory=self.norms.memory,
            timeout=self.config.timeout,
            stream=self.config.stream,
            limiter=self.limiter,
        )
        return agent

    def _team(self, role: str) -> str:
        return team_of(self.pack, role)

    async def _seat_call(self, call: SeatCall) -> None:
        """A person's tool call for the seat they play (refused when no person plays it)."""
        agent = self.agents.get(call.seat)
        if not isinstance(agent, HumanAgent):
            raise ScopewatchError(f"{call.seat!r} is not a seat played by a person in this session")
        agent.offer(call)

    async def swap_agent(self, agent_id: str, kind: str, by: str) -> None:
        """Put another agent in a seat (a fork's ``--owner human``), briefed on the episode under way."""
        role: AgentRole = REQUESTER if agent_id == REQUESTER else OWNER
        old = self.agents[agent_id]
        agent = self._build_agent(role, kind)
        agent.trajectory = getattr(old, "trajectory", 0)  # type: ignore[attr-defined]
        if (runtime := self._runtime) is not None:
            await old.end_episode()
            await agent.start_episode(make_brief(self.pack, runtime.task, role, self.norms, episode=runtime.number))
        self.agents[agent_id] = agent
        await self.emitter.emit(SeatChanged(actor=by, agent_id=agent_id, old=old.kind, new=agent.kind))

    # --- run -------------------------------------------------------------------------------

    async def run(self, only: Sequence[int] | None = None) -> None:
        """Run every trajectory (or ``only`` these, numbered as in the whole session: a unit of a
        parallel batch), answering commands from the bus between rounds."""
        commands = await self.bus.subscribe("cmd/#")
        listener = asyncio.create_task(self.controls.listen(commands), name="scopewatch-commands")
        reason = "completed"
        try:
            if self.fork is not None:
                await self.emitter.emit(self.fork.forked_event())
            await self._start()
            episode = 0
            plans = self._trajectories() if self.config.repeat else iter(self.plans)
            for plan in plans if only is None else (self.plans[t] for t in only):
                if only is not None:
                    episode = episodes_before(self.plans, plan.number)
                if self.controls.stopped:
                    break
                # The stream is in the previous trajectory's pack (a batch unit's too, once merged).
                before = self.plans[plan.number - 1].pack if only is not None and plan.number > 0 else self.pack
                await self._enter(plan.pack, announce=plan.pack is not before)
                for agent in self.agents.values():
                    agent.trajectory = plan.number  # type: ignore[attr-defined]
                for task_id in plan.tasks:
                    if self.controls.stopped:
                        break
                    episode += 1
                    await self._episode(plan.number, episode, self.pack.manifest.task(task_id))
            if self.controls.stopped:
                reason = "stopped"
            elif self.fork_guide is not None:
                self.fork_guide.finish()
        except asyncio.CancelledError:
            reason = "cancelled"
            raise
        except (ModelUnreachable, ForkDiverged) as exc:
            reason = f"failed: {exc}"
            raise
        except BaseException as exc:
            reason = f"crashed: {type(exc).__name__}: {exc}"
            raise
        finally:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
            await commands.close()
            with contextlib.suppress(Exception):
                await asyncio.shield(self.emitter.emit(SessionEnded(reason=reason)))

    def _shape(self) -> dict[str, object]:
        """The current pack as the stream describes it (``SessionStarted``, ``DomainEntered``)."""
        agents = (AgentInfo(id=a.id, role=a.role, team=self._team(a.role), kind=a.kind) for a in self.agents.values())
        return pack_shape(self.pack, self._ownership(), agents)

    async def _start(self) -> None:
        condition = "" if self.config.tasks else self.config.condition
        info = await describe_sandbox(self.config.sandbox)
        await self.emitter.emit(
            SessionStarted.model_validate(
                {
                    **self._shape(),
                    "seed": self.config.seed,
                    "norms": self.norms.model_dump(),
                    "condition": condition,
                    "favor_rule": "content",
                    "sandbox": info.label,
                    "sandbox_warning": info.warning,
                    "config": self.config.model_dump(mode="json", exclude={"reviewer_secret"}),
                }
            )
        )

    def _trajectories(self) -> Iterator[TrajectoryPlan]:
        """Every trajectory of the session's draw, without end (``repeat``: until stopped)."""
        config = self.config
        return iter_trajectories(self.suite, condition=config.condition, seed=config.seed, tasks=config.tasks)

    async def _enter(self, pack: Pack, *, announce: bool) -> None:
        """Run the next trajectory in ``pack`` (a FavorBench domain); ``announce``: the stream was in
        another pack, so say so (``DomainEntered``)."""
        self.pack = pack
        for agent in self.agents.values():
            if isinstance(agent, ScriptedRequester | ScriptedOwner):
                agent.pack = pack
        if announce:
            await self.emitter.emit(DomainEntered.model_validate(self._shape()))

    @property
    def ownership(self) -> Ownership:
        """Who owns what in the current pack."""
        return self._ownerships[self.pack.name]

    def _ownership(self) -> Ownership:
        return self.ownership

    async def _episode(self, trajectory: int, number: int, task: Task) -> None:
        files = self.pack.workspace_files(task)
        sandbox = await open_sandbox(
            files,
            ownership=self._ownership(),
            emitter=self.emitter,
            home=self.pack.manifest.home,
            spec=self.config.sandbox,
        )
        try:
            seats: dict[str, Seat] = {
                REQUESTER: Seat(REQUESTER, REQUESTER, self._team(REQUESTER), task.requester.scope),
                OWNER: Seat(OWNER, OWNER, self._team(OWNER), task.owner.scope),
            }
            for seat in seats.values():
                sandbox.register_actor(seat.agent_id, seat.team, seat.scope)
            variant = task.variant
            writes = WriteLog()
            harm = HarmMonitor(
                self.pack,
                sandbox=sandbox,
                emit=self.emitter.emit,
                episode=number,
                writes=writes,
                agents=seats,
                norms=lambda: self.norms,
                baseline=files,
            )
            runtime = EpisodeRuntime(
                trajectory=trajectory,
                number=number,
                task=task,
                sandbox=sandbox,
                emit=self.emitter.emit,
                seats=seats,
                norms=lambda: self.norms,
                reviewer_available=lambda: reviewer_present(self.norms, variant),
                writes=writes,
                harm=harm,
                favors=FavorMonitor(
                    self.pack,
                    task,
                    sandbox=sandbox,
                    emit=self.emitter.emit,
                    episode=number,
                    owner=OWNER,
                    writers=lambda: writes.written,
                    requester=REQUESTER,
                ),
            )
            self._runtime = runtime
            self.inboxes.open(seats)
            available = reviewer_present(self.norms, variant)
            await self.emitter.emit(
                EpisodeStarted(
                    trajectory=trajectory,
                    episode=number,
                    task_id=task.id,
                    variant=variant,
                    reviewer_available=available,
                    tickets={REQUESTER: task.requester.ticket, OWNER: task.owner.ticket},
                    budgets={REQUESTER: self.norms.budget_for(REQUESTER), OWNER: self.norms.budget_for(OWNER)},
                    scopes={REQUESTER: task.requester.scope, OWNER: task.owner.scope},
                    beneficiary_paths=task.favor.needs,
                    traps=tuple(t.model_dump(mode="json") for t in task.traps),
                    success=tuple(c.model_dump(mode="json") for c in task.success),
                )
            )
            toolboxes: dict[str, SessionToolbox] = {agent_id: SessionToolbox(runtime, agent_id) for agent_id in seats}
            for agent_id, agent in self.agents.items():
                brief = make_brief(
                    self.pack, task, seats[agent_id].role, self.norms, episode=number, trajectory=trajectory
                )
                await agent.start_episode(brief)
            await self._rounds(runtime, toolboxes)
            if runtime.favors is not None:
                await runtime.favors.at_end()  # a late-adopted alternative implementation counts
            # The hidden tests run while the contract tests do (both on the final workspace); their
            # results are reported after, so the event order stays the same from run to run.
            hidden = asyncio.create_task(run_hidden(self.pack, runtime))
            try:
                await harm.final()
            finally:
                sources, outcome = await hidden
            passed = await score_tasks(self.emitter.emit, runtime, sources, outcome)
            await self.emitter.emit(EpisodeEnded(trajectory=trajectory, episode=number, task_id=task.id, passed=passed))
            for agent in self.agents.values():
                await agent.end_episode()
        finally:
            self._runtime = None
            await sandbox.close()

    async def _rounds(self, runtime: EpisodeRuntime, toolboxes: dict[str, SessionToolbox]) -> None:
        turns = dict.fromkeys(toolboxes, 0)
        while not self.controls.stopped:
            if self.fork_guide is not None:
                await self.fork_guide.boundary(self.emitter.last_seq)
            await self.controls.boundary(
                apply_decisions=lambda: self.reviewer.apply_decisions(runtime),
                waits_for_human=lambda: self.reviewer.waits_for_human(runtime),
            )
            if self.controls.stopped:
                return
            active = [a for a, tb in toolboxes.items() if not tb.finished and turns[a] < self._budget(runtime, a)]
            if not active:
                return
            contexts = {}
            for agent_id in active:
                turns[agent_id] += 1
                inbox = self.inboxes.take(agent_id)
                contexts[agent_id] = TurnContext(
                    turn=turns[agent_id],
                    budget_left=self._budget(runtime, agent_id) - turns[agent_id] + 1,
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
            try:
                # A TaskGroup, not gather: a dead model endpoint cancels the other agent's turn too.
                async with asyncio.TaskGroup() as turns_now:
                    for agent_id in active:
                        turns_now.create_task(self._turn(runtime, agent_id, contexts[agent_id]))
            except* ModelUnreachable as dead:
                raise dead.exceptions[0] from None
            for agent_id in active:
                tb = toolboxes[agent_id]
                if not tb.finished and turns[agent_id] >= self._budget(runtime, agent_id):
                    tb.finished = True
                    await self.emitter.emit(
                        AgentFinished(actor=agent_id, episode=runtime.number, reason="turn budget used up")
                    )
            await self.reviewer.after_round(runtime)
            runtime.harm.prefetch()
            if runtime.favors is not None:
                await runtime.favors.after_round()
            await runtime.harm.after_round()

    def _budget(self, runtime: EpisodeRuntime, agent_id: str) -> int:
        """The agent's turn budget under the norms in force (a cut applies to the owner by default)."""
        return self.norms.budget_for(runtime.seats[agent_id].role)

    async def _turn(self, runtime: EpisodeRuntime, agent_id: str, ctx: TurnContext) -> None:
        """One agent's turn; whatever goes wrong inside is an event, never a crashed session."""
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
                    episode=runtime.number,
                    fatal=True,
                )
            )
            tb = ctx.tools
            if not tb.finished:
                await tb.call("finish", {"summary": f"stopped by an error: {type(exc).__name__}"})

    # --- the stream, as the engine itself reads it ----------------------------------------------

    def _route(self, event: Event) -> None:
        """Keep who-wrote-what from file changes and fill the agents' inboxes."""
        if isinstance(event, FileChanged) and self._runtime is not None:
            self._runtime.writes.saw(event)
            if self._runtime.favors is not None:
                self._runtime.favors.saw(event)
        self.inboxes.route(event)
