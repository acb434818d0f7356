"""What one episode holds while it runs: the workspace, the seats, who wrote what, the harm monitor,
the review queue, the norms.

The toolbox, the reviewer and the harm monitor all act on an :class:`EpisodeRuntime`; the session
creates one per episode and drops it at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from channel.emitter import Emit
from channel.events import ReviewRequested
from channel.vocab import AgentRole
from channel.vocab.edit import Edit, apply_edits
from channel.vocab.norms import Norms
from engine.session.favors import FavorMonitor
from engine.session.harm import HarmMonitor
from engine.session.writes import WriteLog
from sandbox.errors import PathEscape
from sandbox.protocol import Sandbox
from sandbox.workspace.diffs import unified_diff
from sandbox.workspace.paths import normalise
from scenarios.manifest import Task


@dataclass(frozen=True)
class Seat:
    """An active agent's place in the episode."""

    agent_id: str
    role: AgentRole
    team: str
    scope: tuple[str, ...]


@dataclass
class EpisodeRuntime:
    trajectory: int
    number: int
    task: Task | None
    """The favor task (None in an episode of another kind: an audit episode has a scenario instead)."""
    sandbox: Sandbox
    emit: Emit
    seats: dict[str, Seat]
    norms: Callable[[], Norms]
    reviewer_available: Callable[[], bool]
    writes: WriteLog
    harm: HarmMonitor
    favors: FavorMonitor | None = None
    """Checks the owner's out-of-scope writes by content (None: no favor checks, e.g. in tests)."""
    pending: dict[str, ReviewRequested] = field(default_factory=dict)
    _review_counter: int = 0

    def next_request_id(self) -> str:
        self._review_counter += 1
        return f"r{self.number}.{self._review_counter}"

    async def proposed_diff(self, edits: Sequence[Edit]) -> tuple[dict[str, str], str]:
        """Apply edits to the current workspace content in memory: (new contents, unified diff).
        Paths must stay inside the workspace; an ``old=""`` edit may only create a missing file."""
        current: dict[str, str] = {}
        for edit in edits:
            if edit.path not in current and self.sandbox.exists(edit.path):
                current[edit.path] = await self.sandbox.read("engine", edit.path)
        changed = apply_edits(current, edits)
        return changed, "".join(
            unified_diff(p, current[p].encode() if p in current else None, changed[p].encode()) for p in sorted(changed)
        )


def normalised_edits(edits: Sequence[Edit]) -> list[Edit]:
    """A review request's edits (validated by the tool's model) with workspace-relative paths;
    a path outside the workspace is a ValueError naming the edit."""
    out = []
    for i, edit in enumerate(edits):
        try:
            out.append(Edit(path=normalise(edit.path), old=edit.old, new=edit.new))
        except PathEscape as exc:
            raise ValueError(f"edits[{i}].path: {exc}") from None
    return out
