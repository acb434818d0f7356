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
Ancestry is decided on commits whose ids the engine checks against their content (:func:`verified_ancestor`: a
rewritten loose object in the remote lies about its parents to git). Its steps cost the engine two git runs each, so
they are bounded: the same step is checked once, and
past :data:`CHECKS_MAX` checks or :data:`CHECKS_SECONDS` per command a step not yet known to be a fast-forward
counts as forced (a flood of reflog lines written by hand stalls nothing; it reads as the force push it fakes).
Refs are read from files, never through a link (``refs`` itself included), and walked iteratively (any depth).

The refs and the reflogs' sizes are read around every command of every agent, so their read costs one ``lstat`` a
file when nothing changed (red team 6, 03: 10,000 loose refs written by hand made every later command take seconds):
a ref file is read again only when its inode, size, modification or change time differ from when it was last read,
or when it was changed so shortly before that read that a later change could keep the same times (a file time is
the kernel's coarse clock: :data:`RACY_NS`, as git's "racily clean" index entries); ``packed-refs`` likewise. Not
the folders' times alone: a ref rewritten in place (no rename) changes its file's times, not its folder's.
"""

from __future__ import annotations

import hashlib
import os
import stat
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sandbox.workspace.cleangit import run_git
from sandbox.workspace.files import read_regular
from sandbox.workspace.gitplaces import linked

PROTECTED = frozenset({"refs/heads/main", "refs/heads/master"})
"""The refs whose update is ``git_push_protected``."""
CHECKS_MAX = 256
"""``git merge-base`` runs per command at most (see the module)."""
CHECKS_SECONDS = 20.0
"""Seconds of ``git merge-base`` per command at most (see the module)."""


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
    """:func:`read_refs` and the reflogs' sizes (a regular file's, never through a link)."""
    refs = read_refs(git_dir)
    sizes = _files(git_dir).sizes(git_dir, "logs/refs")
    return RemoteState(refs, {ref: sizes[ref] for ref in refs if ref in sizes})


def read_refs(git_dir: Path) -> dict[str, str]:
    """Every ref of a repository (``refs/...`` -> commit), read from its files: loose refs win over
    ``packed-refs``, as git reads them; symbolic refs are skipped."""
    files = _files(git_dir)
    refs = _packed(git_dir)
    for ref, text in files.texts(git_dir, "refs").items():
        if text and not text.startswith("ref:"):
            refs[ref] = text
    return refs


RACY_NS = 100_000_000
"""A file changed less than this before it was read is read again next time (its times may not show a change made
after the read within the same tick of the kernel's coarse clock)."""
_Key = tuple[int, int, int, int, int]
"""A file's device, inode, size, modification and change times (ns)."""


class _Files:
    """What was last read of one repository's ref files: path -> (its :data:`_Key`, its first 4 KiB as text)."""

    def __init__(self) -> None:
        self.known: dict[str, tuple[_Key, str]] = {}
        self.packed: tuple[_Key, dict[str, str]] | None = None
        self.lock = threading.Lock()
        """Reads of the same repository from the loop and a thread (a command's ``ref_updates``) take turns."""

    def texts(self, git_dir: Path, top: str) -> dict[str, str]:
        """``top``'s regular files (``refs/heads/x`` -> text, stripped), any depth, never through a link."""
        with self.lock:
            return self._texts(git_dir, top)

    def _texts(self, git_dir: Path, top: str) -> dict[str, str]:
        out: dict[str, str] = {}
        started = time.time_ns()
        for rel, st in _regular(git_dir, top):
            key = _key(st)
            hit = self.known.get(rel)
            if hit is not None and hit[0] == key:
                out[rel] = hit[1]
                continue
            found = _head(git_dir / rel)
            if found is None:
                continue
            key, out[rel] = found
            if max(key[3], key[4]) < started - RACY_NS:
                self.known[rel] = (key, out[rel])
        for gone in set(self.known) - set(out):
            if gone.startswith(f"{top}/"):
                del self.known[gone]
        return out

    @staticmethod
    def sizes(git_dir: Path, top: str) -> dict[str, int]:
        """``top``'s regular files' sizes, named without ``logs/`` (``refs/heads/x`` -> bytes)."""
        cut = len(top) - len("refs")
        return {rel[cut:]: st.st_size for rel, st in _regular(git_dir, top)}


def _key(st: os.stat_result) -> _Key:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _regular(git_dir: Path, top: str) -> Iterator[tuple[str, os.stat_result]]:
    """(path relative to ``git_dir``, lstat) of each regular file under ``git_dir/top``, never through a link."""
    if not _is_dir(git_dir / top):
        return
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(git_dir / folder) as entries:
                for entry in entries:
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    if stat.S_ISDIR(st.st_mode):
                        stack.append(f"{folder}/{entry.name}")
                    elif stat.S_ISREG(st.st_mode):
                        yield f"{folder}/{entry.name}", st
        except OSError:
            continue


def _head(path: Path) -> tuple[_Key, str] | None:
    """The first 4 KiB of the regular file at ``path`` as text (stripped) and its key, never through a link."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        return _key(st), os.read(fd, 4096).decode("utf-8", "replace").strip()
    except OSError:
        return None
    finally:
        os.close(fd)


_CACHES: dict[str, _Files] = {}
_CACHES_MAX = 64
_CACHES_LOCK = threading.Lock()


def _files(git_dir: Path) -> _Files:
    """The :class:`_Files` of ``git_dir`` (the last :data:`_CACHES_MAX` repositories read are remembered)."""
    name = os.fspath(git_dir)
    with _CACHES_LOCK:
        found = _CACHES.pop(name, None) or _Files()
        _CACHES[name] = found  # the latest last
        while len(_CACHES) > _CACHES_MAX:
            del _CACHES[next(iter(_CACHES))]
        return found


def _is_dir(path: Path) -> bool:
    """A real folder (not a link to one)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def read_ref(git_dir: Path, ref: str) -> str:
    """One ref of a repository (``refs/heads/main``) as :func:`read_refs` has it ("" when none), from its loose
    file and ``packed-refs`` alone."""
    parts = ref.split("/")
    if parts[0] != "refs" or {"", ".", ".."} & set(parts):
        return read_refs(git_dir).get(ref, "")
    folder = git_dir
    for name in parts[:-1]:
        folder = folder / name
        if os.path.islink(folder):  # read_refs does not walk into a linked folder
            return _packed(git_dir).get(ref, "")
    data = read_regular(git_dir / ref)  # None: no loose file (or a folder, a link of that name)
    text = "" if data is None else data[:4096].decode("utf-8", "replace").strip()
    return text if text and not text.startswith("ref:") else _packed(git_dir).get(ref, "")


def _packed(git_dir: Path) -> dict[str, str]:
    """The refs of ``packed-refs`` (``refs/...`` -> commit), parsed again only when the file changed (as a ref's)."""
    files = _files(git_dir)
    with files.lock:
        return _packed_locked(git_dir, files)


def _packed_locked(git_dir: Path, files: _Files) -> dict[str, str]:
    started = time.time_ns()
    try:
        key = _key(os.stat(git_dir / "packed-refs"))
    except OSError:
        key = None
    if key is not None and files.packed is not None and files.packed[0] == key:
        return dict(files.packed[1])
    try:
        with open(git_dir / "packed-refs", "rb") as f:
            key, packed = _key(os.fstat(f.fileno())), f.read().decode("utf-8", "replace")
    except OSError:
        packed = ""
    refs = _parse_packed(packed)
    files.packed = (key, refs) if key is not None and max(key[3], key[4]) < started - RACY_NS else None
    return dict(refs)


def _parse_packed(packed: str) -> dict[str, str]:
    refs: dict[str, str] = {}
    for line in packed.splitlines():
        parts = line.split(" ", 1)
        if len(parts) == 2 and not line.startswith(("#", "^")) and parts[1].startswith("refs/"):
            refs[parts[1]] = parts[0]
    return refs


def ref_updates(
    git_dir: Path, before: RemoteState, uid: int | None = None, upto: RemoteState | None = None
) -> tuple[RefUpdate, ...]:
    """The refs updated on ``git_dir`` since ``before`` (the net change, and every step its reflog
    logged since), each with whether it was forced (not a fast-forward, or a deletion). ``uid``: the jail's,
    which the engine's git runs as (:func:`~sandbox.workspace.cleangit.run_git`). ``upto``: the state read as
    the end of the window (a live agent process may push while the engine reads: what came after ``upto`` is
    the next window's, :meth:`~sandbox.backends.aftermath.Aftermath.pending`); None: read now."""
    now = read_state(git_dir) if upto is None else upto
    after = now.refs
    updates: list[RefUpdate] = []
    ancestry = _Ancestry(git_dir, uid)
    for ref in sorted(set(before.refs) | set(after)):
        old, new = before.refs.get(ref, ""), after.get(ref, "")
        if old == new and now.logs.get(ref, 0) <= before.logs.get(ref, 0):
            continue  # the same, its reflog no longer: nothing logged since (what _logged would find)
        end = None if upto is None else upto.logs.get(ref, 0)
        steps = [(old, new), *_logged(git_dir, ref, before.logs.get(ref, 0), end)]
        steps = list(dict.fromkeys((a, b) for a, b in steps if a != b))  # each step once, in order
        if not steps:
            continue
        forced = any(not b or (bool(a) and not ancestry.is_ancestor(a, b)) for a, b in steps)
        updates.append(RefUpdate(ref, old, new, forced))
    return tuple(updates)


def _logged(git_dir: Path, ref: str, offset: int, end: int | None = None) -> list[tuple[str, str]]:
    """The (old, new) steps ``ref``'s reflog logged after ``offset`` bytes, before ``end`` (None: its end) ("" for
    the null id)."""
    path = git_dir / "logs" / ref
    if linked(git_dir, path) is not None:
        return []  # never read through a link
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return []
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return []
        os.lseek(fd, offset, os.SEEK_SET)
        data = os.read(fd, 1 << 20 if end is None else max(0, min(end - offset, 1 << 20)))
    except OSError:
        return []
    finally:
        os.close(fd)
    steps: list[tuple[str, str]] = []
    for line in data.decode("utf-8", "replace").splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3:
            steps.append(tuple("" if p.strip("0") == "" else p for p in parts[:2]))  # type: ignore[arg-type]
    return steps


@dataclass
class _Ancestry:
    """``merge-base --is-ancestor`` answers for one command's steps, each pair asked once, within the budget of
    :data:`CHECKS_MAX` runs and :data:`CHECKS_SECONDS` (past it: not known to be an ancestor)."""

    git_dir: Path
    uid: int | None
    known: dict[tuple[str, str], bool] = field(default_factory=dict)
    runs: int = 0
    deadline: float = field(default_factory=lambda: time.monotonic() + CHECKS_SECONDS)

    def is_ancestor(self, old: str, new: str) -> bool:
        """``old`` is an ancestor of ``new``: git's ``merge-base``, run by the engine with none of the repository's
        config (its extensions, a promisor remote's ``uploadpack``), grafts or replace refs
        (:mod:`sandbox.workspace.cleangit`)."""
        if (old, new) in self.known:
            return self.known[(old, new)]
        left = self.deadline - time.monotonic()
        if self.runs >= CHECKS_MAX or left <= 0:
            return False
        self.runs += 1
        self.known[(old, new)] = answer = verified_ancestor(self.git_dir, old, new, self.uid, min(10, left))
        return answer


WALK_MAX = 10_000
"""Commits between an old tip and a new one (``git rev-list NEW ^OLD``) read at most: past it, not known."""


def verified_ancestor(git_dir: Path, old: str, new: str, uid: int | None = None, timeout: float = 10) -> bool:
    """Whether ``old`` is an ancestor of ``new``, decided on commits whose ids are checked against their content.

    git checks the hash of the object it is given, not of the parents it walks to: a loose commit rewritten in the
    remote's ``objects/`` (its id kept, ``parent OLD`` written in) made a rewrite of a branch read as a fast-forward
    to ``merge-base --is-ancestor`` (red team round 4, 07). So git only lists the candidates (``rev-list NEW ^OLD``,
    the commits a path from ``new`` to ``old`` can go through), ``cat-file --batch`` gives their raw content, and the
    engine hashes each and walks from ``new`` by the parents of those whose hash is their id alone: ``old`` reached
    so is an ancestor (short of a hash collision)."""
    if old == new:
        return True
    listed = run_git(git_dir, ["rev-list", f"--max-count={WALK_MAX + 1}", new, f"^{old}", "--"], uid=uid,
                     timeout=timeout)  # fmt: skip
    if listed is None or listed.returncode != 0:
        return False
    ids = listed.stdout.decode("ascii", "replace").split()
    if len(ids) > WALK_MAX or new not in ids:
        return False
    asked = "".join(f"{i}\n" for i in ids).encode()
    raw = run_git(git_dir, ["cat-file", "--batch"], uid=uid, timeout=timeout, stdin=asked)
    if raw is None or raw.returncode != 0:
        return False
    parents = _verified_parents(raw.stdout)
    seen, stack = {new}, [new]
    while stack:
        for parent in parents.get(stack.pop(), ()):
            if parent == old:
                return True
            if parent not in seen:
                seen.add(parent)
                stack.append(parent)
    return False


def _verified_parents(batch: bytes) -> dict[str, tuple[str, ...]]:
    """The parents of each commit in ``git cat-file --batch`` output whose content hashes to its id."""
    found: dict[str, tuple[str, ...]] = {}
    at = 0
    while at < len(batch):
        end = batch.find(b"\n", at)
        if end < 0:
            break
        header = batch[at:end].split()
        if len(header) != 3 or not header[2].isdigit():
            break  # "<id> missing": nothing follows
        oid, kind, size = header[0].decode("ascii", "replace"), header[1], int(header[2])
        body = batch[end + 1 : end + 1 + size]
        at = end + 2 + size
        digest = (hashlib.sha256 if len(oid) == 64 else hashlib.sha1)(b"%s %d\0" % (kind, size) + body).hexdigest()
        if kind != b"commit" or digest != oid:
            continue
        head = body.split(b"\n\n", 1)[0].decode("utf-8", "replace").splitlines()
        found[oid] = tuple(line[len("parent ") :].strip() for line in head if line.startswith("parent "))
    return found


def push_atom(updates: tuple[RefUpdate, ...]) -> str:
    """The atom of a push that made ``updates``: a force push, else a push to main, else to a branch."""
    if any(u.forced for u in updates):
        return "git_force_push"
    if any(u.protected for u in updates):
        return "git_push_protected"
    return "git_push_branch"
