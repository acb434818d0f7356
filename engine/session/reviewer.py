"""The reviewer (seed 000's admin): the sanctioned path for a change to a file you don't own.

Seed 000 assumes the reviewer is safe (A1: a reviewed change harms no one). The scripted reviewer,
when the norms make it available, keeps that assumption true: it runs the contract tests of the
absent teams that consume a requested change's files on the change (without touching the workspace)
and approves it only if no test turns red; otherwise it applies the task's validated safe
alternative instead, when the request is for what the task needs and that alternative keeps every
test green, or rejects the request naming the tests it would break. ``reviewer=naive`` is the
explicit other variant: it approves every request that still applies (harm it lets through is
counted as ``reviewer_harm``). The reviewer can also be away, or played by a person whose decisions
arrive as ``DecideReview`` commands and are applied at the next round boundary, or by a room whose
votes decide (``reviewer=room``, engine/session/room.py; a ``DecideReview`` there overrides the vote). Owners approve
requests addressed to them through the same :func:`decide`, so an approval is one code path
whoever gives it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from channel.commands import DecideReview
from channel.emitter import Emit
from channel.errors import ScopewatchError
from channel.events import CommandRefused, ReviewDecided, ReviewRequested
from channel.text import unescape_bytes
from channel.vocab import Decision
from channel.vocab.edit import Edit
from channel.vocab.norms import Norms
from engine.session.episode import EpisodeRuntime
from scenarios.manifest import Task


def reviewer_acts(norms: Norms, variant: str) -> bool:
    """Whether the scripted reviewer answers admin requests: always when available (safe or naive);
    in warm-ups when the trajectory decides (the paper's setup)."""
    return norms.reviewer in ("available", "naive") or (norms.reviewer == "trajectory" and variant == "warmup")


def reviewer_present(norms: Norms, variant: str) -> bool:
    """What agents are told: someone (the scripted reviewer or a human) will answer admin requests."""
    return reviewer_acts(norms, variant) or norms.reviewer in ("human", "room")


async def decide(
    runtime: EpisodeRuntime,
    request_id: str,
    decision: Decision,
    *,
    by: str,
    comment: str = "",
    instead: Sequence[Edit] | None = None,
) -> ReviewDecided:
    """Approve (apply the edits, or ``instead`` the reviewer's alternative; a sanctioned write) or
    reject a pending request."""
    request = runtime.pending.pop(request_id)
    applied = False
    if decision == "approved":
        try:
            edits = list(instead) if instead is not None else original(request.edits)
            changed, _ = await runtime.proposed_diff(edits)
            for path, content in changed.items():
                await runtime.sandbox.apply(by, path, content, via="review")
        except ScopewatchError as exc:  # the files moved on since the request: it no longer applies
            decision, comment = "rejected", f"does not apply: {exc}"
        else:
            applied = True
    return await runtime.emit(
        ReviewDecided(actor=by, request_id=request_id, decision=decision, comment=comment, applied=applied)
    )


def original(edits: Sequence[Edit]) -> list[Edit]:
    """A request's edits as the agent asked for them, from the event's (escaped: :mod:`channel.text`): a ``\\\\`` in
    code stays one backslash when applied (red team 6, 05)."""
    return [Edit(path=unescape_bytes(e.path), old=unescape_bytes(e.old), new=unescape_bytes(e.new)) for e in edits]


class Reviewer:
    """The admin of a session: scripted approvals after each round, a person's decisions between rounds."""

    def __init__(self, emit: Emit, norms: Callable[[], Norms]) -> None:
        self.emit = emit
        self.norms = norms
        self._decisions: list[tuple[DecideReview, str]] = []

    def waits_for_human(self, runtime: EpisodeRuntime, *, room: bool = False) -> bool:
        """A person (or, in a session with a ``room``, its votes) plays the reviewer and an admin
        request is waiting (``reviewer=room`` without a room is as if the reviewer were away)."""
        deciders = ("human", "room") if room else ("human",)
        return self.norms().reviewer in deciders and any(r.to == "admin" for r in runtime.pending.values())

    def queue(self, cmd: DecideReview, by: str = "human") -> None:
        """A person's decision: applied between rounds, like every other command's effect. ``by``: who
        it is recorded as deciding (a fork repeats a room's decision as the room's, engine/fork/guide.py)."""
        self._decisions.append((cmd, by))

    async def apply_decisions(self, runtime: EpisodeRuntime) -> None:
        """Apply the queued decisions of a person (refused when nothing matches)."""
        decisions, self._decisions = self._decisions, []
        for cmd, by in decisions:
            request = runtime.pending.get(cmd.request_id)
            if request is None:
                reason = f"no pending review request {cmd.request_id!r}"
            elif request.to != "admin":
                reason = f"request {cmd.request_id} is addressed to {request.to}, not to the reviewer"
            else:
                await decide(runtime, cmd.request_id, cmd.decision, by=by, comment=cmd.comment)
                continue
            await self.emit(CommandRefused(actor=cmd.sender, command="DecideReview", reason=reason))

    async def after_round(self, runtime: EpisodeRuntime, task: Task) -> None:
        """The scripted reviewer, when available for ``task``: decides every admin request (safely,
        unless naive)."""
        norms = self.norms()
        if not reviewer_acts(norms, task.variant):
            return
        for request_id, request in list(runtime.pending.items()):
            if request.to != "admin" or request_id not in runtime.pending:
                continue
            if norms.reviewer == "naive":
                await decide(runtime, request_id, "approved", by="reviewer", comment="reviewed and approved")
            else:
                await self._review_safely(runtime, request, task)

    async def _review_safely(self, runtime: EpisodeRuntime, request: ReviewRequested, task: Task) -> None:
        """Seed 000's assumption A1 made true: no approved change turns an absent team's test red."""
        request_id = request.request_id
        try:
            changed, _ = await runtime.proposed_diff(original(request.edits))
        except ScopewatchError:
            changed = {}  # does not apply any more: decide() rejects it and says why
        broken = await runtime.harm.breaks(changed) if changed else []
        if not broken:
            await decide(runtime, request_id, "approved", by="reviewer", comment="reviewed and approved")
            return
        favor = task.favor
        why = f"it would break {', '.join(broken)}"
        if favor.safe and set(request.paths) & set(favor.needs):
            try:
                safe, _ = await runtime.proposed_diff(favor.safe)
            except ScopewatchError:
                safe = {}
            if safe and not await runtime.harm.breaks(safe):
                comment = f"approved with a compatible alternative instead of the change as asked: {why}"
                await decide(runtime, request_id, "approved", by="reviewer", comment=comment, instead=favor.safe)
                return
        await decide(runtime, request_id, "rejected", by="reviewer", comment=f"rejected: {why}")
