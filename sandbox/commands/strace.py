"""A reader of strace's output, for the options the exec tracer runs it with (:mod:`sandbox.commands.tracer`):
``-f -q -ttt -y --pidns-translation -e signal=!SIGCHLD,... --status=!failed -s N``.

It turns the lines into facts per process: ``execve`` / ``execveat`` (file, argv, time), successful
opens (flags, the absolute path ``-y`` resolved, the working directory ``-y`` shows for ``AT_FDCWD``; where ``-y``
names no file, past ``PATH_MAX``, the path the call named joined to the process's folder, or none:
:mod:`sandbox.commands.stracetext`),
renames and hard links (``rename``/``renameat``/``renameat2``/``link``/``linkat``: where a file
went, so a read under its new name is still a read of it), removals (``unlink``/``unlinkat``/``rmdir``:
what a program another agent wrote removed, :mod:`sandbox.commands.hooks`), descriptors closed or copied
(``close``, ``close_range``, ``dup``/``dup2``/``dup3``, ``fcntl(F_DUPFD)``: until when a process could write a file it
opened, :mod:`sandbox.commands.lastwrite`), process creation
(``clone``/``fork``/``vfork``: child -> parent and when, translated to strace's PID namespace) and exits
(``exit_group(N) = ?`` where an end begins, ``+++ exited with N +++``, ``+++ killed by SIG +++``), signals
sent (``kill``/``tkill``/``tgkill``/``pidfd_send_signal``, to whom; a signal's delivery, ``--- SIGTERM {...} ---``, is
skipped). Lines a busy process tree interleaves
(``<unfinished ...>`` / ``<... resumed>``) are joined first; an exec by a thread other than the main
one (``execve(...) <pid changed to N ...>``) is an exec of process ``N``, which the thread becomes.
Anything else is skipped: a line this reader does not understand loses that line's fact, never the
whole trace.
"""

from __future__ import annotations

import codecs
import io
import posixpath
import re
import signal
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from sandbox.commands.stracetext import decoration, named, paths, string, strings

_HEAD = re.compile(r"^(\d+)\s+(\d+\.\d+)\s+(.*)$")
_EXIT = re.compile(r"^\+\+\+ (?:exited with (\d+)|killed by (SIG\w+)(?: \(core dumped\))?) \+\+\+$")
_CALL = re.compile(r"^(\w+)\((.*)\)\s+=\s+(-?\d+|\?)(.*)$")
_PID_CHANGED = re.compile(r"\s*<pid changed to (\d+) \.\.\.>$")
_CHILD = re.compile(r"/\* (\d+) in strace's PID NS \*/")


@dataclass
class Exec:
    """One successful ``execve`` of a process."""

    pid: int
    ts: float
    file: str
    argv: tuple[str, ...]
    cwd: str = ""
    """The working directory: the first ``AT_FDCWD</dir>`` the process showed after the exec (the kernel's own
    answer); until then, or when it shows none (a program that opens with ``open``, as musl's do), where the trace
    had the process before the exec (:attr:`followed`)."""
    entered: float = 0.0
    """When the call began (``ts`` is when it returned, for a call strace showed unfinished, then resumed)."""
    followed: bool = False
    """:attr:`cwd` is where the process's ``chdir`` calls (and earlier ``AT_FDCWD``) led, not yet the kernel's."""


@dataclass(frozen=True)
class Open:
    """One successful open, with the absolute path ``-y`` resolved."""

    pid: int
    ts: float
    path: str
    flags: str
    fd: int = -1
    """The descriptor it returned."""
    bare: bool = False
    """``-y`` could not name the file (:mod:`sandbox.commands.stracetext`): ``path`` is the one the call named,
    joined to the folder the process was followed to, or ``""`` (unknown)."""


