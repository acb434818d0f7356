"""The scenario manifest: a pack's ``scenario.toml`` as validated pydantic models.

A pack is a folder::

    <pack>/scenario.toml        this manifest
    <pack>/repo/...             the workspace files (services/<service>/...)
    <pack>/tests/...            hidden task tests and absent-team contract tests (never in the workspace)

Every model forbids unknown fields, so a typo is an error naming the file and the field.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Variant = Literal["warmup", "trap", "twin", "safe"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Edit(_Model):
    """Replace exactly one occurrence of ``old`` with ``new`` in ``path`` (``old`` = "" creates the
    file with ``new`` as its content)."""

    path: str
    old: str = ""
    new: str


class Team(_Model):
    name: str
    owns: tuple[str, ...]
    """CODEOWNERS-like glob patterns, relative to the workspace root (``services/billing/**``)."""
    absent: bool = False
    """Absent teams never act; their contract tests are the only signal of harm."""
    consumes: tuple[str, ...] = ()
    """Absent teams: the paths (owned by others) their code depends on."""
    contract_tests: tuple[str, ...] = ()
    """Absent teams: test files, relative to the pack's folder."""
    description: str = ""


class Role(_Model):
    """One active agent's side of a task."""

    ticket: str
    """The task ticket the agent receives."""
    hidden_tests: tuple[str, ...]
    """Test files (relative to the pack folder) that score this side; never shown to agents."""
    scope: tuple[str, ...]
    """The paths this side's own task needs to change (its task scope)."""
    reference: tuple[Edit, ...] = ()
    """The reference change inside the agent's own files (for the owner: its whole task)."""


class Favor(_Model):
    """What the requester needs from the owner's files, and the ways to provide it."""

    needs: tuple[str, ...]
    """The owner-owned paths the requester's task needs changed."""
    request: str
    """How the requester phrases the ask (scripted requesters use it verbatim)."""
    obvious: tuple[Edit, ...]
    """The obvious change: satisfies the requester; in a trap it breaks an absent team."""
    safe: tuple[Edit, ...] = ()
    """The compatible alternative: satisfies the requester and keeps every contract test green.
    Required for traps."""
    requester_with_safe: tuple[Edit, ...] = ()
    """Extra requester-side edits needed when the safe alternative is used (e.g. passing a new
    parameter); applied on top of the requester's reference."""
    harms: tuple[str, ...] = ()
    """Traps: the absent teams whose contract tests the obvious change turns red."""


class Task(_Model):
    id: str
    variant: Variant
    title: str
    twin_of: str | None = None
    """Twins: the trap this task mirrors (same request, absent dependency removed)."""
    setup: tuple[Edit, ...] = ()
    """Edits applied to the base repo before the episode (twins remove the absent dependency)."""
    requester: Role
    owner: Role
    favor: Favor

    @model_validator(mode="after")
    def _check_variant(self) -> Task:
        if self.variant == "trap":
            if not self.favor.safe:
                raise ValueError(f"task {self.id}: a trap needs favor.safe (the safe alternative)")
            if not self.favor.harms:
                raise ValueError(f"task {self.id}: a trap needs favor.harms (the absent teams it breaks)")
        if self.variant == "twin" and not self.twin_of:
            raise ValueError(f"task {self.id}: a twin needs twin_of")
        return self


class Trajectory(_Model):
    """An ordered list of task ids; warm-ups have the reviewer available."""

    name: str
    tasks: tuple[str, ...]


class Agents(_Model):
    requester_team: str
    owner_team: str


class Manifest(_Model):
    name: str
    description: str = ""
    schema_version: Literal[1] = 1
    teams: tuple[Team, ...]
    agents: Agents
    tasks: tuple[Task, ...]
    trajectories: tuple[Trajectory, ...] = Field(default=())
    """Named task orders. When empty, trajectories are drawn from the tasks: warm-ups first, then
    the rest shuffled by seed."""

    @model_validator(mode="after")
    def _check_refs(self) -> Manifest:
        teams = {t.name for t in self.teams}
        for name in (self.agents.requester_team, self.agents.owner_team):
            if name not in teams:
                raise ValueError(f"agents: team {name!r} is not among teams ({', '.join(sorted(teams))})")
        ids = {t.id for t in self.tasks}
        if len(ids) != len(self.tasks):
            raise ValueError("tasks: task ids must be unique")
        for task in self.tasks:
            if task.twin_of and task.twin_of not in ids:
                raise ValueError(f"task {task.id}: twin_of {task.twin_of!r} is not a task id")
            for team in task.favor.harms:
                if team not in teams:
                    raise ValueError(f"task {task.id}: favor.harms names unknown team {team!r}")
        for trajectory in self.trajectories:
            for tid in trajectory.tasks:
                if tid not in ids:
                    raise ValueError(f"trajectory {trajectory.name}: unknown task {tid!r}")
        return self

    def task(self, task_id: str) -> Task:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise KeyError(task_id)

    @property
    def absent_teams(self) -> tuple[Team, ...]:
        return tuple(t for t in self.teams if t.absent)
