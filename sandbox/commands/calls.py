"""What a command ran, as the sandbox reports it: one :class:`AtomCall` per program, and the
:class:`CommandRun` a shell runner returns (both backends' runners make the same)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from channel.vocab import AuditSource, Risk
from sandbox.commands.tracer import TracedRead

FORGED_RECORD = "a shim record no wrapper wrote (forged into the audit channel)"
"""How a record the trace shows no wrapper wrote is reported (``ShimTampered``), before its command line."""

Hooks = tuple[tuple[str, tuple[str, ...]], ...]
"""Each program from the workspace, HOME or ``/tmp`` that ran, and the workspace paths it wrote."""


@dataclass(frozen=True)
class AtomCall:
    """A program a command ran: a sensitive command the shim recorded (classified as an atom), or an
    exec the tracer saw (``atom`` None when it is no action of the registry)."""

    argv: tuple[str, ...]
    cwd: str
    """Relative to the workspace root when inside it, else as recorded."""
    exit_code: int
    duration_ms: float
    atom: str | None
    risk: Risk | None
    source: AuditSource = "shim"
    pid: int = 0
    parent_pid: int = 0
    program: str = ""
    refs: tuple[str, ...] = ()
    """The remote refs this push updated (:mod:`sandbox.workspace.remote`): what classified it."""


@dataclass(frozen=True)
class Footprint:
    """What the trace shows a command's own processes did, so that what another process (a live agent process,
    :mod:`sandbox.commands.agentproc`) did meanwhile is not the command's (red team 5, findings 03 and 04)."""

    written: frozenset[str] | None = None
    """Every workspace path (root-relative) its processes opened for writing, created, renamed, linked or removed;
    None when not known (untraced, or a write the trace cannot name): then every change found is the command's."""
    strays: tuple[str, ...] = ()
    """Shim records no wrapper of it wrote while none of its own processes wrote to the audit channel beyond its
    wrappers' records: written by a process outside the command."""
    ends: Mapping[str, float] = field(default_factory=dict)
    """Path of :attr:`written` -> the latest moment (strace's clock, seconds) a process of the command could still
    write it (:mod:`sandbox.commands.lastwrite`); a change made later is not the command's."""
    gone: frozenset[str] = frozenset()
    """The paths of :attr:`written` its processes removed or renamed away."""


@dataclass(frozen=True)
class CommandRun:
    """What one command did: exit code, output, whether it timed out, its atom calls in order."""

    exit_code: int
    output: str
    timed_out: bool
    calls: tuple[AtomCall, ...]
    tampered: tuple[str, ...] = ()
    """What the command did to the shim or its audit channel (each already put back)."""
    reads: tuple[TracedRead, ...] = ()
    """Sensitive files its programs opened for reading (the tracer's)."""
    command: int = 0
    """Its number in this sandbox (from 1): the events it caused carry it."""
    forged: tuple[str, ...] = ()
    """Shim records the trace shows no wrapper wrote (each a forgery, not a fact)."""
    hooks: Hooks = ()
    """Each program from the workspace, HOME or ``/tmp`` that ran (a git hook: ``.git/hooks/NAME``)
    and the workspace paths it wrote (:mod:`sandbox.commands.hooks`): its author's changes, not the runner's."""
    write_opens: bool = True
    """A process of it may have opened a workspace file for writing, or given one another name (a hard link, which
    may be in ``.git``, HOME or ``/tmp``: a write through it is heard by no watch; True unless a whole trace shows
    none: :func:`~sandbox.commands.hooks.opened_for_writing`): the inotify event of that file's last close may come
    after the command (a write through a shared ``mmap`` queues none, and a descriptor in flight in an unreachable unix
    socket is closed by the kernel's garbage collector, later), so the reconcile after it scans the whole
    workspace whatever the sentry says (:mod:`sandbox.workspace.sentry`)."""
    footprint: Footprint = Footprint()
    """What its own processes touched (the trace's; by default nothing known: all found is the command's)."""
    audit_lost: str = ""
    """Why the engine could not keep the command's audit (its exec trace could not be written), "" when it could: the
    audit then fails closed: every workspace change of the command is refused and rolled back, naming this."""