@dataclass(frozen=True)
class Move:
    """One successful rename or hard link: ``src`` now (also) has the name ``dst`` (absolute paths)."""

    pid: int
    ts: float
    src: str
    dst: str
    kind: str = "rename"
    """``rename``, ``link`` (``src`` keeps its name), ``exchange`` (``RENAME_EXCHANGE``: the two swap) or
    ``unnamed``: ``src`` is a link in ``/proc`` (``/proc/self/fd/3``: an open file) whose file the trace does
    not name (``/proc/self/cwd/...`` and ``/proc/self/root/...`` are taken as the paths they stand for)."""
    follow: bool = False
    """A ``linkat`` with ``AT_SYMLINK_FOLLOW``: ``src`` may be a symbolic link, the file linked the one it leads to."""


@dataclass(frozen=True)
class Signal:
    """One successful ``kill`` / ``tkill`` / ``tgkill`` / ``pidfd_send_signal`` of a signal that can end a
    process: ``target`` in strace's PID namespace, None for many (a process group, every process, a
    pidfd)."""

    pid: int
    ts: float
    target: int | None
    signal: str


@dataclass(frozen=True)
class Removal:
    """One successful ``unlink`` / ``unlinkat`` / ``rmdir`` (an absolute path)."""

    pid: int
    ts: float
    path: str


@dataclass(frozen=True)
class Descriptor:
    """Descriptor ``fd`` of process ``pid`` closed (``copy_of`` -1: ``close``, ``close_range``, the target of a
    ``dup2``) or made a copy of descriptor ``copy_of`` (``dup``, ``dup2``, ``dup3``, ``fcntl(F_DUPFD)``)."""

    pid: int
    ts: float
    fd: int
    copy_of: int = -1
    through: int = -1
    """A ``close_range``: every descriptor from ``fd`` to this one closed."""
    cloexec: bool = False
    """The copy is closed when the process execs (``O_CLOEXEC``, ``F_DUPFD_CLOEXEC``)."""


@dataclass
class ParsedTrace:
    execs: list[Exec] = field(default_factory=list)
    opens: list[Open] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    removed: list[Removal] = field(default_factory=list)
    parent: dict[int, int] = field(default_factory=dict)
    """child pid -> the pid that created it."""
    born: dict[int, float] = field(default_factory=dict)
    """child pid -> when it was created."""
    descriptors: list[Descriptor] = field(default_factory=list)
    exits: dict[int, tuple[float, int]] = field(default_factory=dict)
    """pid -> (time, exit code: 128 + signal number when killed)."""
    signals: list[Signal] = field(default_factory=list)
    exiting: dict[int, float] = field(default_factory=dict)
    """pid -> when it called ``exit_group`` (a PID namespace's init is reported ended only after the
    rest of its namespace: this is when its end began)."""
    skipped: int = 0
    """Lines not understood."""
    under: tuple[str, ...] = ("/",)
    """The folders whose opens are kept."""


def parse(lines: Iterable[str], opens_under: tuple[str, ...] = ("/",)) -> ParsedTrace:
    """The facts of a trace (see the module docstring); only the opens of paths under one of
    ``opens_under`` are kept (a Python program opens thousands of files the audit never asks about)."""
    parser = Parser(opens_under)
    for raw in lines:
        parser.line(raw)
    return parser.out


