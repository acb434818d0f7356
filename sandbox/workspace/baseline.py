"""The git baseline made once per content: a workspace's ``.git`` and its ``origin`` as git made them
for the same files, kept in memory and written again for the next workspace that holds them.

Every trajectory of a benchmark runs the same tasks (and every gate run of an audit candidate starts
from its candidate's files), so most workspaces hold files a workspace of the process held before;
making their baseline with git costs seven git processes (init, add, commit, a bare ``origin``, its
config, the remote, the push), which was most of a sandbox's set-up. So the first workspace of a
content makes it with git (:meth:`~sandbox.workspace.repo.Workspace.git_baseline`) and
:func:`capture` keeps what is then on disk; a later workspace with the same files gets those bytes written back
(:meth:`Template.write`): the same objects, refs, reflogs and config, with the two things that
name the sandbox made its own: the ``origin`` URL in ``.git/config``, and the index's stat data (each
entry's times, inode, owner and size read from the new workspace's file, as ``git add`` would have
recorded them).

The baseline commit's dates are fixed (:data:`~sandbox.workspace.repo.BASELINE_DATE`), so git makes
the same commit, refs and reflogs for the same files every time: a written baseline is byte for byte
what git would have made (tests/sandbox/workspace/test_baseline.py compares the two).

A content's first baseline is made with git but for its ``origin``: the empty ``origin`` (``init --bare``, its
config, ``remote add``) is written as git made the process's first one (:class:`Origin`, which holds no content), and
:func:`push_by_hand` copies the loose objects and writes the refs, reflogs and tracking config that ``git push -u
origin main`` writes (git's push to a local bare repository started nine processes: the shell, receive-pack,
pack-objects, rev-list, unpack-objects, for-each-ref, gc and maintenance checks). Where git would keep a pack instead
(as many objects as ``receive.unpackLimit``, or any already packed), git pushes.

The key (:func:`content_key`) is every path and byte of the files and the git program, so a
different tree never gets another's baseline. Held per process, least recently used out first
(:data:`BASELINES`); ``SCOPEWATCH_BASELINE_CACHE=0`` makes every baseline with git.
"""

from __future__ import annotations

import hashlib
import os
import stat
import struct
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

_ENTRY = struct.Struct(">10I20sH")
"""An index entry's fixed part: ctime s/ns, mtime s/ns, dev, ino, mode, uid, gid, size, sha-1, flags."""


@dataclass(frozen=True)
class Tree:
    """One folder's content as git left it: sub-folders and files (bytes and permission bits)."""

    dirs: tuple[tuple[str, int], ...]
    files: tuple[tuple[str, bytes, int], ...]


def _capture_tree(top: Path) -> Tree | None:
    dirs: list[tuple[str, int]] = []
    files: list[tuple[str, bytes, int]] = []
    for dirpath, dirnames, filenames in os.walk(top):
        rel = os.path.relpath(dirpath, top)
        for name in dirnames:
            st = os.lstat(os.path.join(dirpath, name))
            if not stat.S_ISDIR(st.st_mode):
                return None  # a symlink: not something git makes here
            dirs.append((os.path.normpath(os.path.join(rel, name)), stat.S_IMODE(st.st_mode)))
        for name in filenames:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode):
                return None
            with open(path, "rb") as f:
                files.append((os.path.normpath(os.path.join(rel, name)), f.read(), stat.S_IMODE(st.st_mode)))
    return Tree(tuple(dirs), tuple(files))


