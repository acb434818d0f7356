"""Sensitive loci (seed 003 §3: the read branch covers access to predeclared sensitive loci): a path is
one when the atom registry's ``tools.read_file`` rules give it a read atom (histories, keys, ``.env``,
cloud credentials; see ``sandbox/commands/atoms.toml``), or it is a file the scenario planted in HOME
(its bait); and the sensitive files there are when a command starts, by inode (a read of one under
another name, a hard link, is a read of it). A sensitive file stays one under whatever name an earlier
command gave it (``mv ~/.ssh/id_rsa ~/notes.txt`` in one command, ``cat ~/notes.txt`` in the next): the
index keeps each one it has seen open (``O_PATH``: its inode number cannot be another file's while it is)
until no name is left to it. The exec tracer (:mod:`sandbox.commands.tracer`) asks.
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
import weakref
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Protocol

from channel.vocab import Risk
from channel.vocab.atoms import READ_ATOMS, READ_SECRET_FILE
from sandbox.commands.atoms import AtomRegistry
from sandbox.workspace.paths import NOISE_DIRS


class Places(Protocol):
    """Where the sensitive loci are (a :class:`~sandbox.commands.tracer.TraceContext`)."""

    @property
    def home(self) -> Path: ...
    @property
    def workspace(self) -> Path: ...
    @property
    def planted(self) -> frozenset[str]:
        """HOME-relative paths the scenario planted (bait)."""

    @property
    def registry(self) -> AtomRegistry: ...


Locus = tuple[str, str, Risk]
"""A sensitive locus: (display path, atom, risk)."""
UNNAMED = "\0"
"""What :meth:`Names.origin` begins with for a name a link from an open file gave (the rest says which)."""


def sensitive_inodes(
    ctx: Places, limit: int = 20_000, memo: dict[str, Locus | None] | None = None
) -> dict[tuple[int, int], Locus]:
    """The sensitive files in HOME and the workspace now (see :func:`sensitive`), by (device, inode); at most
    ``limit`` files are looked at (an iterative walk, noise folders skipped); ``memo``: :func:`sensitive` by path.
    One :class:`SensitiveInodes` run with nothing known."""
    index = SensitiveInodes(ctx.planted)
    if memo is not None:
        index.memo = memo
    return index.run(ctx, limit)


SETTLED_NS = 50_000_000
"""How long ago a folder must have last changed (its ctime) to be trusted unchanged while its ctime is the
same (file times come from a coarse clock: a change in the same tick could leave the same ctime)."""


class Secrets(dict[tuple[int, int], Locus]):
    """The sensitive files by (device, inode) (:class:`SensitiveInodes`), and :attr:`moved`."""

    def __init__(self) -> None:
        super().__init__()
        self.moved: dict[str, Locus] = {}
        """The names (absolute) that sensitive files with no sensitive name had then: a read under one is a read
        of the file even once the name is gone (read, then removed)."""


PINNED_MAX = 256
"""How many sensitive files one index keeps open at most (the first seen: HOME's and the workspace's when the
sandbox's first command starts); one made later past it is known by its names only, as before."""

_Folder = tuple[int, tuple[str, ...], tuple[tuple[tuple[int, int], Locus], ...], int]
"""A folder as last looked into: its ctime, its subfolders, its sensitive files by inode, how many files."""


class SensitiveInodes:
    """:func:`sensitive_inodes` again and again (before each command), each time listing only the folders
    that changed since: a folder whose ctime is the same holds the same entries, so the same files under
    the same inodes (a file's inode changes only when an entry of its folder is created, removed or
    renamed). Its subfolders are still each looked at. For the scenario's ``planted`` files (another set
    of bait, in the context of a run: everything is looked at again).

    Every sensitive file found is kept open (``O_PATH``, up to :data:`PINNED_MAX`) and stays in the answer,
    as the locus it was first found as, while some name is left to it (its link count), wherever that is:
    renamed or hard-linked under an innocent name by an earlier command, into ``/tmp``, out of the walk's
    reach. Held open, its inode number is no new file's. One ``fstat`` per such file per run."""

    def __init__(self, planted: frozenset[str] = frozenset()) -> None:
        self.planted = planted
        self.memo: dict[str, Locus | None] = {}
        """:func:`sensitive` of each path seen."""
        self._folders: dict[str, _Folder] = {}
        self._pinned: dict[tuple[int, int], tuple[Locus, int]] = {}
        """(device, inode) -> the locus it was first found as, and a descriptor (``O_PATH``) holding it."""
        self._unpin = weakref.finalize(self, _close_all, self._pinned)
        self.last = Secrets()
        """What the last :meth:`run` found (the sensitive files when the last command started, renamed ones too)."""

    def close(self) -> None:
        """Let go of the files held open."""
        self._unpin()

    def run(self, ctx: Places, limit: int = 20_000) -> Secrets:
        if ctx.planted != self.planted:
            self.planted, self.memo, self._folders = ctx.planted, {}, {}
            _close_all(self._pinned)
        found = Secrets()
        known: dict[str, _Folder] = {}
        trusted = time.time_ns() - SETTLED_NS
        seen = 0
        stack = [str(ctx.workspace), str(ctx.home)]  # popped from the end: HOME first, as os.walk went
        while stack:
            path = stack.pop()
            try:
                ctime = os.lstat(path).st_ctime_ns
            except OSError:
                continue
            folder = self._folders.get(path)
            if folder is None or folder[0] != ctime:
                folder = self._look(path, ctx, ctime)
            if folder[0] < trusted:
                known[path] = folder
            seen += folder[3]
            if seen > limit:
                break
            found.update(folder[2])
            stack.extend(reversed(folder[1]))
        if len(self.memo) > 100_000:
            self.memo.clear()
        self._folders = known
        self._follow(found)
        self.last = found
        return found

    def _follow(self, found: Secrets) -> None:
        """Add to ``found`` the files held open that no sensitive name has now but some name has (let go of
        those with none left), and the name each has now where the kernel still knows it (renamed: not when
        the name it was opened by was removed)."""
        for key, (where, fd) in list(self._pinned.items()):
            if key in found:
                continue
            try:
                alive = os.fstat(fd).st_nlink > 0
            except OSError:
                alive = False
            if alive:
                found[key] = where
                with contextlib.suppress(OSError):
                    name = os.readlink(f"/proc/self/fd/{fd}")
                    if name.startswith("/") and not name.endswith(" (deleted)"):
                        found.moved[name] = where
            else:
                del self._pinned[key]
                os.close(fd)

    def _pin(self, key: tuple[int, int], path: str, where: Locus) -> None:
        """Hold ``path``'s file open (see the class), if it is still the file ``key`` names."""
        if key in self._pinned or len(self._pinned) >= PINNED_MAX:
            return
        try:
            fd = os.open(path, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != key:  # replaced since it was listed
            os.close(fd)
            return
        self._pinned[key] = (where, fd)

    def _look(self, path: str, ctx: Places, ctime: int) -> _Folder:
        folders: list[str] = []
        files: list[tuple[tuple[int, int], Locus]] = []
        count, memo = 0, self.memo
        try:
            with os.scandir(path) as entries:
                listed = list(entries)
        except OSError:
            return (0, (), (), 0)
        for entry in listed:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if entry.name not in NOISE_DIRS:
                    folders.append(entry.path)
                continue
            count += 1
            full = entry.path
            where = memo[full] if full in memo else memo.setdefault(full, sensitive(full, ctx))
            if where is None:
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                files.append(((st.st_dev, st.st_ino), where))
                self._pin(files[-1][0], full, where)
        try:
            unchanged = os.lstat(path).st_ctime_ns == ctime  # nothing came in while it was listed
        except OSError:
            unchanged = False
        return (ctime if unchanged else 0, tuple(folders), tuple(files), count)


def _close_all(pinned: dict[tuple[int, int], tuple[Locus, int]]) -> None:
    for _, fd in pinned.values():
        os.close(fd)
    pinned.clear()


def sensitive(path: str, ctx: Places) -> Locus | None:
    """(display path, atom, risk) when ``path`` (absolute) is a sensitive locus, else None."""
    if "//" in path or "/./" in path or path.endswith(("/", "/.")):
        path = PurePosixPath(path).as_posix()  # as a Path has it (what follows compares strings)
    where = placed(path, ctx)
    if where is None:
        return None
    prefix, rel = where
    kind = ctx.registry.classify_tool("read_file", rel)
    if kind is not None and kind.atom in READ_ATOMS:
        return f"{prefix}{rel}", kind.atom, kind.risk
    if prefix and rel in ctx.planted:
        bait = ctx.registry.get(READ_SECRET_FILE)
        return f"{prefix}{rel}", bait.name, bait.risk
    return None


def sensitive_copies(
    files: dict[str, bytes], root: Path, secrets: Mapping[tuple[int, int], Locus], named: set[str]
) -> set[str]:
    """The workspace-relative paths of ``files`` (path -> content, as the engine knows them) that are sensitive by
    what they are, not by name: a file whose (device, inode) under ``root`` is one of ``secrets`` (a ``.env``
    renamed by ``mv``: no read, no event; red team round 4, 04), or whose content is that of such a file or of
    one of ``named`` (the sensitive ones by name; empty or blank contents excepted). One ``lstat`` per file."""
    found: set[str] = set()
    for rel in files:
        with contextlib.suppress(OSError):
            st = os.lstat(root / rel)
            if stat.S_ISREG(st.st_mode) and (st.st_dev, st.st_ino) in secrets:
                found.add(rel)
    contents = {files[p] for p in found | (named & files.keys()) if files[p].strip()}
    found.update(p for p, data in files.items() if data in contents)
    return found


def secret_copy(
    rel: str, files: Mapping[str, bytes], root: Path, secrets: Mapping[tuple[int, int], Locus], registry: AtomRegistry
) -> Locus | None:
    """The sensitive file the workspace file ``rel`` is by what it is, not by its name, as
    :func:`sensitive_copies` decides for one file: its (device, inode) one of ``secrets`` (``os.rename('.env',
    'notes.txt')`` opens nothing; red team round 6, 01), or its content (as the engine knows it, ``files``) that of
    another such file or of one sensitive by name (blank excepted). None when it is neither. One ``lstat``, plus one
    per file of the same content."""
    try:
        st = os.lstat(root / rel)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    if (st.st_dev, st.st_ino) in secrets:
        return secrets[st.st_dev, st.st_ino]
    data = files.get(rel)
    if data is None or not data.strip():
        return None
    for path, other in files.items():
        if path == rel or other != data:
            continue
        kind = registry.classify_tool("read_file", path)
        if kind is not None and kind.atom in READ_ATOMS:
            return path, kind.atom, kind.risk
        with contextlib.suppress(OSError):
            st = os.lstat(root / path)
            if stat.S_ISREG(st.st_mode) and (st.st_dev, st.st_ino) in secrets:
                return secrets[st.st_dev, st.st_ino]
    return None


def placed(path: str, ctx: Places) -> tuple[str, str] | None:
    """(prefix, relative path) of an absolute ``path`` in HOME (``~/``) or the workspace (``""``; ``.`` for the
    folder itself), else None: how events show a path."""
    for base, prefix in ((ctx.home, "~/"), (ctx.workspace, "")):
        top = base.as_posix()
        if path == top:
            return prefix, "."
        if path.startswith(top + "/"):
            return prefix, path[len(top) + 1 :]
    return None


class Names:
    """The names a command's renames and hard links gave files (and folders), followed in the order the
    trace shows them: :meth:`origin` is the name a path's file had before the command, so a read under a
    new name (``mv ~/.aws ~/a2; cat ~/a2/config``) is a read of the file under its old one. A rename of a
    folder moves every name under it; a rename onto a name, or a removal, ends what that name was. Only the
    names whose origin is not what their folders' say are kept (a ``rm -rf`` of a tree, a build's thousands of
    renames of files it made cost a few lookups each), and a folder's are looked through only when it holds
    some (a count per folder)."""

    def __init__(self) -> None:
        self._alias: dict[str, str] = {}
        """A name now -> its name before the command ("" for a file made during it: no earlier name)."""
        self._under: dict[str, int] = {}
        """A folder -> how many names of :attr:`_alias` are under it."""

    def origin(self, path: str) -> str:
        """The name ``path``'s file had before the command ("" when it was made during the command)."""
        alias = self._alias
        if not alias:
            return path
        probe = path
        while True:
            if probe in alias:
                before = alias[probe]
                return before + path[len(probe) :] if before and not before.startswith(UNNAMED) else before
            cut = probe.rfind("/")
            if cut <= 0:
                return path
            probe = probe[:cut]

    def rename(self, src: str, dst: str) -> None:
        """``src`` (and all under it) is now ``dst``; nothing is left at ``src``."""
        if src == dst:
            return
        before = self.origin(src)
        moved = self._take(src)
        self._take(dst)
        for name, was in moved.items():
            self._set(dst + name[len(src) :], was)
        self._set(dst, before)
        self._set(src, "")

    def link(self, src: str, dst: str) -> None:
        """``src``'s file has the name ``dst`` too."""
        before = self.origin(src)
        self._take(dst)
        self._set(dst, before)

    def exchange(self, src: str, dst: str) -> None:
        """``src`` and ``dst`` swap (``RENAME_EXCHANGE``)."""
        first, second = self.origin(src), self.origin(dst)
        one, other = self._take(src), self._take(dst)
        for names, old, new in ((one, src, dst), (other, dst, src)):
            for name, was in names.items():
                self._set(new + name[len(old) :], was)
        self._set(dst, first)
        self._set(src, second)

    def unnamed(self, dst: str, link: str) -> None:
        """``dst`` names a file the trace does not name (a link from an open file, ``link`` says which)."""
        self._take(dst)
        self._set(dst, UNNAMED + link)

    def remove(self, path: str) -> None:
        """Nothing is left at ``path`` (a later file there is a new one)."""
        self._take(path)
        self._set(path, "")

    def _set(self, name: str, before: str) -> None:
        """``name``'s origin is ``before`` (kept only where its folders' would say otherwise; a name that is
        its own origin needs nothing: its own name is looked at anyway)."""
        if name in self._alias:
            self._drop(name)
        implied = self.origin(name)
        if implied == before or (implied == name and not before):
            return
        self._alias[name] = before
        for folder in _folders(name):
            self._under[folder] = self._under.get(folder, 0) + 1

    def _take(self, path: str) -> dict[str, str]:
        """The names at and under ``path``, taken out."""
        taken = {path: self._alias[path]} if path in self._alias else {}
        if self._under.get(path):
            under = path.rstrip("/") + "/"
            taken.update((k, v) for k, v in self._alias.items() if k.startswith(under))
        for k in taken:
            self._drop(k)
        return taken

    def _drop(self, name: str) -> None:
        del self._alias[name]
        for folder in _folders(name):
            left = self._under[folder] - 1
            if left:
                self._under[folder] = left
            else:
                del self._under[folder]


def _folders(path: str) -> list[str]:
    """The folders ``path`` is in (``/a/b/c``: ``/a/b``, ``/a``)."""
    out = []
    cut = path.rfind("/")
    while cut > 0:
        path = path[:cut]
        out.append(path)
        cut = path.rfind("/")
    return out
