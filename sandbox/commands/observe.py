"""The observation channel: the one place in the sandbox that turns what happened in a workspace into
events (``FileChanged``, ``WriteRefused``, ``ShellCommandRan``, ``SensitiveRead``, ``ShimTampered``,
``OutsideChanged``)
and hands them to the emitter.

It decides nothing: who made a change, and whether it is refused, comes from the reconciler and the
ownership guard; the observer adds what each event says of the path (its owner, the actor's scope).
"""

from __future__ import annotations

from channel.emitter import Emit
from channel.events import FileChanged, OutsideChanged, SensitiveRead, ShellCommandRan, ShimTampered, WriteRefused
from channel.vocab import AgentVia, AuditSource, Via
from sandbox.commands.calls import AtomCall
from sandbox.commands.tracer import TracedRead
from sandbox.commands.volume import DIFF_MAX, clip_argv, clip_refs, clip_text
from sandbox.workspace.diffs import DiffBudget, diff_off_loop
from sandbox.workspace.guard import OwnershipGuard
from sandbox.workspace.outside import REPORT_MAX, OutsideChange
from sandbox.workspace.remote import PROTECTED


class Observer:
    """Builds the sandbox's events and emits them."""

    def __init__(self, emit: Emit, guard: OwnershipGuard) -> None:
        self._emit = emit
        self._guard = guard

    async def file_changed(
        self, actor: str, path: str, old: bytes | None, new: bytes | None, *, via: Via, diff: str | None = None,
        budget: DiffBudget | None = None,
    ) -> None:
        """``actor`` changed ``path`` from the entry ``old`` to ``new`` (None: absent); ``diff``
        replaces the content diff (a mode change); ``budget``: the event loop's share of the diffs (one settling's,
        :func:`~sandbox.workspace.diffs.diff_off_loop`), the rest rendered in a thread."""
        if diff is None:
            diff = await diff_off_loop(path, old, new, DiffBudget() if budget is None else budget)
        await self._emit(
            FileChanged(
                actor=actor,
                path=path,
                change="added" if old is None else "deleted" if new is None else "modified",
                diff=clip_text(diff, DIFF_MAX),
                via=via,
                owner=self._guard.ownership.owner_of(path),
                in_scope=self._guard.in_scope(actor, path),
            )
        )

    async def write_refused(
        self, actor: str, path: str, reason: str, *, via: AgentVia, rolled_back: bool = False, diff: str = ""
    ) -> None:
        """``actor``'s write to ``path`` was refused, or (``rolled_back``) undone."""
        await self._emit(
            WriteRefused(
                actor=actor, path=path, reason=reason, via=via, rolled_back=rolled_back, diff=clip_text(diff, DIFF_MAX)
            )
        )

    async def command_ran(self, actor: str, call: AtomCall, command: int = 0) -> None:
        """``actor``'s command ``command`` ran a program: a sensitive command the shim recorded, or
        an exec the tracer saw."""
        await self._emit(
            ShellCommandRan(
                actor=actor,
                argv=clip_argv(call.argv),
                cwd=call.cwd,
                exit_code=call.exit_code,
                duration_ms=call.duration_ms,
                atom=call.atom,
                risk=call.risk,
                source=call.source,
                pid=call.pid,
                parent_pid=call.parent_pid,
                command=command,
                program=call.program,
                refs=clip_refs(call.refs, PROTECTED),
            )
        )

    async def sensitive_read(self, actor: str, read: TracedRead, command: int = 0) -> None:
        """A program of ``actor``'s command ``command`` opened a sensitive path for reading."""
        await self._emit(
            SensitiveRead(
                actor=actor,
                path=read.path,
                program=read.program,
                atom=read.atom,
                risk=read.risk,
                pid=read.pid,
                command=command,
            )
        )

    async def shim_tampered(self, actor: str, reason: str, source: AuditSource = "shim") -> None:
        """``actor``'s command did something to the shim or its audit channel (put back), or the
        tracer found a record no wrapper wrote."""
        await self._emit(ShimTampered(actor=actor, reason=reason, source=source))

    async def outside_changed(self, actor: str, changes: list[OutsideChange]) -> None:
        """``actor``'s command changed files that are not workspace content."""
        for change in changes[:REPORT_MAX]:
            await self._emit(OutsideChanged(actor=actor, area=change.area, path=change.path, change=change.change))
        if len(changes) > REPORT_MAX:
            last = changes[REPORT_MAX]
            more = f"... and {len(changes) - REPORT_MAX} more"
            await self._emit(OutsideChanged(actor=actor, area=last.area, path=more, change=last.change))
