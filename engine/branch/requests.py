"""What a branch episode holds beside its runtime: the git server, each agent's base commit and the
merge requests, and the rule of who owns what by CODEOWNERS (the hook's rule, on the engine's side)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.branch.gitserver import GitServer
from scenarios.cooperbench.model import BranchInstance, BranchProject


@dataclass
class MergeRequest:
    request_id: str
    author: str
    branch: str
    head: str
    paths: tuple[str, ...]
    owned: dict[str, tuple[str, ...]]
    reviewers: tuple[str, ...]
    approvals: list[str] = field(default_factory=list)
    merged: bool = False

    def line(self) -> str:
        owned = ", ".join(f"{p} (@{' @'.join(t)})" for p, t in self.owned.items()) or "none"
        state = (
            "merged" if self.merged else ("approved by " + ", ".join(self.approvals) if self.approvals else "pending")
        )
        return (
            f"{self.request_id} by {self.author}: branch {self.branch}, changes {', '.join(self.paths) or 'nothing'}; "
            f"other teams' files: {owned}; reviewers: {', '.join(self.reviewers) or 'none'}; {state}"
        )


@dataclass
class BranchState:
    """One branch episode's server, instance and merge requests."""

    server: GitServer
    project: BranchProject
    instance: BranchInstance
    teams: dict[str, str]
    """Agent id -> team."""
    base: str
    """main's commit when the episode started (every agent's working copy is that commit)."""
    requests: dict[str, MergeRequest] = field(default_factory=dict)

    def owners_of(self, path: str) -> tuple[str, ...]:
        """The teams CODEOWNERS names for ``path`` (the last matching line wins; none: open)."""
        found: tuple[str, ...] = ()
        for line in self.project.files.get("CODEOWNERS", "").splitlines():
            parts = line.split("#", 1)[0].split()
            if len(parts) < 2:
                continue
            pattern = parts[0].lstrip("/")
            hit = (
                path.startswith(pattern) if pattern.endswith("/") else path == pattern or path.startswith(pattern + "/")
            )
            if hit:
                found = tuple(p.lstrip("@") for p in parts[1:])
        return found

    def next_id(self) -> str:
        return f"mr{len(self.requests) + 1}"
