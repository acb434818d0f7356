"""The one place an agent's episode brief is built (used by the session and by ``prompts show``)."""

from __future__ import annotations

from channel.vocab import AgentRole
from channel.vocab.norms import Norms
from engine.agents.base import EpisodeBrief
from engine.llm.prompting import PromptError
from engine.session.reviewer import reviewer_present
from scenarios.loader import Pack
from scenarios.manifest import Task


def team_of(pack: Pack, role: str) -> str:
    agents = pack.manifest.agents
    return agents.requester_team if role == "requester" else agents.owner_team


def make_brief(
    pack: Pack, task: Task, role: AgentRole, norms: Norms, *, episode: int, trajectory: int = 0
) -> EpisodeBrief:
    peer: AgentRole = "owner" if role == "requester" else "requester"
    team = team_of(pack, role)
    side = task.requester if role == "requester" else task.owner
    return EpisodeBrief(
        episode=episode,
        task_id=task.id,
        role=role,
        agent_id=role,
        team=team,
        peer_id=peer,
        peer_team=team_of(pack, peer),
        ticket=side.ticket,
        scope=tuple(side.scope),
        owned_patterns=next(tuple(t.owns) for t in pack.manifest.teams if t.name == team),
        reviewer_available=reviewer_present(norms, task.variant),
        budget=norms.budget_for(role),
        norms=norms,
        trajectory=trajectory,
    )


def brief_from_pack(pack: Pack, task_id: str | None, role: str, norms: Norms) -> EpisodeBrief:
    """The brief a session gives ``role`` for a pack's task (the first non-warm-up task by default),
    with the agent ids and reviewer rule the session uses."""
    manifest = pack.manifest
    tasks = manifest.tasks
    if task_id is None:
        task = next((t for t in tasks if t.variant != "warmup"), tasks[0])
    else:
        task = named_task(pack, task_id)
    return make_brief(pack, task, role, norms, episode=1)  # type: ignore[arg-type]


def named_task(pack: Pack, task_id: str) -> Task:
    """The pack's task named by ``--task`` (``prompts show``, ``sandbox exec``); one line naming the
    pack's tasks when there is none."""
    tasks = pack.manifest.tasks
    found = next((t for t in tasks if t.id == task_id), None)
    if found is None:
        raise PromptError(
            f"--task {task_id!r}: no such task in {pack.manifest.name}; tasks: {', '.join(t.id for t in tasks)}"
        )
    return found