class Parser:
    """:func:`parse` a line at a time, or as the trace comes (:meth:`feed`, :meth:`finish`): an episode's jail
    parses each command's trace while the command runs (issue 29), with the same lines as a file of it read back
    as text (UTF-8 with replacement, universal newlines) would give."""

    def __init__(self, opens_under: tuple[str, ...] = ("/",)) -> None:
        self.out = ParsedTrace()
        self.out.under = opens_under
        self._pending: dict[int, tuple[float, str]] = {}
        self._last_exec: dict[int, Exec] = {}
        self._cwds: dict[int, list[str]] = {}
        # The pid of the last line: strace may end a call it left unfinished on a line of its own, with no
        # pid (a vfork's ``) = 3``, a clone's ``, child_tidptr=0x7f) = 113``, seen under load): a clone
        # lost there would hide its child's whole process tree from the audit.
        self._last = 0
        self._text = io.IncrementalNewlineDecoder(codecs.getincrementaldecoder("utf-8")("replace"), translate=True)
        self._partial: list[str] = []
        """The line begun and not ended yet, in the pieces it came in (joined once, when it ends: red team 7b, 01)."""
        self.abandoned = False
        """Set by its feeder when the trace grew too big to be parsed as it comes: the file is parsed instead."""

    def feed(self, data: bytes) -> None:
        """More of the trace's bytes."""
        text = self._text.decode(data)
        if "\n" not in text:
            self._partial.append(text)
            return
        lines = text.split("\n")
        if self._partial:
            lines[0] = "".join((*self._partial, lines[0]))
        self._partial = [lines.pop()]
        for raw in lines:
            self.line(raw)

    def finish(self) -> ParsedTrace:
        """The facts, once every byte was fed (the last line may lack its newline)."""
        rest = "".join((*self._partial, self._text.decode(b"", final=True)))
        self._partial = []
        for raw in rest.split("\n"):
            if raw:
                self.line(raw)
        return self.out

    def line(self, raw: str) -> None:
        line = raw.rstrip("\n")
        head = _HEAD.match(line)
        if head is None:
            last = self._last
            if line.startswith((")", ",")) and last in self._pending:
                ts, start = self._pending.pop(last)
                _line(self.out, self._last_exec, self._pending, self._cwds, last, ts, start + line)
            elif line.strip():
                self.out.skipped += 1
            return
        self._last = int(head.group(1))
        _line(self.out, self._last_exec, self._pending, self._cwds, self._last, float(head.group(2)), head.group(3))


def _line(
    out: ParsedTrace,
    last_exec: dict[int, Exec],
    pending: dict[int, tuple[float, str]],
    cwds: dict[int, list[str]],
    pid: int,
    ts: float,
    body: str,
) -> None:
    """One line of ``pid`` (joined with its unfinished start when it resumes one). ``cwds``: each process's
    working directory, in a cell the threads that share it (``CLONE_FS``) share (:func:`_cwd`)."""
    changed = _PID_CHANGED.search(body) if body.startswith(("execve(", "execveat(")) else None
    if changed is not None:
        pid, body = int(changed.group(1)), body[: changed.start()] + ") = 0"
    if body.endswith("<unfinished ...>"):
        pending[pid] = (ts, body[: -len("<unfinished ...>")].rstrip())
        return
    entered = ts
    if body.startswith("<... "):
        started = pending.pop(pid, None)
        cut = body.find(" resumed>")
        if started is None or cut < 0:
            out.skipped += 1
            return
        entered, body = started[0], started[1] + body[cut + len(" resumed>") :]
    if body.startswith("+++"):
        if pending.get(pid, (0.0, ""))[1].startswith("exit_group("):  # it never returns, nor resumes
            out.exiting.setdefault(pid, pending.pop(pid)[0])
        cwds.pop(pid, None)  # its pid may be another process's later
        _exit(out, pid, ts, body)
        return
    call = _CALL.match(body)
    if call is None or call.group(3) == "?":
        if call is None:
            out.skipped += 1
        elif call.group(1) == "exit_group":
            out.exiting.setdefault(pid, ts)
        return
    name, args, result, rest = call.group(1), call.group(2), int(call.group(3)), call.group(4)
    if result < 0:
        return
    _cwd(cwds, pid, name, args)
    base = cwds[pid][0] if pid in cwds else last_exec[pid].cwd if pid in last_exec else ""
    if name in ("execve", "execveat"):
        exec_ = _exec(pid, ts, name, args)
        if exec_ is None:
            out.skipped += 1
        else:
            exec_.entered = entered
            exec_.cwd, exec_.followed = base, bool(base)
            out.execs.append(exec_)
            last_exec[pid] = exec_
    elif name in ("openat", "open", "openat2", "creat"):
        _open(out, last_exec.get(pid), pid, ts, name, args, rest, result, base)
    elif name in ("rename", "renameat", "renameat2", "link", "linkat"):
        move = _move(pid, ts, name, args, base)
        if move is None:
            out.skipped += 1
        else:
            out.moves.append(move)
    elif name in ("unlink", "unlinkat", "rmdir"):
        gone = paths(args, 1, name == "unlinkat", base)
        if gone is None:
            out.skipped += 1
        else:
            out.removed.append(Removal(pid, ts, gone[0]))
    elif name in ("clone", "clone3", "fork", "vfork"):
        child = _CHILD.search(rest)
        born = int(child.group(1)) if child else result
        out.parent[born], out.born[born] = pid, ts
        if pid in cwds and born not in cwds:  # a child starts where its parent is (threads: in the same cell)
            cwds[born] = cwds[pid] if "CLONE_FS" in args else [*cwds[pid]]
    elif name in ("kill", "tkill", "tgkill", "pidfd_send_signal"):
        _signal(out, pid, ts, name, args)
    elif name in _DESCRIPTORS:
        out.descriptors += _descriptors(pid, ts, name, args, result)


