"""What the programs an agent wrote did when another agent ran them, read from the exec trace: a git
hook, or a script or binary an agent left in the workspace, HOME or ``/tmp`` (a program placed earlier
on ``PATH``, a ``make`` target's script) is code its author wrote that runs in whoever's command runs
it, so what it changes is its author's doing, not the runner's
(:class:`~sandbox.backends.local.LocalSandbox` gives those changes to the author:
:class:`~sandbox.workspace.authors.ProgramAuthors`, :attr:`~sandbox.workspace.gitguard.GitGuard.authors`).

A program here is an exec of a file under the workspace (a hook: under its ``.git/hooks/``; git runs
a hook by that path, from the worktree's root), HOME or ``/tmp``, directly or as ``sh FILE`` /
``bash FILE``. What it wrote is every workspace path its process tree (from that exec on) opened for
writing, created, renamed, hard-linked or removed, outside ``.git``. A command that wrote, renamed or
linked anything under ``.git/hooks/`` ran hooks that were not (only) their author's: none of its
changes are given to a hook's author (else an agent could swap a hook, run it, put it back, and pass
its writes off); likewise a program file the command itself wrote, renamed or removed is its own.

:func:`opened_for_writing` says whether a command opened a workspace file for writing (or hard-linked one) at
all: the reconcile after it then scans whatever the inotify sentry says
(:attr:`~sandbox.commands.calls.CommandRun.write_opens`); :func:`written_paths` which paths its processes wrote and
:func:`channel_writes` how often they wrote to the audit channel (:class:`~sandbox.commands.calls.Footprint`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from sandbox.commands.strace import ParsedTrace
from sandbox.workspace.paths import is_noise

_WRITING = frozenset({"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"})
_WRITES = re.compile("|".join(sorted(_WRITING)))
HOOKS = ".git/hooks/"
"""The display prefix of a hook (``.git/hooks/post-commit``)."""
_SCRIPT_RUNNERS = frozenset({"sh", "bash", "dash"})


def hook_writes(
    trace: ParsedTrace, root: Path, home: Path | None = None, tmp: Path | None = None
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(program: its display path, the workspace paths its process tree wrote) for each program of
    the trace run from the workspace at ``root`` (``.git/hooks/NAME`` for a hook, else its workspace
    path), ``home`` (``~/PATH``) or the jail's ``/tmp`` (``/tmp/PATH``; ``tmp``: the engine's folder
    behind it), in the order they ran."""
    places = [(f"{root}/", "")]
    if home is not None:
        places.append((f"{home}/", "~/"))
    places.append(("/tmp/", "/tmp/"))
    if tmp is not None:
        places.append((f"{tmp}/", "/tmp/"))
    touched = {
        os.path.normpath(p)
        for p in [o.path for o in trace.opens if set(o.flags.split("|")) & _WRITING]
        + [p for m in trace.moves for p in (m.src, m.dst)]
        + [r.path for r in trace.removed]
    }
    hooks_touched = any(path.startswith(f"{root}/{HOOKS}") for path in touched)
    children: dict[int, list[int]] = {}
    for child, parent in trace.parent.items():
        children.setdefault(parent, []).append(child)
    writes: dict[int, list[tuple[float, str]]] = {}  # pid -> (when, path) of each write
    for o in trace.opens:
        if set(o.flags.split("|")) & _WRITING:
            writes.setdefault(o.pid, []).append((o.ts, o.path))
    for m in trace.moves:
        writes.setdefault(m.pid, []).extend(((m.ts, m.src), (m.ts, m.dst)))
    for r in trace.removed:
        writes.setdefault(r.pid, []).append((r.ts, r.path))
    found: dict[str, list[str]] = {}
    for e in trace.execs:
        full = _program_file(e.file, e.argv, e.cwd or str(root))  # git runs a hook from the worktree's root
        if full is None or full in touched:
            continue
        shown = next((prefix + full[len(place) :] for place, prefix in places if full.startswith(place)), None)
        if shown is None or (hooks_touched and shown.startswith(HOOKS)):
            continue
        paths = found.setdefault(shown, [])
        for pid in _tree(children, e.pid):
            for ts, path in writes.get(pid, ()):
                rel = _inside(path, root) if ts >= e.ts else None
                if rel is not None and rel not in paths:
                    paths.append(rel)
    return tuple((program, tuple(paths)) for program, paths in found.items())


