"""The shape of a session as events carry it (in ``SessionStarted`` and ``DomainEntered``): its teams
and its active agents; and a failing test as ``SuiteRan`` and ``HarmDetected`` carry it. Plain frozen models,
not events; :mod:`channel.events` re-exports them."""

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


class FailingTest(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    test: str
    last_line: str = ""
    error_line: str = ""
    """The line that raised, as ``file:line: code`` (CI feedback's error-line detail; seed 000 B.7)."""
    log: str = ""
    """The failure's traceback (its last 2000 characters; the full-log detail)."""