def _cwd(cwds: dict[int, list[str]], pid: int, name: str, args: str) -> None:
    """Follow ``pid``'s working directory: what ``-y`` shows for ``AT_FDCWD`` (the kernel's own answer),
    ``fchdir(3</dir>)``, ``chdir("dir")`` (joined to the last one known and normalised: a ``..`` after a
    symbolic link is taken lexically until the next ``AT_FDCWD</dir>`` says where it went). Relative
    paths of ``rename`` / ``link`` / ``unlink`` are joined to it."""
    if args.startswith("AT_FDCWD<"):  # the first argument: a string's text could look like one
        found, _ = decoration(args, len("AT_FDCWD"))
    elif name == "fchdir":  # a folder -y cannot name: where the process is now is not known
        found, _ = decoration(args, args.find("<"))
        found = found or ""
    elif name == "chdir":
        found, _ = string(args, 0, "surrogateescape")
        if found is not None and not found.startswith("/"):
            known = cwds[pid][0] if pid in cwds else ""
            found = posixpath.normpath(f"{known}/{found}") if known else None
        elif found is not None:
            found = posixpath.normpath(found)
    else:
        return
    if found is None or (found and not found.startswith("/")):
        return
    if pid in cwds:
        cwds[pid][0] = found
    else:
        cwds[pid] = [found]


_HARMLESS = frozenset({"0", "SIGCHLD", "SIGURG", "SIGWINCH", "SIGCONT"})
"""Signals sent that end no process (``kill -0`` only asks whether it exists)."""


def _signal(out: ParsedTrace, pid: int, ts: float, name: str, args: str) -> None:
    first, _, rest = args.partition(",")
    sent = args.rsplit(",", 1)[-1].strip() if name != "pidfd_send_signal" else rest.split(",", 1)[0].strip()
    if sent in _HARMLESS:
        return
    translated = _CHILD.search(first)
    raw = first.split("/*", 1)[0].strip()
    if name == "pidfd_send_signal" or not raw.lstrip("-").isdigit() or int(raw) <= 0:
        target = None  # a group, every process, or a pidfd: any of them
    else:
        target = int(translated.group(1)) if translated else int(raw)
    out.signals.append(Signal(pid, ts, target, sent))


def program_at(trace: ParsedTrace, pid: int, ts: float) -> str:
    """The name of the program ``pid`` ran at ``ts`` (its last exec before; else its parent's)."""
    e = exec_at(trace, pid, ts)
    return "" if e is None else PurePosixPath(e.file).name


def exec_at(trace: ParsedTrace, pid: int, ts: float) -> Exec | None:
    """The exec whose program ``pid`` ran at ``ts`` (its last exec before; else its parent's: a fork, a thread)."""
    seen: set[int] = set()
    while pid and pid not in seen:
        seen.add(pid)
        last = [e for e in trace.execs if e.pid == pid and e.ts <= ts]
        if last:
            return last[-1]
        pid = trace.parent.get(pid, 0)
    return None


def _exit(out: ParsedTrace, pid: int, ts: float, body: str) -> None:
    m = _EXIT.match(body)
    if m is None:
        out.skipped += 1
        return
    if m.group(1) is not None:
        out.exits[pid] = (ts, int(m.group(1)))
    else:
        number = getattr(signal, m.group(2), None)
        out.exits[pid] = (ts, 128 + int(number) if number is not None else 255)


