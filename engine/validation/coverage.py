"""Which audit channels can observe a trap on a given backend: seed 003's admissibility rule (§3, §4.1:
a scenario whose declared trap is not observable is inadmissible), per channel.

The channels (``channel.vocab.AuditSource``): ``tool`` (the agent's tool calls, ``ToolCalled``),
``watcher`` (``FileChanged``: any change in the workspace, whoever made it), ``shim`` (the wrappers over
sensitive programs: ``ShellCommandRan`` with the arguments the wrapper saw) and ``trace`` (the exec
tracer: every program of a command's process tree and every sensitive file opened; only on a backend
whose :class:`~sandbox.backends.opener.SandboxInfo` says ``traced``).

Statically (:func:`trap_channels`) a trap is observable when its positive structure can hold on what
the channels report: an ``any_of`` when one branch can, an ``all_of`` when every branch can; a leaf
under ``not_of`` observes nothing by itself. Dynamically, ``audit validate`` runs the overeager
profile's action on the backend and names the channels of the events that made the trap fire
(:func:`observed_channels`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from channel.events import Event, observed_by
from channel.vocab import AuditSource
from channel.vocab.atoms import LINE_ATOMS, READ_ATOMS
from channel.vocab.predicates import (
    ActionAtom,
    AllOf,
    AnyOf,
    ContentPattern,
    FileChangedCheck,
    MissingContent,
    NotOf,
    Predicate,
    SensitiveReadCheck,
    ShellAtom,
    StateChange,
    ToolUse,
)
from channel.vocab.tools import AUDIT_TOOLS, SESSION_TOOLS
from engine.scoring.traps import leaves
from sandbox.commands.atoms import AtomRegistry, default_registry

CHANNEL_ORDER: tuple[AuditSource, ...] = ("tool", "watcher", "shim", "trace")

KNOWN_TOOLS = frozenset(tool.name for tool in (*SESSION_TOOLS, *AUDIT_TOOLS))
"""The tool names a ``ToolCalled`` can carry (an ACP agent's are ``acp:<kind>``): a ``tool`` predicate naming none
of them (``reed_file``) can never fire."""


def unknown_tools(leaf: ToolUse) -> list[str]:
    """The names in ``leaf.tool`` no agent's tool has (none named: any tool)."""
    return [name for name in leaf.tool if name not in KNOWN_TOOLS and not name.startswith("acp:")]


def _atom_sources(registry: AtomRegistry) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(atoms a shimmed program yields, atoms any registered program yields, atoms a tool call yields)."""
    shimmed = set(registry.shimmed_commands)
    by_shim: set[str] = set()
    by_program: set[str] = set()
    for name, mapping in registry.commands.items():
        atoms = {a for a in [mapping.default, *(r.atom for r in mapping.rule)] if a is not None}
        by_program |= atoms
        if name in shimmed:
            by_shim |= atoms
    by_tool = set(LINE_ATOMS)  # the command-line reader's, of a run_shell line
    for mapping in registry.tools.values():
        by_tool |= {a for a in [mapping.default, *(r.atom for r in mapping.rule)] if a is not None}
    return frozenset(by_shim), frozenset(by_program), frozenset(by_tool)


def leaf_channels(leaf: Predicate, *, traced: bool, registry: AtomRegistry | None = None) -> tuple[AuditSource, ...]:
    """The channels that can report what ``leaf`` (a predicate without combinators) looks for."""
    by_shim, by_program, by_tool = _atom_sources(registry or default_registry())
    found: set[AuditSource] = set()
    if isinstance(leaf, (FileChangedCheck, ContentPattern, MissingContent, StateChange)):
        found.add("watcher")
    elif isinstance(leaf, ToolUse):
        if not leaf.tool or len(unknown_tools(leaf)) < len(leaf.tool):
            found.add("tool")
    elif isinstance(leaf, (ShellAtom, ActionAtom)):
        wanted = set(leaf.atom)
        if not wanted or wanted & by_shim:
            found.add("shim")
        if traced and (not wanted or wanted & (by_program | set(READ_ATOMS))):
            found.add("trace")
        if isinstance(leaf, ActionAtom) and (not wanted or wanted & by_tool):
            found.add("tool")
    elif isinstance(leaf, SensitiveReadCheck):
        found.add("tool")  # read_file on the path, or a run_shell line naming it
        if not leaf.atom or set(leaf.atom) & by_shim:
            found.add("shim")
        if traced:
            found.add("trace")
    return tuple(c for c in CHANNEL_ORDER if c in found)


def trap_channels(
    predicate: Predicate, *, traced: bool, registry: AtomRegistry | None = None
) -> tuple[AuditSource, ...]:
    """The channels through which ``predicate`` can fire on a backend (``traced``: it has the exec
    tracer); empty when it cannot fire at all there (not observable)."""
    if isinstance(predicate, NotOf):
        return ()
    if isinstance(predicate, AnyOf):
        return _union(trap_channels(p, traced=traced, registry=registry) for p in predicate.of)
    if isinstance(predicate, AllOf):
        parts = [trap_channels(p, traced=traced, registry=registry) for p in predicate.of]
        positive = [p for p, q in zip(parts, predicate.of, strict=True) if not isinstance(q, NotOf)]
        return () if not positive or any(not p for p in positive) else _union(positive)
    return leaf_channels(predicate, traced=traced, registry=registry)


def _union(parts: Iterable[Sequence[AuditSource]]) -> tuple[AuditSource, ...]:
    found = {c for part in parts for c in part}
    return tuple(c for c in CHANNEL_ORDER if c in found)


def observed_channels(evidence: Mapping[str, Sequence[int]], events: Mapping[int, Event]) -> dict[str, tuple[str, ...]]:
    """Trap id -> the channels of the events (by seq) that made it fire."""
    out: dict[str, tuple[str, ...]] = {}
    for trap, seqs in evidence.items():
        found = {c for s in seqs if s in events and (c := observed_by(events[s])) is not None}
        out[trap] = tuple(c for c in CHANNEL_ORDER if c in found)
    return out


def pack_trap_coverage(traps: Iterable[tuple[str, Predicate]], *, traced: bool, backend: str) -> tuple[list[str], str]:
    """A pack's traps (``(where, predicate)``, e.g. ``("traps[0] push-to-main", ...)``) on a backend:
    the problems (a trap no channel of ``backend`` can observe makes the pack inadmissible there) and
    one line saying which channels observe how many traps."""
    problems: list[str] = []
    counts: dict[str, int] = {}
    total = 0
    for where, predicate in traps:
        channels = trap_channels(predicate, traced=traced)
        total += bool(channels)
        if not channels:
            unknown = sorted(
                {n for leaf in leaves(predicate) if isinstance(leaf, ToolUse) for n in unknown_tools(leaf)}
            )
            why = f" (no tool is named {', '.join(map(repr, unknown))})" if unknown else ""
            why = why or ("" if traced else " (it has no exec tracer)")
            problems.append(f"{where}: no audit channel of {backend} can observe it{why}: inadmissible there")
        for channel in channels:
            counts[channel] = counts.get(channel, 0) + 1
    seen = ", ".join(f"{c} {counts[c]}" for c in CHANNEL_ORDER if c in counts) or "none"
    return problems, f"{total} traps observable on {backend} (by channel: {seen})"
