"""The favor episode (seed 000, FavorBench): a requester and an owner, each with its own task, in a
workspace of services owned by teams, some of them absent.

What this kind adds to the round loop: the suite's trajectories under a condition (FavorBench's
domains, each trajectory in one pack); scripted, human, LLM or external agents in the two seats;
the reviewer's scripted decisions, the favor checks by content and the absent teams' contract tests
after every round; at the end the favor check once more on the end state (``FavorChecked.stage``),
the contract tests and the hidden task tests on the final workspace, ``SuiteRan`` per agent and
``EpisodeEnded`` with who passed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence

from channel.events import AgentInfo, DomainEntered, EpisodeEnded, EpisodeStarted, SessionStarted
from channel.vocab import AgentRole
from channel.vocab.config import SessionConfig
from engine.agents.acp_launch import is_acp
from engine.agents.base import Agent, EpisodeBrief
from engine.agents.external import ExternalAgent, is_external
from engine.agents.human import HumanAgent
from engine.agents.scripted import ScriptedOwner, ScriptedRequester
from engine.session.briefs import make_brief, team_of
from engine.session.episode import EpisodeRuntime, Seat
from engine.session.favors import FavorMonitor
from engine.session.harm import HarmMonitor
from engine.session.hidden import run_hidden, score_tasks
from engine.session.kind import BoundKind, Episode, LoopParts, Plan
from engine.session.packs import checked_ownerships, pack_shape
from engine.session.reviewer import reviewer_present
from engine.session.toolbox import SessionToolbox
from engine.session.trajectory import TrajectoryPlan, iter_trajectories, plan_trajectories, resolve_draw
from engine.session.writes import WriteLog
from sandbox.backends.opener import describe_sandbox, open_sandbox
from sandbox.workspace.ownership import Ownership
from scenarios.loader import Pack
from scenarios.manifest import Task
from scenarios.suite import Suite, load_suite

REQUESTER: AgentRole = "requester"
OWNER: AgentRole = "owner"


class FavorEpisodes(BoundKind[TrajectoryPlan]):
    """The favor episodes of a suite (its packs), drawn into trajectories by the session's config."""

    name = "favor"

    def __init__(self, suite: Suite) -> None:
        self.suite = suite
        self._parts: LoopParts | None = None
        self._plans: list[TrajectoryPlan] = []
        self._ownerships: dict[str, Ownership] = {}
        self.pack: Pack = suite.packs[0]
        """The pack the current (or first) trajectory runs in."""

    @classmethod
    def of(cls, scenario: str, pack: Pack | None = None) -> FavorEpisodes:
        """The kind for a scenario (a pack's folder or name, or a suite such as favorbench), or ``pack``."""
        return cls(Suite.of(pack) if pack is not None else load_suite(scenario))

    def bind(self, parts: LoopParts) -> None:
        super().bind(parts)
        self._ownerships = checked_ownerships(dict.fromkeys(plan.pack for plan in self._plans))
        self.pack = self._plans[0].pack

    def trajectories(self, config: SessionConfig) -> list[TrajectoryPlan]:
        return plan_trajectories(
            self.suite,
            condition=config.condition,
            seed=config.seed,
            count=config.trajectories,
            tasks=config.tasks,
            trajectory=config.trajectory,
        )

    @property
    def plans(self) -> Sequence[TrajectoryPlan]:
        return self._plans

    def endless(self) -> Iterator[TrajectoryPlan]:
        config = self.parts.config
        return iter_trajectories(
            self.suite, condition=config.condition, seed=config.seed, tasks=config.tasks, trajectory=config.trajectory
        )

    @property
    def seats(self) -> tuple[str, ...]:
        return (REQUESTER, OWNER)

    @property
    def ownership(self) -> Ownership:
        """Who owns what in the current pack."""
        return self._ownerships[self.pack.name]

    # --- agents ------------------------------------------------------------------------------

    def build_agents(self) -> dict[str, Agent]:
        return {REQUESTER: self.seat_agent(REQUESTER, ""), OWNER: self.seat_agent(OWNER, "")}

    def seat_agent(self, seat: str, kind: str) -> Agent:
        parts = self.parts
        config = parts.config
        role: AgentRole = REQUESTER if seat == REQUESTER else OWNER
        kind = kind or (config.requester if role == REQUESTER else config.owner)
        if kind == "scripted" or kind.startswith("scripted:"):
            if role == REQUESTER:
                return ScriptedRequester(REQUESTER, self.pack, seed=config.seed)
            persona = kind.split(":", 1)[1] if ":" in kind else config.persona
            return ScriptedOwner(OWNER, self.pack, seed=config.seed, persona=persona)
        if kind == "human":
            return HumanAgent(role, role, emit=parts.emitter.emit, stopped=parts.controls.stop_requested)
        if is_acp(kind):
            from engine.agents.acp import ACPAgent  # the acp package's schema is slow to import: only when used

            return ACPAgent(role, role, kind, emit=parts.emitter.emit, stopped=parts.controls.stop_requested,
                            api_base=config.api_base, startup_timeout=config.timeout, turn_timeout=config.turn_timeout)
        kind = kind.removeprefix("llm:")
        if is_external(kind):
            return ExternalAgent(role, role, kind, api_base=config.api_base, turn_timeout=config.turn_timeout,
                                 emit=parts.emitter.emit)
        from engine.agents.llm import LLMAgent  # litellm is slow to import: only when a model is used

        agent: Agent = LLMAgent(
            role,
            role,
            kind,
            emit=parts.emitter.emit,
            api_base=config.api_base,
            memory=parts.norms().memory,
            timeout=config.timeout,
            stream=config.stream,
            limiter=parts.limiter,
            max_tokens=config.max_tokens,
        )
        return agent

    # --- the stream ----------------------------------------------------------------------------

    def _shape(self, agents: Sequence[Agent]) -> dict[str, object]:
        """The current pack as the stream describes it (``SessionStarted``, ``DomainEntered``)."""
        infos = (AgentInfo(id=a.id, role=a.role, team=team_of(self.pack, a.role), kind=a.kind) for a in agents)
        return pack_shape(self.pack, self.ownership, infos)

    async def started(self, agents: Sequence[Agent]) -> SessionStarted:
        config = self.parts.config
        condition = "" if config.tasks else resolve_draw(self.suite, config.condition, config.trajectory).condition
        if not config.tasks and condition is None and config.trajectory is None:
            # Each pack's first own trajectory: its config names it, as --trajectory NAME would (the same order).
            firsts = {p.manifest.trajectories[0].name if p.manifest.trajectories else None for p in self.suite.packs}
            if len(firsts) == 1 and None not in firsts:
                config = config.model_copy(update={"trajectory": firsts.pop()})
        condition = condition or ""
        info = await describe_sandbox(config.sandbox)
        return SessionStarted.model_validate(
            {
                **self._shape(agents),
                "seed": config.seed,
                "norms": self.parts.norms(),
                "condition": condition,
                "favor_rule": "content",
                "sandbox": info.label,
                "sandbox_warning": info.warning,
                "config": config,  # recorded without the reviewer secret
            }
        )

    async def enter(self, plan: Plan, *, before: Plan | None, agents: Sequence[Agent]) -> None:
        """Run the next trajectory in its pack (a FavorBench domain); when the stream was in another
        pack, say so (``DomainEntered``)."""
        assert isinstance(plan, TrajectoryPlan)
        previous = self.pack if before is None else self._plan_pack(before)
        self.pack = plan.pack
        for agent in agents:
            if isinstance(agent, ScriptedRequester | ScriptedOwner):
                agent.pack = plan.pack
        if plan.pack is not previous:
            await self.parts.emitter.emit(DomainEntered.model_validate(self._shape(agents)))

    def _plan_pack(self, plan: Plan) -> Pack:
        return plan.pack if isinstance(plan, TrajectoryPlan) else self.pack

    # --- one episode ---------------------------------------------------------------------------

    async def open_episode(self, plan: Plan, number: int, task_id: str) -> Episode:
        parts = self.parts
        emit = parts.emitter.emit
        task = self.pack.manifest.task(task_id)
        files = self.pack.workspace_files(task)
        sandbox = await open_sandbox(
            files,
            ownership=self.ownership,
            emitter=parts.emitter,
            home=self.pack.manifest.home,
            spec=parts.config.sandbox,
            test_timeout=parts.config.test_timeout,
        )
        try:
            seats: dict[str, Seat] = {
                REQUESTER: Seat(REQUESTER, REQUESTER, team_of(self.pack, REQUESTER), task.requester.scope),
                OWNER: Seat(OWNER, OWNER, team_of(self.pack, OWNER), task.owner.scope),
            }
            for seat in seats.values():
                sandbox.register_actor(seat.agent_id, seat.team, seat.scope)
            writes = WriteLog()
            harm = HarmMonitor(
                self.pack,
                sandbox=sandbox,
                emit=emit,
                episode=number,
                writes=writes,
                agents=seats,
                norms=parts.norms,
                baseline=files,
            )
            runtime = EpisodeRuntime(
                trajectory=plan.number,
                number=number,
                task=task,
                sandbox=sandbox,
                emit=emit,
                seats=seats,
                norms=parts.norms,
                reviewer_available=lambda: reviewer_present(parts.norms(), task.variant),
                writes=writes,
                harm=harm,
                favors=FavorMonitor(
                    self.pack,
                    task,
                    sandbox=sandbox,
                    emit=emit,
                    episode=number,
                    owner=OWNER,
                    writers=lambda: writes.written,
                    requester=REQUESTER,
                ),
            )
        except BaseException:
            await sandbox.close()
            raise
        toolboxes = {agent_id: SessionToolbox(runtime, agent_id) for agent_id in seats}
        return Episode(task_id, runtime, dict(toolboxes))

    def _task(self, episode: Episode) -> Task:
        return self.pack.manifest.task(episode.task_id)

    async def begin(self, episode: Episode) -> None:
        runtime, task, norms = episode.runtime, self._task(episode), self.parts.norms()
        await self.parts.emitter.emit(
            EpisodeStarted(
                trajectory=runtime.trajectory,
                episode=runtime.number,
                task_id=task.id,
                variant=task.variant,
                reviewer_available=reviewer_present(norms, task.variant),
                tickets={REQUESTER: task.requester.ticket, OWNER: task.owner.ticket},
                budgets={REQUESTER: norms.budget_for(REQUESTER), OWNER: norms.budget_for(OWNER)},
                scopes={REQUESTER: task.requester.scope, OWNER: task.owner.scope},
                beneficiary_paths=task.favor.needs,
                traps=task.traps,
                success=task.success,
            )
        )

    def brief(self, episode: Episode, agent_id: str) -> EpisodeBrief:
        runtime = episode.runtime
        role = runtime.seats[agent_id].role
        return make_brief(
            self.pack,
            self._task(episode),
            role,
            self.parts.norms(),
            episode=runtime.number,
            trajectory=runtime.trajectory,
        )

    async def after_round(self, episode: Episode) -> None:
        runtime = episode.runtime
        await self.parts.reviewer.after_round(runtime, self._task(episode))
        runtime.harm.prefetch()
        if runtime.favors is not None:
            await runtime.favors.after_round()
        await runtime.harm.after_round()

    async def close(self, episode: Episode) -> None:
        runtime, task = episode.runtime, self._task(episode)
        if runtime.favors is not None:
            await runtime.favors.at_end()  # a late-adopted alternative implementation counts
        # The hidden tests run while the contract tests do (both on the final workspace); their
        # results are reported after, so the event order stays the same from run to run.
        hidden = asyncio.create_task(run_hidden(self.pack, task, runtime))
        try:
            await runtime.harm.final()
        finally:
            sources, outcome = await hidden
        passed = await score_tasks(self.parts.emitter.emit, runtime, sources, outcome)
        await self.parts.emitter.emit(
            EpisodeEnded(trajectory=runtime.trajectory, episode=runtime.number, task_id=task.id, passed=passed)
        )
