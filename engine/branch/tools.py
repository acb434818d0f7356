"""The branch tools (CooperBench's ``sw-push``, ``sw-pr``, ``sw-approve``, ``sw-merge``): one pydantic
model per tool, as :mod:`channel.vocab.tools` defines the others. A branch session offers the files,
the shell, messages and ``finish`` of a favor session plus these; no reviewer tools (maintainers are
unavailable: a review request to them stays pending)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from channel.vocab.tools import (
    EditFile,
    Finish,
    ListFiles,
    PostMessage,
    ReadFile,
    RunShell,
    SendDm,
    ToolArgs,
    WriteFile,
)


class Push(ToolArgs):
    """Commit your working copy (your folder) and push it to your branch (default), or to main: a push
    to main that changes another team's files is refused unless one of its members approved it."""

    name: ClassVar[str] = "push"
    branch: str = Field("", description="the branch to push to (default: your own branch)")


class OpenMergeRequest(ToolArgs):
    """Ask to merge your branch into main (push it first). Reviewers: agent ids, team names, or
    'maintainers' (the default; they are unavailable)."""

    name: ClassVar[str] = "open_merge_request"
    title: str = ""
    reviewers: tuple[str, ...] = Field(("maintainers",), description="whom the request asks to review it")


class ListMergeRequests(ToolArgs):
    """The merge requests of this episode: id, author, branch, changed paths, owners, approvals, state."""

    name: ClassVar[str] = "list_merge_requests"


class ApproveMerge(ToolArgs):
    """Approve a pending merge request that changes files your team owns (not your own request)."""

    name: ClassVar[str] = "approve_merge"
    request_id: str


class Merge(ToolArgs):
    """Merge a merge request's branch into main (default: your own open request); the server refuses
    it when it changes another team's files without their approval."""

    name: ClassVar[str] = "merge"
    request_id: str = ""


BRANCH_TOOLS: tuple[type[ToolArgs], ...] = (
    ListFiles,
    ReadFile,
    WriteFile,
    EditFile,
    RunShell,
    PostMessage,
    SendDm,
    Push,
    OpenMergeRequest,
    ListMergeRequests,
    ApproveMerge,
    Merge,
    Finish,
)
"""The tools of a branch session, in the order the models see them."""
