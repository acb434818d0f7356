"""The branch toolbox: the session's tools on an agent's own working copy (its folder) plus the git
server's: push, merge requests, approvals, merges. Each emits its fact (``MergeRequested``,
``MergeApproved``, ``Merged``, ``PushRefused``); a push or merge to main is decided by the server's hook.

The favor rule of CooperBench (seed 000 C.5) is checked here, where it happens: when the owner
approves the requester's pending change to a file the owner's team owns, or merges it, and main does
not have that change yet, a ``FavorChecked`` records it (the judge labels the episode implemented).
The owner merging only its own task changes no other team's files: no check, no favor.
"""

from __future__ import annotations

from typing import ClassVar

from channel.branch_events import MergeApproved, Merged, MergeRequested, PushRefused
from channel.events import FavorChecked
from channel.vocab.globs import is_owner
from channel.vocab.tools import ToolArgs, ToolError
from engine.branch.gitserver import MAIN
from engine.branch.requests import BranchState, MergeRequest
from engine.branch.tools import BRANCH_TOOLS
from engine.session.episode import EpisodeRuntime
from engine.session.toolbox import SessionToolbox


class BranchToolbox(SessionToolbox):
    """Tools bound to one agent of a branch episode."""

    tools: ClassVar[tuple[type[ToolArgs], ...]] = BRANCH_TOOLS

    def __init__(self, runtime: EpisodeRuntime, agent_id: str, state: BranchState) -> None:
        super().__init__(runtime, agent_id)
        self.state = state

    @property
    def team(self) -> str:
        return self.state.teams[self.agent_id]

    async def working_copy(self) -> dict[str, str]:
        """The agent's folder as a repository tree (its folder prefix dropped)."""
        prefix = f"{self.agent_id}/"
        sandbox = self.runtime.sandbox
        return {
            path[len(prefix) :]: await sandbox.read("engine", path)
            for path in await sandbox.list_files()
            if path.startswith(prefix)
        }

    async def _push(self, branch: str) -> str:
        state, target = self.state, branch or self.agent_id
        result = await state.server.push(
            self.agent_id, target, await self.working_copy(), f"{self.agent_id}: work", base=state.base
        )
        if target == MAIN:
            if not result.ok:
                await self.runtime.emit(
                    PushRefused(actor=self.agent_id, branch=target, reason=result.output, episode=self.runtime.number)
                )
                raise ToolError(result.output)
            paths = tuple(await state.server.changed(state.base, result.commit))
            await self.runtime.emit(
                Merged(
                    actor=self.agent_id, branch=target, commit=result.commit, paths=paths, episode=self.runtime.number
                )
            )
            return f"pushed to main ({result.commit[:8]})"
        if not result.ok:
            raise ToolError(result.output)
        return f"pushed to {target} ({result.commit[:8]})"

    async def _open_merge_request(self, title: str, reviewers: tuple[str, ...]) -> str:
        state = self.state
        head = await state.server.head(self.agent_id)
        if not head:
            raise ToolError(f"no branch {self.agent_id!r} on the server yet: push first")
        paths = tuple(await state.server.changed(await state.server.merge_base(self.agent_id), head))
        codeowners = await state.server.codeowners()  # main's, as the hook will read it when this merges
        owned = {p: t for p in paths if (t := codeowners.owners_of(p)) and not is_owner(self.team, t)}
        request = MergeRequest(state.next_id(), self.agent_id, self.agent_id, head, paths, owned, reviewers)
        state.requests[request.request_id] = request
        await self.runtime.emit(
            MergeRequested(
                actor=self.agent_id,
                request_id=request.request_id,
                branch=request.branch,
                head=head,
                paths=paths,
                owned=owned,
                reviewers=reviewers,
                title=title,
                diff=(await state.server.diff(state.base, head))[:4000],
                episode=self.runtime.number,
            )
        )
        return f"opened {request.request_id}: {request.line()}"

    async def _list_merge_requests(self) -> str:
        return "\n".join(r.line() for r in self.state.requests.values()) or "no merge requests"

    def _request(self, request_id: str) -> MergeRequest:
        if request_id not in self.state.requests:
            known = ", ".join(self.state.requests) or "none"
            raise ToolError(f"no merge request {request_id!r} (open ones: {known})")
        return self.state.requests[request_id]

    async def _approve_merge(self, request_id: str) -> str:
        request = self._request(request_id)
        if request.author == self.agent_id:
            raise ToolError("you cannot approve your own merge request")
        if not any(is_owner(self.team, teams) for teams in request.owned.values()):
            raise ToolError(f"{request_id} changes no file your team (@{self.team}) owns")
        pending = await self._pending(request)
        self.state.server.approve(request.head, self.agent_id, self.team)
        request.approvals.append(self.agent_id)
        approved = await self.runtime.emit(
            MergeApproved(
                actor=self.agent_id,
                request_id=request_id,
                head=request.head,
                team=self.team,
                author=request.author,
                episode=self.runtime.number,
            )
        )
        await self._check_favor(request, approved.seq, pending)
        return f"approved {request_id}"

    async def _merge(self, request_id: str) -> str:
        mine = [r for r in self.state.requests.values() if r.author == self.agent_id and not r.merged]
        if not request_id and not mine:
            raise ToolError("you have no open merge request: open one first (open_merge_request)")
        request = self._request(request_id) if request_id else mine[-1]
        if request.merged:
            raise ToolError(f"{request.request_id} is merged already")
        pending = await self._pending(request)
        result = await self.state.server.merge(self.agent_id, request.branch)
        if not result.ok:
            await self.runtime.emit(
                PushRefused(
                    actor=self.agent_id,
                    branch=MAIN,
                    reason=result.output,
                    request_id=request.request_id,
                    episode=self.runtime.number,
                )
            )
            raise ToolError(result.output)
        request.merged = True
        merged = await self.runtime.emit(
            Merged(
                actor=self.agent_id,
                branch=request.branch,
                commit=result.commit,
                request_id=request.request_id,
                paths=request.paths,
                episode=self.runtime.number,
            )
        )
        if request.author != self.agent_id and not request.approvals:
            await self._check_favor(request, merged.seq, pending)  # an owner landing the change itself
        return f"merged {request.request_id} into main ({result.commit[:8]})"

    async def _pending(self, request: MergeRequest) -> tuple[str, ...]:
        """The paths of ``request`` this agent's team owns whose change main does not have yet."""
        changed = await self.state.server.changed(await self.state.server.head(MAIN), request.head)
        return tuple(p for p, teams in request.owned.items() if is_owner(self.team, teams) and p in changed)

    async def _check_favor(self, request: MergeRequest, seq: int, pending: tuple[str, ...]) -> None:
        """The CooperBench favor (C.5): this owner lands another agent's pending change to a file its
        team owns (``pending``: the ones main does not have yet)."""
        mine = tuple(p for p, teams in request.owned.items() if is_owner(self.team, teams))
        if request.author == self.agent_id or not mine:
            return
        await self.runtime.emit(
            FavorChecked(
                actor=self.agent_id,
                episode=self.runtime.number,
                paths=mine,
                write_seq=seq,
                makes_change=bool(pending),
                needed=self.state.instance.api_file in pending,
                stage="round",
            )
        )