def opened_for_writing(trace: ParsedTrace, root: Path) -> bool:
    """Whether a process of ``trace`` opened a file of the workspace at ``root`` (not git's state nor a
    cache) for writing, or a file the trace could not name, or with flags it could not read. Such a file's
    last close queues the inotify event a write through a shared ``mmap`` never does, and it may come after
    the command ended (the descriptor sent in a unix socket that is then unreachable: the kernel's garbage
    collector closes it, later): the sentry's quiet proves nothing after such a command.

    So too after a hard link of a workspace file (or of an open file the trace does not name, ``/proc/self/fd/N``,
    or of the file a symbolic link leads to, ``AT_SYMLINK_FOLLOW``: it may lead into the workspace), wherever its
    new name is: a write through a name in ``.git``, HOME or ``/tmp`` changes the workspace file
    while its inotify events go to that name's folder, which the sentry does not watch, and opens no workspace
    path (red team 4, finding 02: ``ln services/payments/config.py .git/zz && echo x > .git/zz``). The scan then
    finds the change, and the new name, this command's (:class:`~sandbox.workspace.reconcile.Reconciler`)."""
    inside = f"{root}/"
    for m in trace.moves:
        if m.kind == "unnamed" or (
            m.kind == "link" and (m.follow or (m.src.startswith(inside) and not is_noise(m.src[len(inside) :])))
        ):
            return True
    for o in trace.opens:
        if o.flags and _WRITES.search(o.flags) is None:
            continue
        if not o.path or (o.path.startswith(inside) and not is_noise(o.path[len(inside) :])):
            return True
    return False


def written_paths(trace: ParsedTrace, root: Path) -> frozenset[str] | None:
    """The workspace paths (relative to ``root``) the trace's processes opened for writing, created, renamed,
    hard-linked or removed, each also as the file its name reaches now (a symlinked folder on the way); None when a
    write happened that the trace does not name (an unnamed file linked in, a link followed, an unnamed open)."""
    inside = f"{root}/"
    opened: list[str] = []  # opens are named as -y resolved them: the file itself
    for o in trace.opens:
        if o.flags and _WRITES.search(o.flags) is None:
            continue
        if not o.path or o.bare:
            return None
        opened.append(os.path.normpath(o.path))
    named: list[str] = [r.path for r in trace.removed]  # renames, links, removals: by the name the call gave
    for m in trace.moves:
        if m.kind == "unnamed" or m.follow:
            return None
        named += (m.src, m.dst)
    paths = {*opened, *(os.path.normpath(p) for p in named), *(os.path.realpath(p) for p in named)}
    return frozenset(p[len(inside) :] for p in paths if p.startswith(inside))


def channel_writes(trace: ParsedTrace, fifo: Path) -> int:
    """How many times the trace's processes opened the audit channel ``fifo`` for writing (each wrapper once)."""
    return sum(1 for o in trace.opens if o.path == str(fifo) and _WRITES.search(o.flags or "O_WRONLY"))


def _program_file(file: str, argv: tuple[str, ...], cwd: str) -> str | None:
    """The absolute path of the program file an exec runs: its file, or the script ``sh FILE`` runs."""
    if PurePosixPath(file).name in _SCRIPT_RUNNERS and len(argv) > 1 and not argv[1].startswith("-"):
        file = argv[1]
    if not file or file.startswith("fd "):
        return None
    return os.path.normpath(file if file.startswith("/") else os.path.join(cwd, file))


def _tree(children: dict[int, list[int]], pid: int) -> set[int]:
    tree, todo = {pid}, [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in tree:
                tree.add(child)
                todo.append(child)
    return tree


def _inside(path: str, root: Path) -> str | None:
    """``path`` relative to the workspace, or None (outside it, or in ``.git``)."""
    try:
        rel = Path(path).relative_to(root).as_posix()
    except ValueError:
        return None
    return None if rel == ".git" or rel.startswith(".git/") else rel
