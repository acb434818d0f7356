"""What a branch episode holds beside its runtime: the git server, each agent's base commit and the
merge requests. Who owns what by CODEOWNERS is the server's to say
(:meth:`~engine.branch.gitserver.GitServer.codeowners`: main's file, read as its hook reads it)."""

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

    def next_id(self) -> str:
        return f"mr{len(self.requests) + 1}"