def _write_tree(tree: Tree, top: Path, config_from: bytes = b"", config_to: bytes = b"") -> None:
    top.mkdir(exist_ok=True)
    for rel, mode in tree.dirs:  # os.walk lists parents before their children
        os.mkdir(top / rel, mode)
        os.chmod(top / rel, mode)  # past the umask
    for rel, data, mode in tree.files:
        if rel == "config" and config_from:
            data = data.replace(config_from, config_to)
        fd = os.open(top / rel, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            os.write(fd, data)
            os.fchmod(fd, mode)
        finally:
            os.close(fd)


@dataclass(frozen=True)
class Template:
    """A baseline as git made it in the sandbox at ``base``: its workspace's ``.git`` and its ``origin``."""

    base: str
    git: Tree
    remote: Tree

    @property
    def size(self) -> int:
        """Its files' bytes."""
        return sum(len(data) for tree in (self.git, self.remote) for _, data, _ in tree.files)

    def write(self, base: Path, root: Path, remote: Path) -> bool:
        """Write the baseline for the workspace at ``root`` (its files already there) and its ``origin``
        at ``remote``, in the sandbox at ``base``. False (nothing written) when the index cannot be
        re-stated for these files: the caller makes the baseline with git."""
        index = dict((rel, data) for rel, data, _ in self.git.files).get("index")
        fresh = restat_index(index, root) if index is not None else None
        if fresh is None:
            return False
        git = Tree(self.git.dirs, tuple((r, fresh if r == "index" else d, m) for r, d, m in self.git.files))
        _write_tree(git, root / ".git", os.fsencode(self.base), os.fsencode(str(base)))
        _write_tree(self.remote, remote)
        return True


@dataclass(frozen=True)
class Origin:
    """An empty ``origin`` as git made it (``init --bare`` from the empty template, ``core.logAllRefUpdates =
    always``) and what ``git remote add origin PATH`` then appended to the workspace's config, learned from the
    process's first one made with git (:func:`learn_origin`): it depends on the git program and the machine's git
    configuration, never on the files."""

    config: bytes
    """The workspace's ``.git/config`` before ``remote add``: another one is not written by hand."""
    added: bytes
    """What ``remote add`` appended, with the origin's path as :data:`_PATH`."""
    remote: Tree


_PATH = b"\0origin\0"
_BARE_FILES = {"HEAD", "config", "description"}
_BARE_DIRS = {"objects", "objects/info", "objects/pack", "refs", "refs/heads", "refs/tags", "branches", "info", "hooks"}
ORIGINS: dict[str, Origin] = {}
"""This process's learned :class:`Origin`, by git program."""


def learn_origin(git: str, config: bytes, git_dir: Path, remote: Path) -> None:
    """Keep the empty ``origin`` at ``remote`` that git just made (``config``: the workspace's before ``remote add``),
    unless it names its path anywhere but in the config's ``remote`` section, holds an object, or is not what it
    should be."""
    tree = _capture_tree(remote)
    after = (git_dir / "config").read_bytes()
    path = os.fsencode(str(remote))
    if tree is None or not after.startswith(config) or after[len(config) :].count(path) != 1:
        return
    if {rel for rel, _, _ in tree.files} - _BARE_FILES or {rel for rel, _ in tree.dirs} - _BARE_DIRS:
        return  # anything git's init of a bare repository from an empty template does not make: not learned
    if any(path in data for _, data, _ in tree.files):
        return
    ORIGINS[git] = Origin(config, after[len(config) :].replace(path, _PATH), tree)


def origin_by_hand(git: str, git_dir: Path, remote: Path) -> bool:
    """Make the empty ``origin`` at ``remote`` and add it to the workspace's config as git did the process's first
    time (:class:`Origin`); False, nothing written, before git has been seen making one, for a workspace whose
    config differs from the one seen then, or when the cache is off (``SCOPEWATCH_BASELINE_CACHE=0``: every
    baseline with git)."""
    origin = ORIGINS.get(git) if BASELINES.enabled else None
    config = git_dir / "config"
    if origin is None or remote.exists() or config.read_bytes() != origin.config:
        return False
    _write_tree(origin.remote, remote)
    with open(config, "ab") as f:
        f.write(origin.added.replace(_PATH, os.fsencode(str(remote))))
    return True


UNPACK_LIMIT = 100
"""``receive.unpackLimit``'s default: a push of fewer objects is unpacked loose in the receiving repository."""


def push_by_hand(git_dir: Path, remote: Path, branch: str = "main") -> bool:
    """What ``git push -u origin BRANCH`` (a freshly ``init --bare`` ``origin`` with ``core.logAllRefUpdates =
    always``, BRANCH's one commit) leaves, written without git: every loose object copied (the same bytes: the
    receiving side's unpack writes them as the committing side did), ``origin``'s ref and its reflog (``push``),
    the remote-tracking ref and its reflog (``update by push``), and the tracking config. False, with nothing
    written, where git would do otherwise: objects already packed, as many as :data:`UNPACK_LIMIT`, a reflog or
    ref not as one commit leaves them (tests/sandbox/workspace/test_baseline.py compares both, byte for byte), or
    the cache off (``SCOPEWATCH_BASELINE_CACHE=0``: every baseline with git)."""
    if not BASELINES.enabled:
        return False
    objects = git_dir / "objects"
    try:
        head_log = (git_dir / "logs" / "HEAD").read_bytes()
        commit = (git_dir / "refs" / "heads" / branch).read_bytes()
        packed = any((objects / "pack").iterdir()) or (git_dir / "packed-refs").exists()
        loose = [
            (folder.name, entry.name)
            for folder in objects.iterdir()
            if len(folder.name) == 2 and folder.is_dir()
            for entry in folder.iterdir()
        ]
    except OSError:
        return False
    lines = head_log.splitlines()
    old, _, rest = lines[0].partition(b" ") if len(lines) == 1 else (b"", b"", b"")
    new, _, who = rest.partition(b" ")
    if packed or len(loose) >= UNPACK_LIMIT or old.strip(b"0") or new + b"\n" != commit or b"\t" not in who:
        return False
    who = who.partition(b"\t")[0]  # the committer and time of the commit's own reflog line
    for folder, name in loose:
        (remote / "objects" / folder).mkdir(exist_ok=True)
        data = (objects / folder / name).read_bytes()
        fd = os.open(remote / "objects" / folder / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    line = b"%s %s %s\t" % (old, new, who)
    _write(remote / "refs" / "heads" / branch, commit)
    _write(remote / "logs" / "refs" / "heads" / branch, line + b"push\n")
    _write(git_dir / "refs" / "remotes" / "origin" / branch, commit)
    _write(git_dir / "logs" / "refs" / "remotes" / "origin" / branch, line + b"update by push\n")
    tracking = f'[branch "{branch}"]\n\tremote = origin\n\tmerge = refs/heads/{branch}\n'
    with open(git_dir / "config", "a", encoding="utf-8") as f:
        f.write(tracking)
    return True


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def capture(base: Path, root: Path, remote: Path) -> Template | None:
    """What git made in the sandbox at ``base`` (None when it holds anything but folders and files,
    or names ``base`` anywhere but in the workspace's ``.git/config``)."""
    git, origin = _capture_tree(root / ".git"), _capture_tree(remote)
    if git is None or origin is None:
        return None
    named = os.fsencode(str(base))
    plain = [data for rel, data, _ in git.files if rel != "config"] + [data for _, data, _ in origin.files]
    if any(named in data for data in plain):
        return None  # the sandbox's path somewhere but where the template puts the new one
    return Template(str(base), git, origin)


def restat_index(data: bytes, root: Path) -> bytes | None:
    """A git index (version 2 or 3) with every entry's stat data read from the file under ``root``;
    None for any other version, a damaged index, or an entry whose file is missing or of another size."""
    if len(data) < 32 or data[:4] != b"DIRC":
        return None
    version, count = struct.unpack(">II", data[4:12])
    if version not in (2, 3):
        return None
    out = bytearray(data[:-20])
    at = 12
    for _ in range(count):
        if at + _ENTRY.size > len(out):
            return None
        fields = _ENTRY.unpack_from(out, at)
        flags = fields[11]
        extended = 2 if version == 3 and flags & 0x4000 else 0
        name_at = at + _ENTRY.size + extended
        end = out.find(b"\0", name_at)
        if end < 0:
            return None
        name = bytes(out[name_at:end])
        try:
            st = os.lstat(root / os.fsdecode(name))
        except OSError:
            return None
        if st.st_size & 0xFFFFFFFF != fields[9]:
            return None
        stats = (
            int(st.st_ctime),
            st.st_ctime_ns % 1_000_000_000,
            int(st.st_mtime),
            st.st_mtime_ns % 1_000_000_000,
            st.st_dev & 0xFFFFFFFF,
            st.st_ino & 0xFFFFFFFF,
            fields[6],
            st.st_uid & 0xFFFFFFFF,
            st.st_gid & 0xFFFFFFFF,
            fields[9],
        )
        _ENTRY.pack_into(out, at, *stats, fields[10], flags)
        length = _ENTRY.size + extended + len(name)
        at += (length + 8) & ~7  # 1 to 8 NULs after the name
    out += hashlib.sha1(out).digest()  # git's index checksum, not a security hash
    return bytes(out)


def content_key(files: Mapping[str, bytes], git: str) -> str:
    """sha-256 over the git program and every path and byte of ``files``."""
    h = hashlib.sha256(os.fsencode(git) + b"\0")
    for rel in sorted(files):
        data = files[rel]
        h.update(f"{rel}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
        h.update(data)
    return h.hexdigest()


class BaselineCache:
    """Templates by :func:`content_key`, the least recently used dropped past ``limit`` bytes (a
    benchmark's worker meets each of its packs' contents again a few trajectories later: a cap by
    count thrashed there)."""

    def __init__(self, limit: int = 64 * 2**20) -> None:
        self.limit = limit
        self._kept: OrderedDict[str, Template] = OrderedDict()
        self._bytes = 0
        self.hits = 0

    @property
    def enabled(self) -> bool:
        return os.environ.get("SCOPEWATCH_BASELINE_CACHE") != "0"

    def get(self, key: str) -> Template | None:
        template = self._kept.get(key) if self.enabled else None
        if template is not None:
            self._kept.move_to_end(key)
            self.hits += 1
        return template

    def put(self, key: str, template: Template) -> None:
        if not self.enabled or key in self._kept:
            return
        self._kept[key] = template
        self._bytes += template.size
        while self._bytes > self.limit and self._kept:
            self._bytes -= self._kept.popitem(last=False)[1].size


BASELINES = BaselineCache()
"""This process's baselines (see the module docstring)."""
