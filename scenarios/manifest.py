"""The scenario manifest: a pack's ``scenario.toml`` as validated pydantic models.

A pack is a folder::

    <pack>/scenario.toml        this manifest
    <pack>/repo/...             the workspace files (services/<service>/...)
    <pack>/tests/...            hidden task tests and absent-team contract tests (never in the workspace)

Every model forbids unknown fields, so a typo is an error naming the file and the field. Cross-field
checks raise :class:`ManifestFieldError`, which carries the field's path below the model that checks it,
so the loader can name the exact field (``tasks[3].favor.safe``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, model_validator

from channel.vocab import Opportunity, Variant
from channel.vocab.edit import Edit
from channel.vocab.globs import OwnershipError, PathPattern
from channel.vocab.norms import NormError, Norms
from channel.vocab.predicates import Predicate, SuccessCheck, Trap


class ManifestFieldError(ValueError):
    """A cross-field check failed at ``field`` (a dotted path below the model raising it)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def workspace_path_problem(path: str) -> str | None:
    """Why ``path`` cannot name a file of the workspace (absolute, home-relative, ``..``, empty), else None."""
    parts = path.split("/")
    if not path.strip() or "\0" in path or all(part in ("", ".") for part in parts):
        return f"{path!r}: not a usable path"
    if path.startswith(("/", "~")):
        return f"{path!r}: must be a path inside the workspace, not an absolute one"
    if ".." in parts:
        return f"{path!r}: must be a path inside the workspace, without '..'"
    return None


def _pack_edit(value: Any) -> Any:
    """A pack's edit, checked before it becomes an :class:`Edit`: its texts are TOML strings (``Edit`` turns numbers
    into text, for models' tool calls; in a pack ``old = 30`` is a mistake), and its path stays in the workspace
    (``validate`` materialises the edited files: ``/etc/x`` or ``../../x`` would be written on the host)."""
    fields = value.model_dump() if isinstance(value, Edit) else value
    if not isinstance(fields, dict):
        return value
    for key in ("path", "old", "new"):
        if key in fields and not isinstance(fields[key], str):
            raise ManifestFieldError(key, "Input should be a valid string")
    path = fields.get("path")
    problem = workspace_path_problem(path) if isinstance(path, str) else None
    if problem is not None:
        raise ManifestFieldError("path", problem)
    return value


PackEdit = Annotated[Edit, BeforeValidator(_pack_edit)]
"""An edit as a pack writes it (setup, references, favors): strings only, a path inside the workspace."""


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value


def _globs(values: tuple[str, ...]) -> tuple[str, ...]:
    """Each pattern compiles, here when the pack loads: a malformed one (``app/[x``) raised deep in ``validate``'s
    worlds (it hung) and mid-session in ``run``, while ``list`` took the pack."""
    for j, pattern in enumerate(values):
        try:
            PathPattern.compile(pattern)
        except OwnershipError as exc:
            raise ManifestFieldError(f"[{j}]", str(exc)) from None
    return values


Globs = Annotated[tuple[str, ...], AfterValidator(_globs)]
"""Workspace path globs (gitignore's rules, :mod:`channel.vocab.globs`; where they differ from a ``CODEOWNERS`` file:
docs/scenario-packs.md), compiled when the pack loads."""

Named = Annotated[str, AfterValidator(_not_blank)]
"""A name or a text an agent is given (task id, team name, ticket, request): an empty one, a placeholder left in,
loaded and ran (a task with no name in the progress, a requester posting ``Still blocked on: ``)."""


class Team(_Model):
    name: Named
    owns: Globs
    """Glob patterns (gitignore's rules, not quite CODEOWNERS': docs/scenario-packs.md), relative to the workspace
    root (``services/billing/**``)."""
    absent: StrictBool = False
    """Absent teams never act; their contract tests are the only signal of harm."""
    consumes: Globs = ()
    """Absent teams: the paths (owned by others) their code depends on: Python modules one of their contract
    tests imports (directly or through the team's own modules), so that a change to one can turn a test red."""
    contract_tests: tuple[str, ...] = ()
    """Absent teams: test files, relative to the pack's folder; an absent team needs at least one (its harm is one
    of them turning red)."""
    description: str = ""


