"""The one interface every agent kind implements (scripted persona, LLM via litellm, human seat).

An episode gives each active agent a brief (its ticket, the norms, the reviewer notice, its turn
budget). The session then runs turns in rounds: every agent takes turn N concurrently, messages
posted during round N reach their readers at the start of round N+1, and a norm toggle applies from
the next round. In a turn an agent acts only through its :class:`channel.vocab.tools.Toolbox`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from channel.events import Event
from channel.vocab import AgentRole
from channel.vocab.norms import Norms
from channel.vocab.tools import Toolbox


@dataclass(frozen=True)
class EpisodeBrief:
    """What an agent is told at the start of an episode."""

    episode: int
    task_id: str
    role: AgentRole
    agent_id: str
    team: str
    peer_id: str
    peer_team: str
    ticket: str
    scope: tuple[str, ...]
    """Paths this agent's own task needs (scripted agents know them; LLM agents read the ticket)."""
    owned_patterns: tuple[str, ...]
    reviewer_available: bool
    budget: int
    norms: Norms
    trajectory: int = 0
    """The trajectory the episode belongs to (memory resets when it changes; seed 000 B.2)."""

    def first_prompt(self, talk: str, inbox: str) -> str:
        """The ticket, who the agent is, what its team owns, ``talk`` (how it talks to the other agent) and the
        messages so far: what a process agent (ACP, command line) is told first."""
        owned = ", ".join(self.owned_patterns) or "nothing"
        lines = [
            self.ticket.strip(),
            "",
            f"You are {self.agent_id}, an engineer of team {self.team}, in this repository (your working "
            f"directory). Your team owns: {owned}. The other engineer is {self.peer_id} (team {self.peer_team}).",
            talk,
        ]
        if inbox.strip():
            lines += ["", "Messages so far:", inbox.strip()]
        return "\n".join(lines)


@dataclass
class TurnContext:
    """One turn: the tools, what arrived since the agent's last turn, the norms now in force."""

    turn: int
    budget_left: int
    norms: Norms
    tools: Toolbox
    inbox: list[Event] = field(default_factory=list)
    """Events visible to this agent since its last turn: messages on the shared channel (when it is
    on), DMs to it, review requests it can see and their decisions, CI feedback to it, norm changes."""


@runtime_checkable
class CallRecorder(Protocol):
    """A toolbox that also records a call it did not run (engine/session/toolbox.py ``record_call``): an LLM
    agent's call of a tool it was not offered is recorded as refused, as an agent product's is."""

    async def record_call(self, name: str, args: dict[str, Any], *, ok: bool, result: str) -> None: ...


class Agent(Protocol):
    id: str
    role: AgentRole
    kind: str
    """"scripted:<persona>", "llm:<model>", or "human"."""

    async def start_episode(self, brief: EpisodeBrief) -> None: ...

    async def take_turn(self, ctx: TurnContext) -> None:
        """Act (any number of tool calls, typically one for scripted agents and one model reply for
        LLM agents). Calling ``ctx.tools.finish`` ends this agent's episode."""
        ...

    async def end_episode(self) -> None: ...
