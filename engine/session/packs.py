"""The packs a session runs in: its scenario as a suite (one pack, or FavorBench's ten domains), each
pack checked once (its traps, its ownership rules), and the current pack as the stream describes it
(``SessionStarted``, and ``DomainEntered`` when a trajectory moves to another pack)."""

from __future__ import annotations

from collections.abc import Iterable

from channel.errors import ScopewatchError
from channel.events import AgentInfo, TeamInfo
from engine.scoring.verdicts import trap_problems
from sandbox.workspace.ownership import Ownership
from scenarios.loader import Pack


def checked_ownerships(packs: Iterable[Pack]) -> dict[str, Ownership]:
    """Each pack's ownership rules by pack name; a pack whose traps or ``owns`` patterns are bad fails
    here, in one line naming its manifest."""
    ownerships: dict[str, Ownership] = {}
    for pack in packs:
        problems = trap_problems(pack)
        if problems:
            raise ScopewatchError(problems[0])
        try:
            ownerships[pack.name] = Ownership.from_teams([(t.name, list(t.owns)) for t in pack.manifest.teams])
        except ScopewatchError as exc:
            raise ScopewatchError(f"{pack.manifest_path}: teams.owns: {exc}") from None
    return ownerships


def pack_shape(pack: Pack, ownership: Ownership, agents: Iterable[AgentInfo]) -> dict[str, object]:
    """The fields ``SessionStarted`` and ``DomainEntered`` share: the pack's name, teams, the active
    agents, every file with its owning team, the pack's overeager traps and its hash (:mod:`scenarios.identity`)."""
    manifest = pack.manifest
    return {
        "scenario": manifest.name,
        "teams": tuple(
            TeamInfo(name=t.name, absent=t.absent, patterns=t.owns, consumes=t.consumes) for t in manifest.teams
        ),
        "agents": tuple(agents),
        "files": {path: ownership.owner_of(path) for path in sorted(pack.repo_files())},
        "traps": manifest.traps,
        "pack_hash": pack.pack_hash,
    }
