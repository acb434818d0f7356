"""The sensitive files a command's process tree read (seed 003 §3), from its trace (:mod:`sandbox.commands.strace`):
each open for reading of a sensitive locus (:mod:`sandbox.commands.loci`) by name, by the name it had before the
command's renames and hard links (:class:`~sandbox.commands.loci.Names`), or by inode (a hard link made earlier).

A hard link made from an open file (``linkat(AT_FDCWD, "/proc/self/fd/3", AT_FDCWD, "x", AT_SYMLINK_FOLLOW)``,
after an ``O_PATH`` open of a secret) names no file the trace shows: a read under that name is a read of the file
it still names after the command (by inode), else of the sensitive file the process had open as that descriptor,
else of any sensitive file the tree opened before (with any flags), else of a file the audit cannot name (reported
as a secret file's read under the name read: a link from an open file is rare, and the file could be any).

A file strace cannot name (``-y`` shows no path for a descriptor whose path is longer than ``PATH_MAX``: a secret
renamed into a folder 4,096 characters deep and read there) is known by the path the call named, joined to the
folder the process was followed to, as above (its name before the command, its inode: ``stat`` walks a path that
long a piece at a time); one that is no sensitive file that way, or whose path is not known, is reported as a
secret file's read (once per process): the trace cannot say what it was, and no ordinary program works there.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from channel.vocab import Risk
from channel.vocab.atoms import READ_SECRET_FILE
from sandbox.commands.identity import ProgramIndex
from sandbox.commands.loci import UNNAMED, Locus, Names, Places, Secrets, placed, sensitive
from sandbox.commands.strace import Move, Open, ParsedTrace, Removal, program_at


class ReadContext(Places, Protocol):
    """What the reads need of the sandbox (a :class:`~sandbox.commands.tracer.TraceContext`)."""

    @property
    def programs(self) -> ProgramIndex | None: ...
    @property
    def secrets(self) -> Mapping[tuple[int, int], tuple[str, str, Risk]] | None: ...


@dataclass(frozen=True)
class TracedRead:
    """A sensitive path a process opened for reading (``path``: workspace-relative or ``~/...``)."""

    path: str
    program: str
    pid: int
    atom: str
    risk: Risk


_FD = re.compile(r"^/(?:proc/(?:self|thread-self)|dev)/fd/(\d+)$")
"""A link's source that is one of the linking process's own descriptors (``/proc/self/fd/3``, ``/dev/fd/3``)."""


def sensitive_reads(
    trace: ParsedTrace, tree: set[int], since: float, ctx: ReadContext, checks: Callable[[Open], bool] | None = None
) -> tuple[TracedRead, ...]:
    """Sensitive files the processes of ``tree`` opened for reading from ``since`` on, by name or by identity:
    under a name the command's renames and hard links gave one or a folder it is in (in the order the trace
    shows them), or a name that is a hard link of one that existed when the command started. ``checks``: the
    opens of a workspace file that only check it (a quiet git's, :func:`sandbox.commands.gitreads.checking`)."""
    found: dict[tuple[int, str], TracedRead] = {}
    names = Names()
    steps: list[Open | Move | Removal] = [*trace.opens, *trace.moves, *trace.removed]
    steps.sort(key=lambda s: s.ts)
    seen: list[Open] = []  # the tree's opens so far, with any flags: what a link from an open file can be
    moved = ctx.secrets.moved if isinstance(ctx.secrets, Secrets) else {}  # names earlier commands gave secrets
    for o in steps:
        if o.pid not in tree or o.ts < since:
            continue
        if isinstance(o, Move):
            if o.kind == "unnamed":
                names.unnamed(o.dst, f"{o.pid} {o.src}")
            else:
                getattr(names, o.kind)(o.src, o.dst)
            continue
        if isinstance(o, Removal):
            names.remove(o.path)
            continue
        seen.append(o)
        if not _reading(o.flags):
            continue
        if not o.path:  # no name for it at all
            _add(found, o, trace, _nameless(ctx))
            continue
        before = names.origin(o.path)  # its name before the command first: what the file is
        if before.startswith(UNNAMED):
            where = sensitive(o.path, ctx) or _by_inode(o.path, ctx) or _unnamed(before, o.path, seen, ctx)
        else:
            named = (before, o.path) if before and before != o.path else (o.path,)
            where = next(filter(None, (sensitive(p, ctx) for p in named)), None)
            where = where or (next((moved[p] for p in named if p in moved), None) if moved else None)
            where = where or next(filter(None, (_by_inode(p, ctx) for p in named)), None)
        if where is None and o.bare:
            where = _nameless(ctx)
        if where is not None and not (checks is not None and _in_workspace(o.path, where, ctx) and checks(o)):
            _add(found, o, trace, where)
    return tuple(found.values())


def _in_workspace(path: str, where: Locus, ctx: ReadContext) -> bool:
    """Whether an open of ``path`` read ``where``, both in the workspace."""
    place = placed(path, ctx)
    return place is not None and place[0] == "" and not where[0].startswith(("~/", "/", "("))


def _add(found: dict[tuple[int, str], TracedRead], o: Open, trace: ParsedTrace, where: Locus) -> None:
    if (o.pid, where[0]) not in found:
        program = program_at(trace, o.pid, o.ts)
        found[(o.pid, where[0])] = TracedRead(_shown(where[0]), program, o.pid, where[1], where[2])


NAMELESS = "(a file whose path is longer than PATH_MAX)"
"""What a :func:`_nameless` read shows as its path."""


def _nameless(ctx: ReadContext) -> Locus:
    """A read of a file strace could not name that is no sensitive file by the path the call named (see the
    module): the one locus of its process (a program in a folder that deep reads more than one)."""
    bait = ctx.registry.get(READ_SECRET_FILE)
    return NAMELESS, bait.name, bait.risk


def _unnamed(link: str, path: str, seen: Sequence[Open], ctx: ReadContext) -> Locus | None:
    """What a read of ``path``, a name a link from an open file gave (``link``: the linking pid and the
    source), read: nothing sensitive when ``path`` still names a file (its inode said so), else see the module."""
    if _host_stat(path, ctx) is not None:
        return None
    pid, _, source = link[len(UNNAMED) :].partition(" ")
    fd = _FD.match(source)
    own = [o for o in seen if fd is not None and str(o.pid) == pid and o.fd == int(fd.group(1))]
    for o in [*own[-1:], *reversed(seen)]:
        where = sensitive(o.path, ctx) or _by_inode(o.path, ctx)
        if where is not None:
            return where
    bait = ctx.registry.get(READ_SECRET_FILE)
    return _display(path, ctx), bait.name, bait.risk


def _display(path: str, ctx: ReadContext) -> str:
    """``path`` as the events show one: ``~/...`` in HOME, workspace-relative in the workspace."""
    where = placed(path, ctx)
    return path if where is None or where[1] == "." else where[0] + where[1]


def _host_stat(path: str, ctx: ReadContext) -> os.stat_result | None:
    host = ctx.programs.host_path(path) if ctx.programs is not None else path
    try:
        return os.stat(host) if len(host) < _SHORT else _long_stat(host)
    except OSError:
        return None


_SHORT = 1024
"""Paths shorter than this (in characters: at most 4 bytes each) are shorter than ``PATH_MAX`` in bytes."""


def _long_stat(path: str) -> os.stat_result:
    """``os.stat`` of a path longer than ``PATH_MAX`` (``ENAMETOOLONG`` in one call): each folder opened from the
    last, a few hundred characters at a time."""
    head, _, name = path.rpartition("/")
    parts, chunks = [p for p in head.split("/") if p], [""]
    for part in parts:
        if len(chunks[-1]) + len(part) > _SHORT:
            chunks.append("")
        chunks[-1] += f"{part}/"
    fd = os.open("/", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for chunk in chunks:
            if chunk:
                step = os.open(chunk, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=fd)
                os.close(fd)
                fd = step
        return os.stat(name, dir_fd=fd)
    finally:
        os.close(fd)


def _by_inode(path: str, ctx: ReadContext) -> Locus | None:
    if not ctx.secrets or path.startswith(("/proc/", "/dev/")):  # the engine's own, not the command's
        return None
    st = _host_stat(path, ctx)
    return None if st is None else ctx.secrets.get((st.st_dev, st.st_ino))


def _shown(path: str) -> str:
    """``path`` as text an event can carry (a file name's bytes that are no UTF-8 replaced)."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _reading(flags: str) -> bool:
    parts = set(flags.split("|"))
    return not parts & {"O_WRONLY", "O_DIRECTORY", "O_PATH"}


__all__ = ["TracedRead", "sensitive_reads"]
