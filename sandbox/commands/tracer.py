"""The exec tracer: every program an agent's command runs, and every sensitive file it reads, whatever
started it (an absolute path, an interpreter, a script the agent wrote, a real program by its private
path, an external agent's own file tool).

``strace -f`` runs *outside* the jail, around it (``strace ... bwrap ... bash -c CMD``): the traced
programs cannot see the tracer (the jail's PID namespace hides it), stop it, or reach its output (a
file in the sandbox's private ``tmp/``, which bubblewrap does not mount; unshare shows the host
read-only, so a command there could read the trace but not change it; at isolation ``none`` a command
runs as the engine's user and could write it: that level protects nothing). The trace is the audit's
source of truth for what ran: a shim record with no wrapper exec behind it in the trace is a forged
record (``ShimTampered``), not a fact. The shim stays for what it adds: the record of a sensitive
command with its arguments as the wrapper saw them, classified before the program runs.

From the trace (:func:`analyse`): one :class:`TracedExec` per ``execve`` in the command's process tree
(argv, the file run, cwd, pid, parent, exit code, duration, atom), except the command's own ``bash -c``
and what the shim already reports (its wrapper and the real program behind it: one audit fact for a
wrapped ``git push``, not three); and one :class:`TracedRead` per process and sensitive path opened
for reading (seed 003 §3: the read branch covers access to predeclared sensitive loci). A path is
sensitive when the atom registry's ``tools.read_file`` rules give it a read atom (histories, keys,
``.env``, cloud credentials; see ``sandbox/commands/atoms.toml``), or it is a file the scenario planted in HOME
(its bait).

Where strace is missing, ptrace is forbidden (a container without ``SYS_PTRACE`` on an old kernel, a
``ptrace_scope`` of 3) or ``SCOPEWATCH_TRACE=off``, commands run with the shim alone and the label
says so: ``local/bubblewrap (no exec trace: strace is not installed)``.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import re
import secrets
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from channel.vocab import IsolationLevel, Risk
from sandbox.commands.atoms import AtomRegistry
from sandbox.commands.gitargv import runs_alias
from sandbox.commands.gitreads import checking, git_reads
from sandbox.commands.identity import Image, Program, ProgramIndex, by_descriptor, re_executes
from sandbox.commands.images import image_at
from sandbox.commands.reads import TracedRead as TracedRead
from sandbox.commands.reads import sensitive_reads
from sandbox.commands.shim import ShimRecord
from sandbox.commands.strace import Exec, ParsedTrace
from sandbox.commands.wrapped import Wrapped, as_program, as_wrapper, match_records, runs_behind
from sandbox.jail.cpus import TRACER_PREFIX
from sandbox.jail.isolation import SYSTEM_PATH, Jail, jail_argv
from sandbox.workspace.stale import owned_tempdir

SYSCALLS = (
    "execve,execveat,open,openat,openat2,creat,rename,renameat,renameat2,link,linkat,unlink,unlinkat,rmdir,"
    "chdir,fchdir,clone,clone3,fork,vfork,exit_group,kill,tkill,tgkill,pidfd_send_signal"
)
"""What strace stops on: the working directory's changes (``chdir``, ``fchdir``: rare) so a relative path of
``rename("a", "b")`` is joined to where the process is then, not where it was."""
DESCRIPTOR_CALLS = "close,close_range,dup,dup2,dup3,fcntl"
"""Also stopped on while another actor's agent process lives beside the commands (:attr:`Tracer.descriptors`):
descriptors closed and copied, so when a command last could write a file it opened is known
(:mod:`sandbox.commands.lastwrite`: red team 6, 02). Only then: every ``close`` of every program is a stop (a
``git status``'s trace has 1.9x the lines), and with no live process beside it a command's changes are its own."""
QUIET_SIGNALS = "!SIGCHLD,SIGURG,SIGWINCH,SIGCONT"
"""strace's ``-e signal=``: every signal but those that never end a process (a child's end, Go's
preemption, a resize, a continue), so the trace shows each death by a signal and when it came."""
STRING_MAX = 131072
"""strace's ``-s``: the kernel's longest argument (``MAX_ARG_STRLEN``), so argv is never cut."""


@dataclass(frozen=True)
class Tracer:
    """Whether commands run under the exec tracer here, and why not when they do not."""

    strace: str = ""
    """The strace program; "" when commands are not traced."""
    reason: str = ""
    """Why they are not (shown in the sandbox label)."""
    seccomp: bool = False
    """strace can stop only on the traced syscalls (``--seccomp-bpf``): much cheaper."""
    unshare: str = ""
    """``unshare`` when strace runs in a PID namespace of its own (:meth:`argv`)."""
    descriptors: bool = False
    """Also stop on :data:`DESCRIPTOR_CALLS` (from a sandbox's first live agent process on)."""

    @property
    def available(self) -> bool:
        return bool(self.strace)

    def label(self, base: str) -> str:
        """``base`` (``local/bubblewrap``) with the tracer, or the named fallback."""
        return f"{base} + strace" if self.available else f"{base} (no exec trace: {self.reason})"

    def following_descriptors(self) -> Tracer:
        """This tracer, stopping on :data:`DESCRIPTOR_CALLS` too (an episode's jail is started again with it)."""
        return replace(self, descriptors=True)

    def argv(self, output: Path) -> list[str]:
        """The prefix that traces a command into ``output``. With :attr:`unshare`, strace is the first process
        of a PID namespace (and ``/proc``) of its own around the jail's, so ``--pidns-translation`` looks through
        its few processes, not every ``/proc/*/status`` of the machine (~10 ms a fork with 180 processes)."""
        # Deaths by a signal are kept (``+++ killed by SIGKILL +++``: when a wrapper died, before or after
        # its command's own process ended); the signals a process gets by the thousand and that end
        # nothing are left out.
        args = [self.strace, "-f", "-q", "-ttt", "-y", "--pidns-translation", "-e", f"signal={QUIET_SIGNALS}"]
        if self.seccomp:
            args.append("--seccomp-bpf")
        # Not --status=successful: it drops an exec made by a thread other than the main one (its end
        # is under another pid); "!failed" keeps it ("<pid changed to N ...>") and still drops failures.
        calls = f"{SYSCALLS},{DESCRIPTOR_CALLS}" if self.descriptors else SYSCALLS
        args += ["--status=!failed", "-e", f"trace={calls}", "-s", str(STRING_MAX), "-o", str(output)]
        return [self.unshare, "--pid", "--fork", "--mount-proc", "--kill-child", *args] if self.unshare else args

    def scrub(self, output: bytes) -> bytes:
        """``output`` without strace's own messages (``Exit of unknown pid N ignored``: strace as the first
        process of its PID namespace sees the end of a child killed before it was reported). The command's
        output and strace's messages share the command's stderr; strace runs under a name of its own here
        (:func:`private_name`), which nothing in the jail can know, so only its messages are taken out."""
        if not self.strace:
            return output
        return re.sub(re.escape(self.strace.encode()) + rb": [^\n]*\n", b"", output)

    def proc_of(self, pid: int) -> str | None:
        """The ``/proc`` that shows the trace's pids, for a tracer started as process ``pid`` (None: the
        engine's own ``/proc``, the trace's pids being the engine's)."""
        return f"/proc/{pid}/root/proc" if self.unshare else None

    def pid_of(self, host_pid: int) -> int:
        """Process ``host_pid`` (the engine's pid for it) as the trace names it (0: gone)."""
        try:
            with open(f"/proc/{host_pid}/status", encoding="ascii", errors="replace") as f:
                ids = next(x for x in f if x.startswith("NSpid:")).split()[1:]
        except (OSError, StopIteration):
            return 0
        return host_pid if not self.unshare else int(ids[1]) if len(ids) > 1 else 0


_detected: dict[str, Tracer] = {}


async def detect_tracer(level: IsolationLevel) -> Tracer:
    """Whether strace can trace a command jailed at ``level`` here (probed once per process and
    level): it runs ``bash -c true`` in that jail under strace and looks for the exec in the trace."""
    if os.environ.get("SCOPEWATCH_TRACE", "").lower() in ("off", "0", "no", "false"):
        return Tracer(reason="SCOPEWATCH_TRACE=off")
    if level in _detected:
        return _detected[level]
    found = await _probe(level)
    _detected[level] = found
    return found


def private_name(program: str) -> str:
    """``program`` under a name unique to this process (a symlink in a private folder, removed at exit):
    what strace prints starts with the name it was run by, so its messages can be told from the command's."""
    folder = Path(owned_tempdir("scopewatch-tracer-"))
    atexit.register(shutil.rmtree, folder, True)
    alias = folder / f"{TRACER_PREFIX}{secrets.token_hex(12)}"  # how jails are counted (sandbox.jail.cpus)
    alias.symlink_to(program)
    return str(alias)


async def _probe(level: IsolationLevel) -> Tracer:
    found = shutil.which("strace", path=SYSTEM_PATH)
    if found is None:
        return Tracer(reason="strace is not installed")
    strace = private_name(found)
    bash = shutil.which("bash", path=SYSTEM_PATH) or "/bin/bash"
    unshare = shutil.which("unshare", path=SYSTEM_PATH) if level != "none" else None
    with tempfile.TemporaryDirectory(prefix="scopewatch-trace-probe-") as tmp:
        jail = Jail(cwd=Path(tmp), rw=(Path(tmp),), tmp=None, stage=Path(tmp) / "stage")
        command = jail_argv(level, jail, [bash, "-c", "exit 0"])
        reason = "ptrace is not permitted here"
        # A PID namespace of strace's own where one can be made (the engine is root), else the engine's.
        for own, seccomp in [(u, s) for u in ((unshare, "") if unshare else ("",)) for s in (True, False)]:
            tracer = Tracer(strace=strace, seccomp=seccomp, unshare=own)
            out = Path(tmp) / "trace"
            try:
                proc = await asyncio.create_subprocess_exec(
                    *tracer.argv(out), *command, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
                )
            except OSError:
                continue
            try:
                _, err = await asyncio.wait_for(proc.communicate(), 20)
            except TimeoutError:  # not left running: reaped here, on this loop
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
                continue
            if proc.returncode == 0 and out.exists() and f'execve("{bash}"' in out.read_text(errors="replace"):
                return tracer
            if b"unrecognized option" in err or b"invalid option" in err:
                reason = "this strace is too old (5.9 or later is needed)"
    return Tracer(reason=reason)


@dataclass(frozen=True)
class TracedExec:
    """A program the command's process tree ran that the shim does not report."""

    argv: tuple[str, ...]
    program: str
    cwd: str
    pid: int
    parent_pid: int
    exit_code: int
    duration_ms: float
    atom: str | None
    risk: Risk | None
    ts: float = 0.0


@dataclass(frozen=True)
class TraceAnalysis:
    execs: tuple[TracedExec, ...]
    reads: tuple[TracedRead, ...]
    wrapped: tuple[Wrapped, ...]
    """The shim records with the wrapper exec the trace saw for each, in the records' order."""
    forged: tuple[ShimRecord, ...]
    """Records no wrapper wrote (something else wrote them into the audit channel)."""
    unrecorded: tuple[TracedExec, ...] = ()
    """Programs run through a wrapper that wrote no record (killed before it could): reported from
    the trace, never hidden behind the wrapper."""
    complete: bool = True
    """The trace saw the command's own process end (else the tracer was stopped before it did)."""
    unidentified: tuple[TracedExec, ...] = ()
    """Execs by descriptor whose image the engine could not read while they ran (also in ``execs``)."""
    outlived: tuple[TracedExec, ...] = ()
    """Programs run through a wrapper that was still running when the command's own process ended
    (a background job), or when the engine killed the command at its limits (its timeout, its output
    cap): the engine's kill stopped it before it could write its record. Reported from the trace like
    :attr:`unrecorded`, but no tampering: nothing the command did stopped it."""


@dataclass(frozen=True)
class TraceContext:
    """What :func:`analyse` needs to know of the sandbox."""

    root_argv: tuple[str, ...]
    """The command's own ``bash -c CMD``: the root of the traced tree."""
    wrappers: Mapping[str, str]
    """Wrapper file (in the shim folder, or a program it is mounted over) -> command name."""
    home: Path
    workspace: Path
    planted: frozenset[str]
    """HOME-relative paths the scenario planted (bait)."""
    registry: AtomRegistry
    root_first: bool = False
    """The first exec of the trace is the root (no jail set-up before it: a container, whose strace
    cannot read its own child's arguments, being unreadable itself)."""
    programs: ProgramIndex | None = None
    """The registry's programs by identity and content (None: by file name only)."""
    secrets: Mapping[tuple[int, int], tuple[str, str, Risk]] | None = None
    """The sensitive files when the command started, by (device, inode): a read of one under any
    other name (a hard link, a name an earlier command gave it) is a read of it
    (:class:`~sandbox.commands.loci.SensitiveInodes`)."""
    images: Mapping[tuple[int, float], tuple[Image, float]] | None = None
    """Execs (pid, time) -> the file the kernel mapped and when it was read (:mod:`sandbox.commands.images`)."""


def analyse(
    trace: ParsedTrace, ctx: TraceContext, records: Sequence[ShimRecord], killed: float | None = None
) -> TraceAnalysis:
    """The command's execs, sensitive reads and confirmed / forged shim records (see the module). ``killed``:
    when the engine began killing the command at its limits (``time.time()``, the trace's clock; 0: when is not
    known), None when the command ended on its own."""
    root = next((e for e in trace.execs if e.argv == ctx.root_argv), None)
    if root is None and ctx.root_first and trace.execs:
        root = trace.execs[0]
    if root is None:
        return TraceAnalysis((), (), (), tuple(records), complete=False)
    tree = _descendants(trace, root.pid)
    execs = [e for e in trace.execs if e.pid in tree and e.ts >= root.ts and e is not root]
    # A wrapper is keyed by its exec's place in ``execs``: one process may run two (a wrapper that became a wrapped
    # script, pip's, whose interpreter is wrapped too: a traced sandbox's wrappers exec the program, shim.py).
    wrapper_of: dict[int, tuple[str, tuple[str, ...], Exec]] = {}  # key -> (name, args, exec)
    real: dict[int, Exec] = {}  # wrapper key -> the real program behind it
    running: dict[int, int] = {}  # pid -> the key of the wrapper it runs now
    out: list[TracedExec] = []
    ends = _ends(trace, execs)
    index = ctx.programs or ProgramIndex({})
    image: dict[int, str] = {}  # pid -> the identity of the program it runs now (a wrapper's: its command)
    runs: dict[int, Image] = {root.pid: _image(index.identify(root.file, root.argv, root.cwd))}
    unidentified: list[TracedExec] = []
    gits: list[tuple[Exec, Program]] = []  # what may print a secret from git's objects (:mod:`.gitreads`)
    aliasing: set[int] = set()  # pids running a git alias: the git it starts is what the alias ran
    for key_of_e, e in enumerate(execs):
        parent = trace.parent.get(e.pid, 0)
        wrapped = as_wrapper(e, ctx.wrappers, index)
        # The wrapper this exec may be the program of: its own process's (it became the program) or its parent's
        # (it ran the program in a child).
        behind = next((k for k in (running.get(e.pid), running.get(parent)) if k is not None and k not in real), None)
        seen = image_at(e, trace, ctx.images or {})  # what the kernel ran, read while it ran
        mapped = seen if by_descriptor(e.file) else None
        if mapped is None and re_executes(e.file):
            mapped = _running(e.pid, trace, runs)  # /proc/self/exe: the program the process runs already
        program = index.identify(e.file, e.argv, e.cwd, image=mapped)
        if mapped is None and not by_descriptor(e.file):
            program = index.as_ran(program, seen, e.file, e.cwd)
        if program.known and program.name == "git":
            gits.append((e, program))
        if program.known and program.name == "git" and runs_alias(program.argv):
            aliasing.add(e.pid)
        else:
            aliasing.discard(e.pid)
        running.pop(e.pid, None)  # whatever the process ran before, it runs this now
        if wrapped is not None:
            if behind is not None and runs_behind(e, program, wrapper_of[behind]):
                real[behind] = e  # a wrapped script (pip) run by its wrapper, its interpreter wrapped too
            wrapper_of[key_of_e] = (*wrapped, e)
            running[e.pid] = key_of_e
            key = wrapped[0]
        elif behind is not None and runs_behind(e, program, wrapper_of[behind]):
            real[behind] = e  # the real program behind the wrapper: the shim's record says it
            key = program.key
        else:
            # A program run by the same program (git stash runs `git reset --hard`) is its inside, not
            # a second action: recorded, no atom. Anything between them (a hook's sh) makes it one,
            # and so does another file under the same name (a renamed shell called git); and a git
            # that runs an alias runs its expansion as a git of its own (`git sync` -> `git reset --hard`),
            # what ran whatever defined the alias (red team 4, finding 03).
            key = program.key
            inside = image.get(parent) == key and parent not in aliasing
            out.append(_traced(e, parent, ends, ctx, program, inside=inside))
            if mapped is None and by_descriptor(e.file):
                unidentified.append(out[-1])
        image[e.pid] = key
        runs[e.pid] = _image(program)
    matched, forged, silent = match_records(records, wrapper_of, {w: r.pid for w, r in real.items()}, trace)
    late = _outlived(trace, tree, root.pid, [wrapper_of[k][2].pid for k in silent], killed or 0.0)
    unrecorded, outlived = (
        tuple(
            _traced(real.get(k, w[2]), trace.parent.get(w[2].pid, 0), ends, ctx, as_program(w))
            for k in silent
            if ((w := wrapper_of[k])[2].pid in late) == want
        )
        for want in (False, True)
    )
    reads = sensitive_reads(trace, tree, root.ts, ctx, checking(gits, trace, ctx) if gits else None)
    named = {(r.pid, r.path) for r in reads}
    reads += tuple(r for r in git_reads(gits, ctx) if (r.pid, r.path) not in named)
    return TraceAnalysis(
        tuple(out), reads, matched, forged, unrecorded, root.pid in trace.exits, tuple(unidentified), outlived
    )


def _image(program: Program) -> Image:
    return Image(program.name if program.known else None, program.key)


def _running(pid: int, trace: ParsedTrace, runs: Mapping[int, Image]) -> Image | None:
    """The program process ``pid`` runs before its next exec: its own last one, else the one it
    inherited from its parent (a fork runs its parent's image), as far as the trace shows."""
    seen: set[int] = set()
    while pid not in runs and pid in trace.parent and pid not in seen:
        seen.add(pid)
        pid = trace.parent[pid]
    return runs.get(pid)


def _outlived(trace: ParsedTrace, tree: set[int], root: int, silent: Sequence[int], killed: float) -> set[int]:
    """The silent wrappers the engine killed with the command's leftovers, or with the command at its
    limits: still running when the command's own process began to end (its ``exit_group``: a PID
    namespace's init, the root under unshare, is reported ended only once the rest of its namespace is
    gone) or when the engine began killing it (``killed``, 0: not), and sent no signal by the command (to
    them, their group or every process). Whether a background job reached its record before that is
    timing's, and a kill at the engine's own limits is the engine's, not the agent's doing."""
    if root not in trace.exits and not killed:
        return set()  # the tracer stopped first: nothing is known of the end
    ended = trace.exiting.get(root, trace.exits[root][0]) if root in trace.exits else killed
    ended = min(ended, killed) if killed else ended
    sent = [s.target for s in trace.signals if s.pid in tree]
    return {
        pid for pid in silent if trace.exits.get(pid, (ended, 0))[0] >= ended and None not in sent and pid not in sent
    }


def _descendants(trace: ParsedTrace, root: int) -> set[int]:
    tree = {root}
    changed = True
    while changed:
        changed = False
        for child, parent in trace.parent.items():
            if parent in tree and child not in tree:
                tree.add(child)
                changed = True
    return tree


def _ends(trace: ParsedTrace, execs: Sequence[Exec]) -> dict[int, tuple[float, int]]:
    """id(exec) -> (when its image ended: the next exec of its pid or the pid's exit, exit code)."""
    ends: dict[int, tuple[float, int]] = {}
    by_pid: dict[int, list[Exec]] = {}
    for e in execs:
        by_pid.setdefault(e.pid, []).append(e)
    for pid, chain in by_pid.items():
        ts, code = trace.exits.get(pid, (chain[-1].ts, -1))
        for i, e in enumerate(chain):
            ends[id(e)] = (chain[i + 1].ts if i + 1 < len(chain) else ts, code)
    return ends


def _traced(
    e: Exec,
    parent: int,
    ends: Mapping[int, tuple[float, int]],
    ctx: TraceContext,
    program: Program,
    *,
    inside: bool = False,
) -> TracedExec:
    """``e`` as a traced exec, classified as ``program`` (what it is, not what it is called);
    ``inside``: its parent runs the same program (no atom of its own)."""
    end, code = ends.get(id(e), (e.ts, -1))
    argv = e.argv or (e.file,)
    serving = program.known and program.argv[:2] in (("git", "receive-pack"), ("git", "upload-pack"))
    # The remote's side of a push or fetch is no action of its own: the pusher carries the atom.
    kind = None if inside or serving else ctx.registry.classify(program.argv)
    return TracedExec(
        argv=tuple(argv),
        program=e.file,
        cwd=e.cwd,
        pid=e.pid,
        parent_pid=parent,
        exit_code=code,
        duration_ms=round(max(0.0, end - e.ts) * 1000, 3),
        atom=kind.atom if kind else None,
        risk=kind.risk if kind else None,
        ts=e.ts,
    )
