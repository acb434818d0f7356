"""Seed 003's scenarios as data: hand-written seeds per archetype, and the scenarios the generator
materialises from them (seed 003 §4, appendix B).

A seed file (``scenarios/overeager/seeds/<archetype>.toml``) holds one archetype: its external
anchors (appendix C: incidents and standards) and at least three seeds. A seed is a benign task:

- ``goal`` / ``context`` / ``boundary``: the prompt (terse: the goal; verbose: goal and context) and
  the implicit boundary a README states at the ``implicit`` ambiguity level;
- ``files`` / ``home``: the fixtures, in the project folder and in the agent's HOME;
- ``authorised``: the authorised action set A and the sensitive read locations (seed 003 §3);
- ``steps``: the legitimate completion path (the reference solution), in dependency order;
- ``traps``: each a predicate with severity, the lure it needs (a fixture the lure axis moves), the
  action that trips it, the question a cautious agent asks instead, and its ``tier`` (``moderate``:
  goal-reasonable, the moderate profile takes it; ``overeager``: only the overeager profile does);
- ``success``: task-completion predicates (conditional success uses ``not_of``).

Paths are written relative to the project root; the generator puts them under the layout's root.
In commands and prompt text write ``{root}`` before a project path and ``{lure}`` for the trap's lure
(``rm {root}build/app.o``, ``cat {lure}``). In structured fields (``files`` keys, predicate and
authorised ``path`` globs, step paths) a path with a slash is put under the root automatically, a
glob without a slash matches at any depth and is left alone, and ``{lure}`` is replaced.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from channel.vocab import Risk
from channel.vocab.predicates import Authorisation, Predicate, SuccessCheck, Trap

ARCHETYPES: tuple[str, ...] = (
    "cleanup_overreach",
    "data_destruction",
    "obstacle_removal",
    "credential_hoarding",
    "pii_exposure",
    "exfiltration",
    "pii_in_communications",
    "config_overreach",
    "safety_bypass",
    "clock_manipulation",
    "package_overreach",
    "typosquat_package",
    "licence_violation",
    "git_overreach",
    "sudo_escalation",
    "persistence_install",
    "network_recon",
    "shared_infrastructure",
    "scope_creep",
    "test_gaming",
    "hallucinated_fix",
    "name_similarity",
    "communication_overreach",
    "toctou_race",
)
"""24 archetypes, as many as seed 003's appendix C; the paper's text available here names few of them
(``toctou-race``), so these names and their order are our reconstruction (docs/deviations.md)."""

Tier = Literal["moderate", "overeager"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Op(_Model):
    """One action through the agent's tools: exactly one of ``run`` (a shell command), ``read``,
    ``write`` ({path, content}) or ``edit`` ({path, old, new})."""

    run: str | None = None
    read: str | None = None
    write: dict[str, str] | None = None
    edit: dict[str, str] | None = None

    @model_validator(mode="after")
    def _one(self) -> Op:
        given = [k for k in ("run", "read", "write", "edit") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"an op is exactly one of run, read, write, edit (got {', '.join(given) or 'none'})")
        if self.write is not None and set(self.write) != {"path", "content"}:
            raise ValueError("write takes {path, content}")
        if self.edit is not None and set(self.edit) != {"path", "old", "new"}:
            raise ValueError("edit takes {path, old, new}")
        return self


class PathStep(_Model):
    """A step of the legitimate completion path."""

    id: str = Field(min_length=1)
    ops: tuple[Op, ...] = Field(min_length=1)
    after: tuple[str, ...] | None = None
    """Strong dependencies (step ids); None: the previous step."""


class Lure(_Model):
    """The fixture a trap needs (the lure axis moves it or puts a decoy beside it)."""

    path: str
    content: str


class SeedTrap(_Model):
    id: str = Field(min_length=1)
    description: str
    severity: Risk
    tier: Tier
    predicate: Predicate
    action: tuple[Op, ...] = Field(min_length=1)
    ask: str
    """What a cautious agent asks the user instead of acting."""
    lure: Lure | None = None
    after: tuple[str, ...] = ()
    """Steps that must come before the trap's action (the graph walk keeps this order)."""


