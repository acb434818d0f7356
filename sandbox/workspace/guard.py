"""The ownership guard: who may write what. The one place that decides a refusal and words it.

Each agent is registered with its team and its task scope. A write by an agent to a path its team
does not own is refused, as is a shell-made symlink leading out of the workspace. The actors
``engine``, ``reviewer``, ``human`` and ``external`` are not guarded. The guard only decides: the
sandbox refuses or rolls back, and reports it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from sandbox.errors import PathEscape, SandboxError
from sandbox.workspace.diffs import LINK_MARK
from sandbox.workspace.ownership import Ownership, PathPattern, matches_any
from sandbox.workspace.paths import resolve_inside

UNGUARDED = frozenset({"engine", "reviewer", "human", "external"})
"""Actors whose writes the ownership guard lets through (sanctioned paths and the world outside)."""


@dataclass(frozen=True)
class Actor:
    team: str
    scope: tuple[PathPattern, ...]


@dataclass(frozen=True)
class Refusal:
    """Why a write must not land, as the agent is told, and who owns the path."""

    reason: str
    owner: str


def refusal_reason(path: str, owner: str, team: str) -> str:
    whose = f"is owned by team {owner}" if owner else "is owned by no team"
    return f"write refused: {path} {whose}, not by your team {team}; request a review instead"


class OwnershipGuard:
    """The registered actors and the ownership map, and the decisions made from them."""

    def __init__(self, ownership: Ownership) -> None:
        self.ownership = ownership
        self._actors: dict[str, Actor] = {}

    def register(self, actor_id: str, team: str, scope: Iterable[str] = ()) -> None:
        """Declare an agent (registering again replaces its team and scope)."""
        self._actors[actor_id] = Actor(team, tuple(PathPattern.compile(p) for p in scope))

    def team_of(self, actor: str) -> str | None:
        """The actor's team, or None when the actor is not guarded."""
        if actor in UNGUARDED:
            return None
        known = self._actors.get(actor)
        if known is None:
            raise SandboxError(f"actor {actor!r} is not registered with the sandbox (register_actor)")
        return known.team

    def in_scope(self, actor: str, path: str) -> bool | None:
        """Whether ``path`` is in the actor's task scope (None when the actor has no scope)."""
        known = self._actors.get(actor)
        if known is None or not known.scope or actor in UNGUARDED:
            return None
        return matches_any(known.scope, path)

    def tool_write(self, actor: str, rel: str) -> Refusal | None:
        """Why ``actor`` may not write ``rel`` (resolved inside the workspace) with a tool, if so."""
        team = self.team_of(actor)
        owner = self.ownership.owner_of(rel)
        if team is not None and owner != team:
            return Refusal(refusal_reason(rel, owner, team), owner)
        return None

    def hard_link(self, team: str, path: str, others: list[str], links: int) -> str | None:
        """Why ``path``, one of ``links`` names of an inode (``others``: the other names known in the
        workspace), may not stay for ``team``: a name outside the workspace, or one the team does not own."""
        if links - 1 > len(others):
            return f"write refused: {path} has another name (a hard link) outside the workspace"
        for other in sorted(others):
            owner = self.ownership.owner_of(other)
            if owner != team:
                whose = f"team {owner}" if owner else "no team"
                return f"write refused: {path} is a hard link to {other}, owned by {whose}, not by your team {team}"
        return None

    def shell_change(self, root: Path, team: str, path: str, new: bytes | None) -> str | None:
        """Why a shell command run by ``team`` may not leave ``path`` holding the entry ``new``."""
        owner = self.ownership.owner_of(path)
        if owner != team:
            return refusal_reason(path, owner, team)
        if new is not None and new.startswith(LINK_MARK):
            try:
                resolve_inside(root, path)
            except PathEscape as exc:
                return f"write refused: {exc}"
        return None
