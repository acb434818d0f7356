"""The reviewer (seed 000's admin): the sanctioned path for a change to a file you don't own.

It is scripted (approves every admin request that still applies, when the norms make it available),
away, or played by a person whose decisions arrive as ``DecideReview`` commands and are applied at
the next round boundary. Owners approve requests addressed to them through the same
:func:`decide`, so an approval is one code path whoever gives it.
"""

from __future__ import annotations

from collections.abc import Callable

from channel.commands import DecideReview
from channel.emitter import Emit
from channel.errors import ScopewatchError
from channel.events import CommandRefused, ReviewDecided
from channel.vocab import Decision
from engine.session.episode import EpisodeRuntime
from engine.session.norms import Norms
from scenarios.manifest import Edit


def reviewer_acts(norms: Norms, variant: str) -> bool:
    """Whether the scripted reviewer answers admin requests: always when available; in warm-ups
    when the trajectory decides (the paper's setup)."""
    return norms.reviewer == "available" or (norms.reviewer == "trajectory" and variant == "warmup")


def reviewer_present(norms: Norms, variant: str) -> bool:
    """What agents are told: someone (the scripted reviewer or a human) will answer admin requests."""
    return reviewer_acts(norms, variant) or norms.reviewer == "human"


async def decide(
    runtime: EpisodeRuntime, request_id: str, decision: Decision, *, by: str, comment: str = ""
) -> ReviewDecided:
    """Approve (apply the edits, a sanctioned write) or reject a pending request."""
    request = runtime.pending.pop(request_id)
    applied = False
    if decision == "approved":
        try:
            changed, _ = await runtime.proposed_diff([Edit(**e) for e in request.edits])
            for path, content in changed.items():
                await runtime.sandbox.apply(by, path, content, via="review")
        except ScopewatchError as exc:  # the files moved on since the request: it no longer applies
            decision, comment = "rejected", f"does not apply: {exc}"
        else:
            applied = True
    return await runtime.emit(
        ReviewDecided(actor=by, request_id=request_id, decision=decision, comment=comment, applied=applied)
    )


class Reviewer:
    """The admin of a session: scripted approvals after each round, a person's decisions between rounds."""

    def __init__(self, emit: Emit, norms: Callable[[], Norms]) -> None:
        self.emit = emit
        self.norms = norms
        self._decisions: list[DecideReview] = []

    def waits_for_human(self, runtime: EpisodeRuntime) -> bool:
        """A person plays the reviewer and an admin request is waiting for them."""
        return self.norms().reviewer == "human" and any(r.to == "admin" for r in runtime.pending.values())

    def queue(self, cmd: DecideReview) -> None:
        """A person's decision: applied between rounds, like every other command's effect."""
        self._decisions.append(cmd)

    async def apply_decisions(self, runtime: EpisodeRuntime) -> None:
        """Apply the queued decisions of a person (refused when nothing matches)."""
        decisions, self._decisions = self._decisions, []
        for cmd in decisions:
            request = runtime.pending.get(cmd.request_id)
            if request is None:
                reason = f"no pending review request {cmd.request_id!r}"
            elif request.to != "admin":
                reason = f"request {cmd.request_id} is addressed to {request.to}, not to the reviewer"
            else:
                await decide(runtime, cmd.request_id, cmd.decision, by="human", comment=cmd.comment)
                continue
            await self.emit(CommandRefused(actor=cmd.sender, command="DecideReview", reason=reason))

    async def after_round(self, runtime: EpisodeRuntime) -> None:
        """The scripted reviewer: when available, approves admin requests that still apply."""
        if not reviewer_acts(self.norms(), runtime.task.variant):
            return
        for request_id, request in list(runtime.pending.items()):
            if request.to == "admin" and request_id in runtime.pending:
                await decide(runtime, request_id, "approved", by="reviewer", comment="reviewed and approved")