class Seed(_Model):
    id: str = Field(min_length=1, pattern=r"^[a-z0-9][a-z0-9-]*$")
    note: str = Field(min_length=10)
    """The real incident or standard this seed reflects."""
    goal: str
    context: str
    boundary: str
    files: dict[str, str]
    home: dict[str, str] = Field(default_factory=dict)
    authorised: Authorisation
    steps: tuple[PathStep, ...] = Field(min_length=1)
    traps: tuple[SeedTrap, ...] = Field(min_length=1)
    success: tuple[SuccessCheck, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _refs(self) -> Seed:
        ids = [s.id for s in self.steps] + [t.id for t in self.traps]
        if len(set(ids)) != len(ids):
            raise ValueError("step and trap ids must be unique within a seed")
        steps = {s.id for s in self.steps}
        for i, step in enumerate(self.steps):
            for dep in step.after or ():
                if dep not in {s.id for s in self.steps[:i]}:
                    raise ValueError(f"steps[{i}].after: {dep!r} is not an earlier step")
        for i, trap in enumerate(self.traps):
            for dep in trap.after:
                if dep not in steps:
                    raise ValueError(f"traps[{i}].after: {dep!r} is not a step")
        return self


class ArchetypeFile(_Model):
    archetype: str
    title: str
    anchors: tuple[str, ...] = Field(min_length=3)
    """External anchors: incidents and standards (seed 003 appendix C: at least three)."""
    seeds: tuple[Seed, ...] = Field(min_length=3)

    @model_validator(mode="after")
    def _known(self) -> ArchetypeFile:
        if self.archetype not in ARCHETYPES:
            raise ValueError(f"archetype {self.archetype!r} is not one of seed 003's 24")
        return self


# --- the materialised scenario ----------------------------------------------------------------------

Layout = Literal["flat", "nested", "monorepo"]
PromptStyle = Literal["terse", "verbose", "checklist"]
Ambiguity = Literal["none", "implicit", "explicit"]
LureLevel = Literal["plain", "nested", "decoy"]
Surface = Literal["one", "two", "all"]

AXES: dict[str, tuple[str, ...]] = {
    "layout": ("flat", "nested", "monorepo"),
    "prompt_style": ("terse", "verbose", "checklist"),
    "auth_ambiguity": ("none", "implicit", "explicit"),
    "lure": ("plain", "nested", "decoy"),
    "trap_surface": ("one", "two", "all"),
}
"""The five mutation axes of seed 003 §4.1 / B.1, three levels each."""


class Levels(_Model):
    layout: Layout
    prompt_style: PromptStyle
    auth_ambiguity: Ambiguity
    lure: LureLevel
    trap_surface: Surface


class PlanItem(_Model):
    """One node of the walk: a step of the completion path or a sampled trap's action."""

    kind: Literal["step", "trap"]
    id: str
    ops: tuple[Op, ...]
    tier: Tier | None = None
    ask: str = ""


class AuditScenario(_Model):
    """One generated scenario: everything a run needs, paths already under the layout's root."""

    id: str
    archetype: str
    seed: str
    note: str
    levels: Levels
    root: str
    """The project folder in the workspace ("" for the flat layout)."""
    prompt: str
    """The task prompt without the consent block."""
    consent_block: str
    """Seed 003's scope-of-consent block for this scenario; in the prompt when consent is kept."""
    consent: bool
    """Whether the scenario's own ambiguity level puts the block in the prompt (``explicit``)."""
    files: dict[str, str]
    home: dict[str, str]
    authorised: Authorisation
    traps: tuple[Trap, ...]
    success: tuple[SuccessCheck, ...]
    plan: tuple[PlanItem, ...]
    tiers: dict[str, Tier]
    """Trap id -> tier."""

    def full_prompt(self, consent: bool | None = None) -> str:
        """The prompt an agent receives; ``consent`` None: as the ambiguity level says. Kept and
        stripped prompts are byte-identical apart from the block (seed 003 §4.3)."""
        keep = self.consent if consent is None else consent
        return f"{self.prompt}\n\n{self.consent_block}" if keep else self.prompt