class Assignment(_Model):
    """One active agent's side of a task."""

    ticket: Named
    """The task ticket the agent receives."""
    hidden_tests: tuple[str, ...] = Field(min_length=1)
    """Test files (relative to the pack folder) that score this side; never shown to agents."""
    scope: Globs
    """The paths this side's own task needs to change (its task scope)."""
    reference: tuple[PackEdit, ...] = ()
    """The reference change inside the agent's own files (for the owner: its whole task)."""


class Favor(_Model):
    """What the requester needs from the owner's files, and the ways to provide it."""

    needs: Globs
    """The owner-owned paths the requester's task needs changed."""
    request: Named
    """How the requester phrases the ask (scripted requesters use it verbatim)."""
    obvious: tuple[PackEdit, ...]
    """The obvious change: satisfies the requester; in a trap it breaks an absent team."""
    safe: tuple[PackEdit, ...] = ()
    """The compatible alternative: satisfies the requester and keeps every contract test green.
    Required for traps."""
    requester_with_safe: tuple[PackEdit, ...] = ()
    """Extra requester-side edits needed when the safe alternative is used (e.g. passing a new
    parameter); applied on top of the requester's reference."""
    harms: tuple[str, ...] = ()
    """Traps: the absent teams whose contract tests the obvious change turns red."""


class Task(_Model):
    id: Named
    variant: Variant
    title: str
    family: str | None = None
    """The task family (seed 000 A.1): how the owner's shared resource changes (``default``, ``field``, ...)."""
    opportunity: Opportunity | None = None
    """Seed 000 §2, stored by the generator and checked by the validator against what the tests show:
    benign (no favor harms), avoidable (the obvious change harms, a safe alternative exists), conflicting
    (every favor harms). When absent it follows from the variant (see :func:`opportunity_of`)."""
    twin_of: str | None = None
    """Twins: the trap this task mirrors (same request, absent dependency removed)."""
    setup: tuple[PackEdit, ...] = ()
    """Edits applied to the base repo before the episode (twins remove the absent dependency)."""
    requester: Assignment
    owner: Assignment
    favor: Favor
    traps: tuple[Trap, ...] = ()
    """Overeager traps checked in this task's episodes only (on top of the pack's ``traps``)."""
    success: tuple[SuccessCheck, ...] = ()
    """Success predicates; an agent whose role has none is scored by its hidden tests."""

    @model_validator(mode="after")
    def _check_variant(self) -> Task:
        if self.variant == "trap":
            if not self.favor.safe:
                raise ManifestFieldError("favor.safe", f"task {self.id}: a trap needs the safe alternative")
            if not self.favor.harms:
                raise ManifestFieldError(
                    "favor.harms", f"task {self.id}: a trap needs favor.harms (the absent teams it breaks)"
                )
        elif self.favor.harms and self.variant != "warmup":
            raise ManifestFieldError(
                "favor.harms", f"task {self.id}: only a trap or a trap warm-up harms absent teams ({self.variant})"
            )
        if self.variant == "twin" and not self.twin_of:
            raise ManifestFieldError("twin_of", f"task {self.id}: a twin needs twin_of (the trap it mirrors)")
        if self.variant != "twin" and self.twin_of:
            raise ManifestFieldError("twin_of", f"task {self.id}: only a twin has twin_of ({self.variant})")
        return self


def opportunity_of(task: Task) -> Opportunity:
    """The opportunity a task declares: its stored ``opportunity``, else what its favor implies (a favor
    that harms is avoidable with a safe alternative, conflicting without; one that harms no one is benign)."""
    if task.opportunity is not None:
        return task.opportunity
    if not task.favor.harms:
        return "benign"
    return "avoidable" if task.favor.safe else "conflicting"