def _exec(pid: int, ts: float, name: str, args: str) -> Exec | None:
    pos = 0
    if name == "execveat":  # dirfd first: skip to the path
        pos = args.find('"')
        if pos < 0:
            return None
    if not args.startswith('"', pos):
        return Exec(pid, ts, "", ())  # strace could not read the arguments (only its own child's)
    dirfd = args[: max(0, pos - 2)]
    file, pos = string(args, pos)
    if file is None or not args.startswith(", [", pos):
        return None
    argv, _ = strings(args, pos + 2)
    if name == "execveat" and not file and dirfd:
        file = f"fd {dirfd}"  # AT_EMPTY_PATH: the descriptor is the file (``fd 3</memfd:x>(deleted)``)
    return Exec(pid, ts, file, tuple(argv))


def _open(
    out: ParsedTrace, exec_: Exec | None, pid: int, ts: float, name: str, args: str, rest: str, fd: int, cwd: str
) -> None:
    if exec_ is not None and (exec_.followed or not exec_.cwd) and args.startswith("AT_FDCWD<"):
        found, _ = decoration(args, len("AT_FDCWD"))
        if found:
            exec_.cwd, exec_.followed = found, False
    path, _ = decoration(rest, 0)  # no ``<...>``: a path -y cannot name (longer than PATH_MAX)
    bare = path is None
    path = named(name, args, cwd) if path is None else path
    if path and not path.startswith(out.under):
        return
    flags = args.rsplit(", ", 2)
    text = next((f for f in reversed(flags) if f.startswith("O_")), "")
    out.opens.append(Open(pid, ts, path, "O_WRONLY|O_CREAT|O_TRUNC" if name == "creat" else text, fd, bare))


def _move(pid: int, ts: float, name: str, args: str, cwd: str) -> Move | None:
    """``rename("a", "b")`` / ``renameat2(AT_FDCWD</d>, "a", 3</e>, "b", 0)``: relative paths are
    joined to the folder ``-y`` shows for their dirfd, else to the process's working directory ``cwd``."""
    both = paths(args, 2, name.endswith(("at", "at2")), cwd)
    if both is None:
        return None
    kind = "link" if name.startswith("link") else "exchange" if "RENAME_EXCHANGE" in args else "rename"
    src = both[0]
    own = _OWN.match(src)
    if own is not None and (own.group(1) == "root" or cwd):
        src = posixpath.normpath(f"{'/' if own.group(1) == 'root' else cwd}/{own.group(2) or ''}")
    elif src.startswith(("/proc/", "/dev/fd/", "/dev/std")):
        kind = "unnamed"
    return Move(pid, ts, src, both[1], kind, kind == "link" and "AT_SYMLINK_FOLLOW" in args.rsplit(", ", 1)[-1])


_OWN = re.compile(r"^/proc/(?:self|thread-self)/(cwd|root)(?:/(.*))?$")


_DESCRIPTORS = frozenset({"close", "close_range", "dup", "dup2", "dup3", "fcntl"})
_NUMBER = re.compile(r"\d+")


def _descriptors(pid: int, ts: float, name: str, args: str, result: int) -> list[Descriptor]:
    """What ``close(3</a>) = 0``, ``close_range(3, 4294967295, 0)``, ``dup2(3</a>, 1</b>) = 1``,
    ``fcntl(5</a>, F_DUPFD_CLOEXEC, 10) = 11`` did to the process's descriptors."""
    fds = [int(m.group()) for m in (_NUMBER.match(a.strip()) for a in args.split(", ")) if m is not None]
    if name == "close":
        return [Descriptor(pid, ts, fds[0])] if fds else []
    if name == "close_range":  # a flag (CLOSE_RANGE_CLOEXEC, _UNSHARE) is taken as closing nothing
        return [Descriptor(pid, ts, fds[0], through=fds[1])] if len(fds) == 3 and fds[2] == 0 else []
    if not fds or (name == "fcntl" and " F_DUPFD" not in args):
        return []
    cloexec = "CLOEXEC" in args
    if name in ("dup2", "dup3"):
        copy = Descriptor(pid, ts, result, fds[0], cloexec=cloexec)
        return [] if result == fds[0] else [Descriptor(pid, ts, result), copy]
    return [Descriptor(pid, ts, result, fds[0], cloexec=cloexec)]
