"""What a git hook's programs wrote, read from the exec trace: a hook is code its author wrote that
runs in whoever's git runs it, so what it changes is its author's doing, not the runner's
(:class:`~sandbox.backends.local.LocalSandbox` gives those changes to the hook's author).

A hook is an exec of a file under the workspace's ``.git/hooks/`` (git runs it by that path, from the
worktree's root); what it wrote is every workspace path its process tree (from that exec on) opened
for writing, created, renamed or hard-linked, outside ``.git``. A removal is not in the trace
(``unlink`` is not traced): it stays the runner's. A command that wrote, renamed or linked anything
under ``.git/hooks/`` ran hooks that were not (only) their author's: none of its changes are given to
a hook's author (else an agent could swap a hook, run it, put it back, and pass its writes off).
"""

from __future__ import annotations

import os
from pathlib import Path

from sandbox.commands.strace import ParsedTrace

_WRITING = frozenset({"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"})


def hook_writes(trace: ParsedTrace, root: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(hook: its path under ``.git/hooks``, the workspace paths its programs wrote) for each hook the
    trace shows ran in the workspace at ``root``, in the order they ran."""
    hooks = f"{root}/.git/hooks/"
    touched = [o.path for o in trace.opens if set(o.flags.split("|")) & _WRITING] + [
        p for m in trace.moves for p in (m.src, m.dst)
    ]
    if any(path.startswith(hooks) for path in touched):
        return ()
    found: dict[str, list[str]] = {}
    for e in trace.execs:
        base = e.cwd or str(root)  # git runs a hook from the worktree's root
        full = os.path.normpath(e.file if e.file.startswith("/") else os.path.join(base, e.file))
        if not full.startswith(hooks):
            continue
        tree = _tree(trace, e.pid)
        paths = found.setdefault(full[len(hooks) :], [])
        written = [o.path for o in trace.opens if o.pid in tree and o.ts >= e.ts and set(o.flags.split("|")) & _WRITING]
        for m in trace.moves:
            if m.pid in tree and m.ts >= e.ts:
                written += [m.src, m.dst]
        for path in written:
            rel = _inside(path, root)
            if rel is not None and rel not in paths:
                paths.append(rel)
    return tuple((hook, tuple(paths)) for hook, paths in found.items())


def _tree(trace: ParsedTrace, pid: int) -> set[int]:
    tree, grew = {pid}, True
    while grew:
        grew = False
        for child, parent in trace.parent.items():
            if parent in tree and child not in tree:
                tree.add(child)
                grew = True
    return tree


def _inside(path: str, root: Path) -> str | None:
    """``path`` relative to the workspace, or None (outside it, or in ``.git``)."""
    try:
        rel = Path(path).relative_to(root).as_posix()
    except ValueError:
        return None
    return None if rel == ".git" or rel.startswith(".git/") else rel
