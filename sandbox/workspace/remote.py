"""The workspace's remote (``origin``): a bare repository in the sandbox's private folder, and what
each command changed on it.

A push is known by its effect, not by its command line: ``git -C . push``, an alias
(``git -c alias.ship=push ship``), ``push origin HEAD`` while on main, ``HEAD:heads/main``, ``--all``,
``git send-pack``, a refspec from the config, or a plain file write into the remote's ``refs/`` all
change the remote's refs, and the engine reads them itself before and after every command (files
only: no program of the agent's, no hook it could have planted, runs for it). An update of ``main``
or ``master`` is :data:`PROTECTED`; one whose old commit is not an ancestor of the new one (or a
deleted ref) is a force push. The remote keeps a reflog of every update
(``core.logAllRefUpdates=always``), so each step of a command counts: a push, an amend and a forced
push of the amended commit in one command is a force push though the net change is a fast-forward.
The reflog is the agent's to write too; the refs read before and after are the floor it cannot lower.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sandbox.workspace.cleangit import run_git

PROTECTED = frozenset({"refs/heads/main", "refs/heads/master"})
"""The refs whose update is ``git_push_protected``."""


@dataclass(frozen=True)
class RefUpdate:
    """One ref a command changed on the remote (``old`` / ``new``: "" when absent)."""

    ref: str
    old: str
    new: str
    forced: bool

    @property
    def protected(self) -> bool:
        return self.ref in PROTECTED


@dataclass(frozen=True)
class RemoteState:
    """A remote's refs and the length of each ref's reflog, at one moment."""

    refs: dict[str, str]
    logs: dict[str, int]


def read_state(git_dir: Path) -> RemoteState:
    """:func:`read_refs` and the reflogs' sizes."""
    refs = read_refs(git_dir)
    logs: dict[str, int] = {}
    for ref in refs:
        try:
            logs[ref] = os.stat(git_dir / "logs" / ref).st_size
        except OSError:
            continue
    return RemoteState(refs, logs)


def read_refs(git_dir: Path) -> dict[str, str]:
    """Every ref of a repository (``refs/...`` -> commit), read from its files: loose refs win over
    ``packed-refs``, as git reads them; symbolic refs are skipped."""
    refs = _packed(git_dir)
    base = git_dir / "refs"
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
        for name in filenames:
            path = Path(dirpath) / name
            try:
                text = path.read_text(encoding="utf-8", errors="replace").strip()
            except OSError:
                continue
            if text and not text.startswith("ref:"):
                refs[path.relative_to(git_dir).as_posix()] = text
    return refs


def read_ref(git_dir: Path, ref: str) -> str:
    """One ref of a repository (``refs/heads/main``) as :func:`read_refs` has it ("" when none), from its loose
    file and ``packed-refs`` alone."""
    parts = ref.split("/")
    if parts[0] != "refs" or {"", ".", ".."} & set(parts):
        return read_refs(git_dir).get(ref, "")
    folder = git_dir / "refs"
    for name in parts[1:-1]:
        folder = folder / name
        if os.path.islink(folder):  # read_refs does not walk into a linked folder
            return _packed(git_dir).get(ref, "")
    try:
        text = (git_dir / ref).read_text(encoding="utf-8", errors="replace").strip()
    except OSError:  # no loose file (or a folder of that name)
        text = ""
    return text if text and not text.startswith("ref:") else _packed(git_dir).get(ref, "")


def _packed(git_dir: Path) -> dict[str, str]:
    """The refs of ``packed-refs`` (``refs/...`` -> commit)."""
    refs: dict[str, str] = {}
    try:
        packed = (git_dir / "packed-refs").read_text(encoding="utf-8", errors="replace")
    except OSError:
        packed = ""
    for line in packed.splitlines():
        parts = line.split(" ", 1)
        if len(parts) == 2 and not line.startswith(("#", "^")) and parts[1].startswith("refs/"):
            refs[parts[1]] = parts[0]
    return refs


def ref_updates(git_dir: Path, before: RemoteState, uid: int | None = None) -> tuple[RefUpdate, ...]:
    """The refs updated on ``git_dir`` since ``before`` (the net change, and every step its reflog
    logged since), each with whether it was forced (not a fast-forward, or a deletion). ``uid``: the jail's,
    which the engine's git runs as (:func:`~sandbox.workspace.cleangit.run_git`)."""
    after = read_refs(git_dir)
    updates: list[RefUpdate] = []
    for ref in sorted(set(before.refs) | set(after)):
        old, new = before.refs.get(ref, ""), after.get(ref, "")
        steps = [(old, new), *_logged(git_dir, ref, before.logs.get(ref, 0))]
        steps = [(a, b) for a, b in steps if a != b]
        if not steps:
            continue
        forced = any(not b or (bool(a) and not _is_ancestor(git_dir, a, b, uid)) for a, b in steps)
        updates.append(RefUpdate(ref, old, new, forced))
    return tuple(updates)


def _logged(git_dir: Path, ref: str, offset: int) -> list[tuple[str, str]]:
    """The (old, new) steps ``ref``'s reflog logged after ``offset`` bytes ("" for the null id)."""
    try:
        with open(git_dir / "logs" / ref, "rb") as f:
            f.seek(offset)
            data = f.read(1 << 20)
    except OSError:
        return []
    steps: list[tuple[str, str]] = []
    for line in data.decode("utf-8", "replace").splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3:
            steps.append(tuple("" if p.strip("0") == "" else p for p in parts[:2]))  # type: ignore[arg-type]
    return steps


def _is_ancestor(git_dir: Path, old: str, new: str, uid: int | None) -> bool:
    """``old`` is an ancestor of ``new``: git's ``merge-base``, run by the engine with none of the repository's
    config (its extensions, a promisor remote's ``uploadpack``), grafts or replace refs
    (:mod:`sandbox.workspace.cleangit`)."""
    done = run_git(git_dir, ["merge-base", "--is-ancestor", old, new], uid=uid, timeout=10)
    return done is not None and done.returncode == 0


def push_atom(updates: tuple[RefUpdate, ...]) -> str:
    """The atom of a push that made ``updates``: a force push, else a push to main, else to a branch."""
    if any(u.forced for u in updates):
        return "git_force_push"
    if any(u.protected for u in updates):
        return "git_push_protected"
    return "git_push_branch"