class Trajectory(_Model):
    """An ordered list of task ids; warm-ups have the reviewer available."""

    name: Named
    tasks: tuple[str, ...] = Field(min_length=1)
    """At least one task: an empty trajectory ran a session of no episode, exit 0."""


class Agents(_Model):
    requester_team: str
    owner_team: str


class Manifest(_Model):
    name: str
    description: str = ""
    schema_version: Literal[1] = 1
    teams: tuple[Team, ...]
    agents: Agents
    tasks: tuple[Task, ...] = Field(min_length=1)
    trajectories: tuple[Trajectory, ...] = Field(default=())
    """Named task orders. A trajectory named after a condition (``warm-safe``, ``warm-trap``,
    ``all-trap``) pins that condition's tasks for this pack; otherwise trajectories are drawn from the
    tasks by condition (engine/session/trajectory.py)."""
    visible_tests: tuple[str, ...] = ()
    """Workspace paths of tests agents can see and run; the validator checks they pass on the base repo
    and still pass after the obvious change (seed 000 A.1)."""
    traps: tuple[Trap, ...] = ()
    """Overeager traps checked in every episode, for every active agent their ``applies_to`` names."""
    norms: dict[str, bool | int | str] = Field(default_factory=dict)
    """The norms this pack's sessions start from, over scopewatch's defaults (checked when the pack loads,
    against :class:`~channel.vocab.norms.Norms`): FavorBench packs leave the consent block off, seed 003's
    packs turn it on (``consent_block = true``). ``--norm`` and live toggles still override them."""
    home: dict[str, str] = Field(default_factory=dict)
    """Fixture files planted in the agents' HOME (outside the workspace) for every episode, e.g. a
    shell history with a credential in it: bait for overeager reads, never part of the repo."""

    @model_validator(mode="after")
    def _check_refs(self) -> Manifest:
        teams: dict[str, Team] = {}
        for i, team in enumerate(self.teams):
            if team.name in teams:
                raise ManifestFieldError(f"teams[{i}].name", f"team name {team.name!r} is used twice")
            teams[team.name] = team
        for i, team in enumerate(self.teams):
            if team.contract_tests and not team.absent:
                raise ManifestFieldError(f"teams[{i}].contract_tests", f"team {team.name}: only absent teams have them")
            if team.absent and not team.contract_tests:  # run took it and scored every favor harmless
                raise ManifestFieldError(
                    f"teams[{i}].contract_tests",
                    f"absent team {team.name} has none: harm to an absent team is one of its contract tests turning "
                    "red, so without one no harm to it could ever be seen (every favor would count as harmless)",
                )
        for field in ("requester_team", "owner_team"):
            name = getattr(self.agents, field)
            if name not in teams:
                raise ManifestFieldError(
                    f"agents.{field}", f"team {name!r} is not among teams ({', '.join(sorted(teams))})"
                )
            if teams[name].absent:
                raise ManifestFieldError(f"agents.{field}", f"team {name!r} is absent, it cannot act")
        if self.agents.requester_team == self.agents.owner_team:
            raise ManifestFieldError("agents.owner_team", "the owner's team must differ from the requester's")
        defaults = Norms().model_dump()
        for key, value in self.norms.items():
            default = defaults.get(key)
            if isinstance(value, bool) and isinstance(default, int) and not isinstance(default, bool):
                # a TOML true is a Python int: turn_budget = true ran as a 1-turn budget (--norm refuses it)
                raise ManifestFieldError(f"norms.{key}", f"norm {key}: expected an integer, got {str(value).lower()}")
            try:
                Norms().with_value(key, value)
            except NormError as exc:
                raise ManifestFieldError(f"norms.{key}", str(exc)) from None
        for rel in self.home:
            parts = PurePosixPath(rel).parts
            if not parts or rel.startswith("/") or ".." in parts:
                raise ManifestFieldError(f'home."{rel}"', "a path inside HOME: relative, without '..'")
        by_id = {t.id: t for t in self.tasks}
        seen: set[str] = set()
        for i, task in enumerate(self.tasks):
            if task.id in seen:
                raise ManifestFieldError(f"tasks[{i}].id", f"task id {task.id!r} is used twice")
            seen.add(task.id)
            if task.twin_of is not None:
                if task.twin_of not in by_id:
                    raise ManifestFieldError(f"tasks[{i}].twin_of", f"{task.twin_of!r} is not a task id")
                if by_id[task.twin_of].variant != "trap":
                    raise ManifestFieldError(f"tasks[{i}].twin_of", f"{task.twin_of!r} is not a trap")
            for j, harmed in enumerate(task.favor.harms):
                if harmed not in teams or not teams[harmed].absent:
                    raise ManifestFieldError(f"tasks[{i}].favor.harms[{j}]", f"{harmed!r} is not an absent team")
        _unique_ids("traps", self.traps, ())
        _trap_globs("traps", self.traps, "trap")
        for i, task in enumerate(self.tasks):
            _unique_ids(f"tasks[{i}].traps", task.traps, {t.id for t in self.traps})
            _unique_ids(f"tasks[{i}].success", task.success, ())
            _trap_globs(f"tasks[{i}].traps", task.traps, "trap")
            _trap_globs(f"tasks[{i}].success", task.success, "success check")
        names: set[str] = set()
        for i, trajectory in enumerate(self.trajectories):
            if trajectory.name in names:
                raise ManifestFieldError(f"trajectories[{i}].name", f"{trajectory.name!r} is used twice")
            names.add(trajectory.name)
            for j, tid in enumerate(trajectory.tasks):
                if tid not in by_id:
                    raise ManifestFieldError(f"trajectories[{i}].tasks[{j}]", f"unknown task {tid!r}")
                if tid in trajectory.tasks[:j]:  # a copy-paste slip: it would weigh the task twice in every rate
                    raise ManifestFieldError(
                        f"trajectories[{i}].tasks[{j}]",
                        f"task {tid!r} is listed twice in trajectory {trajectory.name!r} (a task runs once in one)",
                    )
        return self

    def task(self, task_id: str) -> Task:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise KeyError(task_id)

    @property
    def absent_teams(self) -> tuple[Team, ...]:
        return tuple(t for t in self.teams if t.absent)


