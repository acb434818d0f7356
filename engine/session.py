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
import random
import time
import uuid
from collections.abc import Callable
from typing import Any

from channel.bus import Bus, Dropped
from channel.commands import DecideReview, Pause, Resume, SetNorm, SetSpeed, Step, Stop
from channel.emitter import Emitter
from channel.errors import ScopewatchError
from channel.events import (
    AgentErrored,
    AgentFinished,
    AgentInfo,
    CIFeedbackSent,
    CommandRefused,
    EpisodeEnded,
    EpisodeStarted,
    Event,
    FileChanged,
    MessagePosted,
    NormChanged,
    ReviewDecided,
    ReviewRequested,
    SessionEnded,
    SessionPaused,
    SessionResumed,
    SessionStarted,
    SpeedChanged,
    SuiteRan,
    TeamInfo,
    TurnStarted,
)
from channel.recorder import Recorder
from channel.vocab import AgentRole
from engine.agents.base import Agent, TurnContext
from engine.agents.scripted import ScriptedOwner, ScriptedRequester
from engine.briefs import make_brief, reviewer_acts, reviewer_present, team_of
from engine.config import SessionConfig
from engine.episode import EpisodeRuntime, Seat
from engine.harm import HarmMonitor
from engine.norms import NormError, Norms
from engine.secrets import redact
from engine.toolbox import SessionToolbox
from engine.verdict import trap_problems
from sandbox.local import LocalSandbox
from sandbox.ownership import Ownership
from sandbox.testrun import TestOutcome
from scenarios.loader import Pack, load_pack
from scenarios.manifest import Task

REQUESTER: AgentRole = "requester"
OWNER: AgentRole = "owner"


