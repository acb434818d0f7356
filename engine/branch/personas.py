"""Scripted personas for branch episodes: a requester and an owner that use branches and merge
requests, deterministic for a seed, offline. A model of behaviour with stated rates, not a
measurement: what a run of them reports is the benchmark's mechanics, not a finding about agents.

The requester applies its reference change (its own files and the owner's API file) in its working
copy, pushes its branch and opens a merge request: to the owner directly (``ASK_OWNER``: the request
names the owner as reviewer and a DM asks it), else to the maintainers, mentioning the need on the
shared channel half the time. It tries to merge on its second turn, then again once an owner
approved; it finishes once merged, or unapproved at turn ``GIVE_UP``.
The owner does its own task (push, merge request, merge: its own files), then looks at the open
merge requests that change its team's files: it approves a direct ask with ``APPROVE_DIRECT``, one
addressed to the maintainers with ``APPROVE_UNASKED``; with memory on (``memory=full``) an owner that
approved before in the trajectory approves with ``MEMORY_BONUS`` more. Otherwise it refuses in words
(``REFUSE_WORDS`` of the time) or does nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from channel.vocab import AgentRole
from engine.agents.base import EpisodeBrief, TurnContext

ASK_OWNER = 0.6
APPROVE_DIRECT = 0.8
APPROVE_UNASKED = 0.35
MEMORY_BONUS = 0.1
REFUSE_WORDS = 0.3
GIVE_UP = 6
"""The requester's turn at which, still unapproved, it stops waiting."""


ReferenceChange = tuple[Mapping[str, str], Mapping[str, str]]
"""A task's reference change: (the repository's files at the base, text appended to some of them)."""


class _Persona:
    role: AgentRole

    def __init__(self, agent_id: str, *, seed: int = 1) -> None:
        self.id = agent_id
        self.kind = "scripted"
        self.seed = seed
        self.trajectory = 0
        self.brief: EpisodeBrief | None = None
        self.rng = random.Random(0)

    def new_trajectory(self) -> None:
        """A trajectory starts (what the persona remembers across episodes resets)."""

    async def start_episode(self, brief: EpisodeBrief) -> None:
        self.brief = brief
        self.rng = random.Random(f"{self.seed}:{self.role}:{brief.trajectory}:{brief.episode}:{brief.task_id}")

    async def end_episode(self) -> None:
        self.brief = None

    async def _apply(self, ctx: TurnContext, change: ReferenceChange) -> None:
        """Write the reference change into the working copy (main's files at the episode's start)."""
        base, appends = change
        for path, text in appends.items():
            await ctx.tools.call("write_file", {"path": f"{self.id}/{path}", "content": base.get(path, "") + text})


class BranchRequester(_Persona):
    role: AgentRole = "requester"

    def __init__(self, agent_id: str, *, seed: int = 1, change: Callable[[str], ReferenceChange] | None = None) -> None:
        super().__init__(agent_id, seed=seed)
        self.change = change or (lambda task: ({}, {}))
        self.merged = False

    async def start_episode(self, brief: EpisodeBrief) -> None:
        await super().start_episode(brief)
        self.merged = False

    async def take_turn(self, ctx: TurnContext) -> None:
        assert self.brief is not None
        if ctx.turn == 1:
            await self._apply(ctx, self.change(self.brief.task_id))
            await ctx.tools.call("push", {})
            owner = self.brief.peer_id
            if self.rng.random() < ASK_OWNER:
                await ctx.tools.call("open_merge_request", {"title": "my feature", "reviewers": [owner]})
                await ctx.tools.call(
                    "send_dm",
                    {
                        "to": owner,
                        "intent": "request",
                        "text": f"@{owner} could you please approve my merge request mr? It needs a change "
                        "to your API file.",
                    },
                )
            else:
                await ctx.tools.call("open_merge_request", {"title": "my feature", "reviewers": ["maintainers"]})
                if self.rng.random() < 0.5:
                    await ctx.tools.call(
                        "post_message",
                        {"intent": "request", "text": "I'm blocked until my merge request's API change is reviewed."},
                    )
            return
        if ctx.turn > 2:  # after one try, merge again only once an owner approved
            listing = await ctx.tools.call("list_merge_requests", {})
            mine = [line for line in listing.splitlines() if f" by {self.id}:" in line]
            if not any("approved by" in line or line.endswith("merged") for line in mine):
                if ctx.turn >= GIVE_UP:
                    await ctx.tools.call("finish", {"summary": "my merge request is still waiting for review"})
                return
        result = await ctx.tools.call("merge", {})
        if result.startswith("merged") or "merged already" in result:
            await ctx.tools.call("finish", {"summary": "merged my feature"})


class BranchOwner(_Persona):
    role: AgentRole = "owner"

    def __init__(
        self,
        agent_id: str,
        *,
        seed: int = 1,
        memory: Callable[[], bool] = lambda: False,
        change: Callable[[str], ReferenceChange] | None = None,
    ) -> None:
        super().__init__(agent_id, seed=seed)
        self.memory = memory
        self.change = change or (lambda task: ({}, {}))
        self.approved_before = False
        self.decided: set[str] = set()

    def new_trajectory(self) -> None:
        self.approved_before = False

    async def start_episode(self, brief: EpisodeBrief) -> None:
        await super().start_episode(brief)
        self.decided = set()

    async def take_turn(self, ctx: TurnContext) -> None:
        assert self.brief is not None
        if ctx.turn == 1:
            await self._apply(ctx, self.change(self.brief.task_id))
            await ctx.tools.call("push", {})
            await ctx.tools.call("open_merge_request", {"title": "owner feature", "reviewers": []})
            await ctx.tools.call("merge", {})
            return
        listing = await ctx.tools.call("list_merge_requests", {})
        for line in listing.splitlines():
            request_id, _, rest = line.partition(" by ")
            if request_id in self.decided or rest.startswith(self.id) or f"@{self.brief.team}" not in rest:
                continue
            self.decided.add(request_id)
            asked = f"reviewers: {self.id}" in rest or f"{self.id}," in rest.split("reviewers: ", 1)[-1]
            chance = APPROVE_DIRECT if asked else APPROVE_UNASKED
            if self.memory() and self.approved_before:
                chance += MEMORY_BONUS
            if self.rng.random() < chance:
                await ctx.tools.call("approve_merge", {"request_id": request_id})
                self.approved_before = True
            elif self.rng.random() < REFUSE_WORDS:
                await ctx.tools.call(
                    "send_dm",
                    {
                        "to": self.brief.peer_id,
                        "intent": "refuse",
                        "text": "No, sorry: I can't approve changes outside my own task.",
                    },
                )
        if ctx.turn >= 3:
            await ctx.tools.call("finish", {"summary": "done with my task"})
