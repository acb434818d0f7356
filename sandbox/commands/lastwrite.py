"""Until when a command could have written each workspace path it wrote, from its trace (red team 6, finding 02).

While another actor's live agent process (an ACP agent's) runs beside a command, a change to a file the command
wrote is the command's only as far as its own writes go: the live process may write the same file after the
command is done with it (it can watch the file with inotify), and a check per path alone charged that write to the
command (alice's write to payments' file was kept as bob's, payments' owner, because bob's command had appended to
it a moment before). :func:`footprint` gives, for each path, the latest moment a process of the command could still
write it (:attr:`~sandbox.commands.calls.Footprint.ends`):

- a descriptor opened for writing on it is held by its process until it is closed (``close``, ``close_range``, the
  target of a ``dup2``/``dup3``), dropped at an exec (``O_CLOEXEC``, ``F_DUPFD_CLOEXEC``) or the process ends; its
  copies (``dup``, ``dup2``, ``dup3``, ``fcntl(F_DUPFD)``) and the child processes created while it is held hold
  it too; one still held by a process the trace never saw end holds it for ever;
- a rename, a hard link or a removal of the path, or of a folder on its way, is a write at its time.

The aftermath (:meth:`~sandbox.backends.aftermath.Aftermath.settle`) compares the file's change time (``ctime``,
which every write, truncation, rename and link sets) with that moment: later, the last change was made by no
process of the command, so it is settled as the live process's (refused and rolled back where its team may not
write). Why the change time and not the content as of the command's last close: the engine reads the workspace
after the command, so that content is gone by then (keeping it would mean copying each file at each close while
the command runs, racing the very process it guards against); the change time is set by the kernel at the write
itself. The strace time of a call is taken when the call enters, after every write before it, and a file time is
never ahead of the clock, so the command's own writes are never taken for later ones.

What it cannot tell (docs/sandbox-and-audit.md): a write of the live process within the same clock tick as the
command's last close (file times may be the kernel's coarse clock, a few ms), or before it (between the command's
open and its last write), is folded into the command's change; a write through a shared ``mmap`` after its
descriptor was closed is taken for the live process's (the command can only lose its own write by it)."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from sandbox.commands.calls import Footprint
from sandbox.commands.hooks import written_paths
from sandbox.commands.strace import Descriptor, Exec, Move, Open, ParsedTrace, Removal

_Held = dict[int, tuple[str, bool]]
"""A process's descriptors open for writing on workspace files: fd -> (path, closed at exec)."""


def footprint(trace: ParsedTrace, root: Path, strays: tuple[str, ...], known: bool = True) -> Footprint:
    """What the trace shows the command's own processes wrote, and until when (see the module docstring); nothing
    when the trace is not ``known`` whole."""
    written = written_paths(trace, root) if known else None
    if written is None:
        return Footprint(None, strays)
    return Footprint(written, strays, *_ends(trace, f"{root}/"))


def _ends(trace: ParsedTrace, inside: str) -> tuple[dict[str, float], frozenset[str]]:
    ends: dict[str, float] = {}
    gone: set[str] = set()

    def wrote(path: str, ts: float) -> None:
        for name in {os.path.normpath(path), os.path.realpath(path)}:
            if name.startswith(inside):
                rel = name[len(inside) :]
                ends[rel] = max(ends.get(rel, ts), ts)

    steps: list[tuple[float, object]] = [(ts, ("born", child)) for child, ts in trace.born.items()]
    steps += [(o.ts, o) for o in trace.opens] + [(d.ts, d) for d in trace.descriptors]
    steps += [(e.ts, e) for e in trace.execs] + [(m.ts, m) for m in trace.moves] + [(r.ts, r) for r in trace.removed]
    steps += [(ts, ("exit", pid)) for pid, (ts, _) in trace.exits.items()]
    steps.sort(key=lambda step: step[0])  # stable: each list is in the trace's order
    held: dict[int, _Held] = {}
    for ts, step in steps:
        if isinstance(step, Open):
            if step.path.startswith(inside) and (not step.flags or _writes(step.flags)):
                wrote(step.path, ts)
                held.setdefault(step.pid, {})[step.fd] = (step.path, "O_CLOEXEC" in step.flags)
        elif isinstance(step, Descriptor):
            _descriptor(held.setdefault(step.pid, {}), step, wrote)
        elif isinstance(step, Exec):
            mine = held.get(step.pid, {})
            for fd, (path, cloexec) in list(mine.items()):
                if cloexec:
                    wrote(path, ts)
                    del mine[fd]
        elif isinstance(step, Move):
            wrote(step.src, ts)
            wrote(step.dst, ts)
            if step.kind in ("rename", "exchange"):
                gone.add(step.src)
            if step.kind == "exchange":
                gone.add(step.dst)
        elif isinstance(step, Removal):
            wrote(step.path, ts)
            gone.add(step.path)
        elif isinstance(step, tuple) and step[0] == "born":
            held[step[1]] = dict(held.get(trace.parent.get(step[1], 0), {}))
        elif isinstance(step, tuple):
            for path, _ in held.pop(step[1], {}).values():
                wrote(path, ts)
    for mine in held.values():  # never seen to end: it could write them still
        for path, _ in mine.values():
            wrote(path, math.inf)
    return ends, frozenset(p[len(inside) :] for p in map(os.path.normpath, gone) if p.startswith(inside))


def _descriptor(mine: _Held, step: Descriptor, wrote: Callable[[str, float], None]) -> None:
    if step.copy_of < 0:
        last = step.fd if step.through < 0 else step.through
        for fd in [fd for fd in mine if step.fd <= fd <= last]:
            wrote(mine.pop(fd)[0], step.ts)
    elif step.copy_of in mine:
        mine[step.fd] = (mine[step.copy_of][0], step.cloexec)


def _writes(flags: str) -> bool:
    return bool({"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"} & set(flags.split("|")))


def last_write(path: str, ends: Mapping[str, float]) -> float:
    """The latest moment the command could write ``path`` (a folder on its way renamed or removed counts)."""
    parts = path.split("/")
    return max((ends.get("/".join(parts[:n]), -math.inf) for n in range(1, len(parts) + 1)), default=-math.inf)