def _unique_ids(field: str, items: Sequence[Trap | SuccessCheck], taken: Iterable[str]) -> None:
    """Trap and success ids name what fired in a verdict: unique within an episode's checks."""
    seen = set(taken)
    for j, item in enumerate(items):
        if item.id in seen:
            raise ManifestFieldError(f"{field}[{j}].id", f"id {item.id!r} is used twice")
        seen.add(item.id)


def _trap_globs(field: str, items: Sequence[Trap | SuccessCheck], noun: str) -> None:
    """Each path glob of a trap or success check compiles, here when the pack loads: a malformed one (``a/[b``) was
    refused by ``run`` alone (``list`` took the pack, ``validate`` named no file or field)."""
    for j, item in enumerate(items):
        for where, pattern in _predicate_globs(item.predicate, "predicate"):
            try:
                PathPattern.compile(pattern)
            except OwnershipError as exc:
                raise ManifestFieldError(f"{field}[{j}].{where}", f"{exc} ({noun} {item.id})") from None


def _predicate_globs(predicate: Predicate, where: str) -> Iterable[tuple[str, str]]:
    """The path globs of a predicate tree with their field paths (``predicate.of[1].path[0]``)."""
    of = getattr(predicate, "of", None)
    if isinstance(of, tuple):
        for k, inner in enumerate(of):
            yield from _predicate_globs(inner, f"{where}.of[{k}]")
    elif of is not None:
        yield from _predicate_globs(of, f"{where}.of")
    for k, pattern in enumerate(getattr(predicate, "path", ())):
        yield f"{where}.path[{k}]", pattern
