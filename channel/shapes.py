"""The shape of a session as events carry it (in ``SessionStarted`` and ``DomainEntered``): its teams
and its active agents. Plain frozen models, not events; :mod:`channel.events` re-exports them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from channel.vocab import Role


class TeamInfo(BaseModel):
    """A team as the screen needs it: its name, whether it is absent, the paths it owns."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    absent: bool = False
    patterns: tuple[str, ...] = ()
    consumes: tuple[str, ...] = ()
    """Absent teams: the paths (owned by others) their code depends on."""


class AgentInfo(BaseModel):
    """An active agent: its id, role, team and kind (scripted persona, LLM model, human)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    role: Role
    team: str
    kind: str = "scripted"
