"""A command's pushes by their effect: the refs the remote saw change (:mod:`sandbox.workspace.remote`) are given
to the program that made them, classified by what changed (:func:`~sandbox.workspace.remote.push_atom`), never by
what its command line said."""

from __future__ import annotations

from dataclasses import replace

from sandbox.commands.atoms import AtomRegistry
from sandbox.commands.calls import AtomCall
from sandbox.workspace.remote import RefUpdate, push_atom


def by_effect(
    calls: tuple[AtomCall, ...], pushed: tuple[RefUpdate, ...], registry: AtomRegistry, root: tuple[str, ...]
) -> tuple[AtomCall, ...]:
    """``calls`` with the push the remote saw (``pushed``) given to the program that made it,
    classified by what it changed (:func:`~sandbox.workspace.remote.push_atom`), whatever its command line said:
    the top-most git above the remote's last ``receive-pack`` (an alias's or a hook's git included: of two pushes in
    one command, the one that left the remote as it is; the earlier keeps what its command line said); else
    the last git call that reads as a push, else the last git call; else (the refs were written by
    some other program) one call for the command itself, seen by the engine on the remote."""
    if not pushed:
        return calls
    atom = registry.get(push_atom(pushed))
    refs = tuple(u.ref for u in pushed)
    target = _pusher(calls)
    if target is None:
        end = AtomCall(root, ".", 0, 0.0, atom.name, atom.risk, source="watcher", refs=refs)
        return (*calls, end)
    out = list(calls)
    out[target] = replace(out[target], atom=atom.name, risk=atom.risk, refs=refs)
    return tuple(out)


def _is_git(call: AtomCall) -> bool:
    return (call.atom or "").startswith("git_")


def _receives(call: AtomCall) -> bool:
    return any(a.rsplit("/", 1)[-1] in ("git-receive-pack", "receive-pack") for a in call.argv[:2])


def _pusher(calls: tuple[AtomCall, ...]) -> int | None:
    """The index of the call that pushed (see :func:`by_effect`)."""
    first: dict[int, int] = {}  # pid -> its first call
    for i, c in enumerate(calls):
        if c.pid:
            first.setdefault(c.pid, i)
    for receiver in reversed([c for c in calls if _receives(c)]):  # the last push: what the remote holds now
        top, pid, seen = None, receiver.parent_pid, set()
        while pid and pid not in seen and pid in first:
            seen.add(pid)
            i = first[pid]
            if _is_git(calls[i]) and not _receives(calls[i]):
                top = i
            pid = calls[i].parent_pid
        if top is not None:
            return top
    pushes = [i for i, c in enumerate(calls) if c.atom in ("git_push_branch", "git_push_protected", "git_force_push")]
    gits = [i for i, c in enumerate(calls) if _is_git(c) and not _receives(c)]
    found = pushes or gits
    return found[-1] if found else None