def trajectory_order(pack: Pack, seed: int, trajectory: int, tasks: tuple[str, ...] = ()) -> list[str]:
    """The task ids of one trajectory: warm-ups first, then the rest shuffled by (seed, trajectory)."""
    if tasks:
        return list(tasks)
    manifest = pack.manifest
    ids = list(manifest.trajectories[0].tasks) if manifest.trajectories else [t.id for t in manifest.tasks]
    warmups = [i for i in ids if manifest.task(i).variant == "warmup"]
    rest = [i for i in ids if manifest.task(i).variant != "warmup"]
    random.Random(f"{seed}:{trajectory}").shuffle(rest)
    return warmups + rest


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
    ) -> None:
        self.config = config
        self.bus = bus
        self.id = session_id or f"s-{uuid.uuid4().hex[:8]}"
        self.emitter = Emitter(bus, self.id, recorder=recorder, clock=clock)
        self.norms: Norms = config.norms
        self._pending_norms: list[tuple[str, Any, str]] = []
        self._decisions: list[DecideReview] = []
        self._running = asyncio.Event()
        self._running.set()
        self._steps = 0
        self._wake = asyncio.Event()
        self._stopped = False
        self._speed = 1.0
        self._runtime: EpisodeRuntime | None = None
        self._inboxes: dict[str, list[Event]] = {}
        self.pack: Pack = load_pack(config.scenario)
        problems = trap_problems(self.pack)
        if problems:
            raise ScopewatchError(problems[0])
        try:
            self.ownership = Ownership.from_teams([(t.name, list(t.owns)) for t in self.pack.manifest.teams])
        except ScopewatchError as exc:
            raise ScopewatchError(f"{self.pack.manifest_path}: teams.owns: {exc}") from None
        self.agents: dict[str, Agent] = {REQUESTER: self._build_agent(REQUESTER), OWNER: self._build_agent(OWNER)}
        self.emitter.add_listener(self._route)

    # --- setup -----------------------------------------------------------------------------

    def _build_agent(self, role: AgentRole) -> Agent:
        kind = self.config.requester if role == REQUESTER else self.config.owner
        if kind == "scripted":
            if role == REQUESTER:
                return ScriptedRequester(REQUESTER, self.pack, seed=self.config.seed)
            return ScriptedOwner(OWNER, self.pack, seed=self.config.seed, persona=self.config.persona)
        if kind == "human":
            raise ScopewatchError("the human agent seat is not available yet; use 'scripted' or a model")
        from engine.agents.llm import LLMAgent  # litellm is slow to import: only when a model is used

        agent: Agent = LLMAgent(
            role, role, kind, emit=self.emitter.emit, api_base=self.config.api_base, memory=self.norms.memory
        )
        return agent

    def _team(self, role: str) -> str:
        return team_of(self.pack, role)

    # --- run -------------------------------------------------------------------------------

    async def run(self) -> None:
        """Run every trajectory, answering commands from the bus between rounds."""
        commands = await self.bus.subscribe("cmd/#")
        listener = asyncio.create_task(self._listen(commands), name="scopewatch-commands")
        reason = "completed"
        try:
            await self._start()
            episode = 0
            for trajectory in range(self.config.trajectories):
                for agent in self.agents.values():
                    agent.trajectory = trajectory  # type: ignore[attr-defined]
                for task_id in trajectory_order(self.pack, self.config.seed, trajectory, self.config.tasks):
                    if self._stopped:
                        break
                    episode += 1
                    await self._episode(trajectory, episode, self.pack.manifest.task(task_id))
            if self._stopped:
                reason = "stopped"
        except asyncio.CancelledError:
            reason = "cancelled"
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

    async def _start(self) -> None:
        manifest = self.pack.manifest
        ownership = self._ownership()
        files = {path: ownership.owner_of(path) for path in sorted(self.pack.repo_files())}
        await self.emitter.emit(
            SessionStarted(
                scenario=manifest.name,
                seed=self.config.seed,
                norms=self.norms.model_dump(),
                teams=tuple(
                    TeamInfo(name=t.name, absent=t.absent, patterns=t.owns, consumes=t.consumes) for t in manifest.teams
                ),
                agents=tuple(
                    AgentInfo(id=a.id, role=a.role, team=self._team(a.role), kind=a.kind) for a in self.agents.values()
                ),
                files=files,
                traps=tuple(t.model_dump(mode="json") for t in manifest.traps),
            )
        )

    def _ownership(self) -> Ownership:
        return self.ownership

    async def _episode(self, trajectory: int, number: int, task: Task) -> None:
        files = self.pack.workspace_files(task)
        sandbox = await LocalSandbox.create(files, ownership=self._ownership(), emitter=self.emitter)
        for name, content in self.pack.manifest.home.items():
            fixture = sandbox.home / name
            fixture.parent.mkdir(parents=True, exist_ok=True)
            fixture.write_text(content, encoding="utf-8")
        harm = HarmMonitor(self.pack)
        try:
            seats: dict[str, Seat] = {
                REQUESTER: Seat(REQUESTER, REQUESTER, self._team(REQUESTER), task.requester.scope),
                OWNER: Seat(OWNER, OWNER, self._team(OWNER), task.owner.scope),
            }
            for seat in seats.values():
                sandbox.register_actor(seat.agent_id, seat.team, seat.scope)
            variant = task.variant
            runtime = EpisodeRuntime(
                trajectory=trajectory,
                number=number,
                task=task,
                sandbox=sandbox,
                emit=self.emitter.emit,
                seats=seats,
                norms=lambda: self.norms,
                reviewer_available=lambda: reviewer_present(self.norms, variant),
                harm=harm,
            )
            self._runtime = runtime
            self._inboxes = {agent_id: [] for agent_id in seats}
            budget = self.norms.turn_budget
            available = reviewer_present(self.norms, variant)
            await self.emitter.emit(
                EpisodeStarted(
                    trajectory=trajectory,
                    episode=number,
                    task_id=task.id,
                    variant=variant,
                    reviewer_available=available,
                    tickets={REQUESTER: task.requester.ticket, OWNER: task.owner.ticket},
                    budgets={REQUESTER: budget, OWNER: budget},
                    scopes={REQUESTER: task.requester.scope, OWNER: task.owner.scope},
                    beneficiary_paths=task.favor.needs,
                    traps=tuple(t.model_dump(mode="json") for t in task.traps),
                    success=tuple(c.model_dump(mode="json") for c in task.success),
                )
            )
            toolboxes: dict[str, SessionToolbox] = {agent_id: SessionToolbox(runtime, agent_id) for agent_id in seats}
            for agent_id, agent in self.agents.items():
                await agent.start_episode(make_brief(self.pack, task, seats[agent_id].role, self.norms, episode=number))
            await self._rounds(runtime, toolboxes, harm)
            # The hidden tests run while the contract tests do (both on the final workspace); their
            # results are reported after, so the event order stays the same from run to run.
            hidden = asyncio.create_task(self._run_hidden(runtime))
            try:
                await harm.final(runtime)
            finally:
                sources, outcome = await hidden
            passed = await self._score_tasks(runtime, sources, outcome)
            await self.emitter.emit(EpisodeEnded(trajectory=trajectory, episode=number, task_id=task.id, passed=passed))
            for agent in self.agents.values():
                await agent.end_episode()
        finally:
            self._runtime = None
            await sandbox.close()

    async def _rounds(self, runtime: EpisodeRuntime, toolboxes: dict[str, SessionToolbox], harm: HarmMonitor) -> None:
        turns = dict.fromkeys(toolboxes, 0)
        while not self._stopped:
            await self._boundary(runtime)
            if self._stopped:
                return
            active = [a for a, tb in toolboxes.items() if not tb.finished and turns[a] < self.norms.turn_budget]
            if not active:
                return
            contexts = {}
            for agent_id in active:
                turns[agent_id] += 1
                inbox, self._inboxes[agent_id] = self._inboxes[agent_id], []
                contexts[agent_id] = TurnContext(
                    turn=turns[agent_id],
                    budget_left=self.norms.turn_budget - turns[agent_id] + 1,
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
            await asyncio.gather(*(self._turn(runtime, agent_id, contexts[agent_id]) for agent_id in active))
            for agent_id in active:
                tb = toolboxes[agent_id]
                if not tb.finished and turns[agent_id] >= self.norms.turn_budget:
                    tb.finished = True
                    await self.emitter.emit(
                        AgentFinished(actor=agent_id, episode=runtime.number, reason="turn budget used up")
                    )
            await self._reviewer(runtime)
            await harm.after_round(runtime)

    async def _turn(self, runtime: EpisodeRuntime, agent_id: str, ctx: TurnContext) -> None:
        """One agent's turn; whatever goes wrong inside is an event, never a crashed session."""
        try:
            await self.agents[agent_id].take_turn(ctx)
        except (asyncio.CancelledError, KeyboardInterrupt):
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

    async def _run_hidden(self, runtime: EpisodeRuntime) -> tuple[dict[str, dict[str, str]], TestOutcome]:
        """Every agent's hidden task tests, in one run."""
        sources = {}
        for agent_id, seat in runtime.seats.items():
            role_task = runtime.task.requester if seat.role == REQUESTER else runtime.task.owner
            sources[agent_id] = self.pack.test_sources(role_task.hidden_tests)
        outcome = await runtime.sandbox.run_tests({k: v for tests in sources.values() for k, v in tests.items()})
        return sources, outcome

    async def _score_tasks(
        self, runtime: EpisodeRuntime, sources: dict[str, dict[str, str]], outcome: TestOutcome
    ) -> dict[str, bool]:
        """The hidden tests' outcome, reported per agent."""
        passed: dict[str, bool] = {}
        for agent_id, seat in runtime.seats.items():
            mine = sources[agent_id]
            ok = tuple(t for t in outcome.passed if t.split("::", 1)[0] in mine)
            failed = tuple(f for f in outcome.failed if f.test.split("::", 1)[0] in mine)
            await self.emitter.emit(
                SuiteRan(
                    suite="hidden",
                    team=seat.team,
                    episode=runtime.number,
                    passed=ok,
                    failed=failed,
                    trigger=f"{agent_id}'s task",
                )
            )
            passed[agent_id] = bool(ok) and not failed
        return passed

    # --- the reviewer ------------------------------------------------------------------------

    async def _reviewer(self, runtime: EpisodeRuntime) -> None:
        """The scripted reviewer: when available, approves admin requests that still apply."""
        if not reviewer_acts(self.norms, runtime.task.variant):
            return
        for request_id, request in list(runtime.pending.items()):
            if request.to == "admin" and request_id in runtime.pending:
                await runtime.decide(request_id, "approved", by="reviewer", comment="reviewed and approved")

    # --- between rounds: norms, pause/step, pace, the human reviewer -------------------------

    async def _boundary(self, runtime: EpisodeRuntime) -> None:
        while True:
            await self._apply_norms()
            await self._apply_decisions(runtime)
            if self._stopped:
                return
            if self.norms.reviewer == "human" and any(r.to == "admin" for r in runtime.pending.values()):
                await self._wait_for_command()
                continue
            if not self._running.is_set():
                if self._steps > 0:
                    self._steps -= 1
                    break
                await self._wait_for_command()
                continue
            break
        if self.config.pace:
            await asyncio.sleep(self.config.pace / self._speed)

    async def _wait_for_command(self) -> None:
        self._wake.clear()
        await self._wake.wait()

    async def _apply_norms(self) -> None:
        pending, self._pending_norms = self._pending_norms, []
        for key, value, by in pending:
            try:
                new = self.norms.with_value(key, value)
            except NormError as exc:
                await self.emitter.emit(CommandRefused(actor=by, command="SetNorm", reason=str(exc)))
                continue
            old, self.norms = getattr(self.norms, key), new
            await self.emitter.emit(
                NormChanged(actor=by, key=key, old=old, new=getattr(new, key), norms=new.model_dump())
            )

    # --- commands ------------------------------------------------------------------------------

    async def _listen(self, commands: Any) -> None:
        async for message in commands:
            if isinstance(message, Dropped):
                continue
            try:
                await self._command(message)
            except Exception as exc:  # a bad command is refused; the listener keeps listening
                reason = str(exc) if isinstance(exc, ScopewatchError) else f"{type(exc).__name__}: {exc}"
                await self.emitter.emit(CommandRefused(command=getattr(message, "kind", "?"), reason=reason))
            self._wake.set()

    async def _command(self, cmd: Any) -> None:
        secret = self.config.reviewer_secret
        if secret is not None and getattr(cmd, "token", None) != secret:
            await self.emitter.emit(
                CommandRefused(actor=cmd.sender, command=cmd.kind, reason="missing or wrong reviewer secret")
            )
            return
        if isinstance(cmd, SetNorm):
            try:
                self.norms.with_value(cmd.key, cmd.value)  # validate now, apply at the next boundary
            except NormError as exc:
                await self.emitter.emit(CommandRefused(actor=cmd.sender, command="SetNorm", reason=str(exc)))
                return
            self._pending_norms.append((cmd.key, cmd.value, cmd.sender))
        elif isinstance(cmd, DecideReview):
            await self._human_decision(cmd)
        elif isinstance(cmd, Pause):
            if self._running.is_set():
                self._running.clear()
                await self.emitter.emit(SessionPaused(actor=cmd.sender))
        elif isinstance(cmd, Resume):
            if not self._running.is_set():
                self._running.set()
                await self.emitter.emit(SessionResumed(actor=cmd.sender))
        elif isinstance(cmd, Step):
            if self._running.is_set():
                self._running.clear()
                await self.emitter.emit(SessionPaused(actor=cmd.sender))
            self._steps += 1
        elif isinstance(cmd, SetSpeed):
            self._speed = cmd.speed
            await self.emitter.emit(SpeedChanged(actor=cmd.sender, speed=cmd.speed))
        elif isinstance(cmd, Stop):
            self._stopped = True

    async def _human_decision(self, cmd: DecideReview) -> None:
        """Queued: decisions are applied between rounds, like every other command's effect."""
        self._decisions.append(cmd)

    async def _apply_decisions(self, runtime: EpisodeRuntime) -> None:
        decisions, self._decisions = self._decisions, []
        for cmd in decisions:
            await self._decide_now(runtime, cmd)

    async def _decide_now(self, runtime: EpisodeRuntime, cmd: DecideReview) -> None:
        request = runtime.pending.get(cmd.request_id)
        if request is None:
            reason = f"no pending review request {cmd.request_id!r}"
        elif request.to != "admin":
            reason = f"request {cmd.request_id} is addressed to {request.to}, not to the reviewer"
        else:
            await runtime.decide(cmd.request_id, cmd.decision, by="human", comment=cmd.comment)
            return
        await self.emitter.emit(CommandRefused(actor=cmd.sender, command="DecideReview", reason=reason))

    # --- what each agent sees --------------------------------------------------------------------

    def _route(self, event: Any) -> None:
        """Deliver events to agents' inboxes (read at their next turn): the shared channel to all,
        DMs to their recipient, admin requests announced on the channel, CI feedback to its target."""
        if isinstance(event, FileChanged) and self._runtime is not None:
            self._runtime.saw(event)
        if not self._inboxes:
            return
        to: list[str] = []
        everyone = [a for a in self._inboxes if a != event.actor]
        if isinstance(event, MessagePosted):
            to = [event.to] if event.to is not None else everyone
        elif isinstance(event, ReviewRequested):
            if event.to in self._inboxes:
                to = [event.to]
            elif self.norms.shared_channel:
                to = everyone
        elif isinstance(event, ReviewDecided):
            to = everyone if self.norms.shared_channel else [a for a in everyone if a == REQUESTER]
        elif isinstance(event, CIFeedbackSent):
            to = [event.to]
        elif isinstance(event, NormChanged):
            to = list(self._inboxes)
        for agent_id in to:
            if agent_id in self._inboxes:
                self._inboxes[agent_id].append(event)
