"""Entries: what the sandbox knows of a path (a file's bytes, a symlink as
:func:`~sandbox.workspace.diffs.link_entry`, a FIFO, socket or device as
:func:`~sandbox.workspace.files.special_entry`, None when absent), read from disk and put back on it.

In the workspace, HOME and ``/tmp`` (the agents') an entry is read and put beneath its root
(:mod:`sandbox.workspace.beneath`): no symlink on the way is followed, a folder swapped for a link by a live
agent process makes the operation fail, never reach outside (red team 5, finding 01).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from sandbox.workspace import beneath
from sandbox.workspace.diffs import LINK_MARK, link_entry
from sandbox.workspace.files import (
    ENTRY_MAX,
    LARGE_MARK,
    SPECIAL_MARK,
    describe,
    read_regular,
    special_entry,
    special_kind,
    write_regular,
)
from sandbox.workspace.spill import is_spilled, load


def read_entry(path: Path | str, dir_fd: int | None = None) -> bytes | None:
    """A file's content (past :data:`~sandbox.workspace.files.ENTRY_MAX`: its size and times), a symlink as
    :func:`link_entry`, a FIFO, socket or device as :func:`~sandbox.workspace.files.special_entry`, None when
    absent or a folder. ``path`` is relative to ``dir_fd`` when given (:mod:`sandbox.workspace.beneath`).
    Never blocks (:mod:`sandbox.workspace.files`)."""
    try:
        st = os.stat(path, dir_fd=dir_fd, follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            return link_entry(os.readlink(path, dir_fd=dir_fd))
    except OSError:
        return None
    kind = special_kind(st.st_mode)
    if kind is not None:
        return special_entry(kind)
    if stat.S_ISDIR(st.st_mode):
        return None
    return read_regular(path, dir_fd)


def read_beneath(root: Path, rel: str) -> bytes | None:
    """:func:`read_entry` of ``rel`` beneath ``root``, no symlink on the way followed (None when one is there)."""
    try:
        with beneath.parent(root, rel) as (fd, name):
            return read_entry(name, fd)
    except OSError:
        return None


def put_entry(path: Path, data: bytes | None, *, root: Path | None = None) -> None:
    """Make ``path`` hold ``data`` (None: remove it); symlink entries become symlinks. A file that
    shares its inode with another name (a hard link) is replaced, never written through. Below ``root``
    (default: ``path``'s folder, made when missing) nothing is reached by name: no symlink on the way is
    followed, missing folders are made (:mod:`sandbox.workspace.beneath`); a symlink on the way fails (OSError)."""
    base = path.parent if root is None else root
    if root is None and data is not None:
        base.mkdir(parents=True, exist_ok=True)  # the caller's own folder (a copy, a mirror): made by name
    rel = path.relative_to(base).as_posix()
    if data is not None and is_spilled(data):
        data = load(data)  # a big content the reconciler keeps on disk (sandbox.workspace.spill)
    if data is not None and data.startswith(LARGE_MARK):
        raise OSError(errno.EFBIG, f"its content was over {ENTRY_MAX // 2**20} MB and was not kept")
    try:
        with beneath.parent(base, rel, make=data is not None) as (fd, name):
            _put_at(fd, name, data)
    except OSError as error:
        if data is not None or error.errno not in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP):
            raise  # (None: its folder is gone or no folder now, so no such name is beneath the root)


def _put_at(fd: int, name: str, data: bytes | None) -> None:
    try:
        st: os.stat_result | None = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        st = None
    if st is not None and (data is None or not stat.S_ISREG(st.st_mode)):
        # Whatever is in the way goes: a folder, a symlink, a FIFO or socket (never opened).
        beneath.remove_at(fd, name)
        st = None
    if data is None:
        return
    if data.startswith(LINK_MARK):
        os.symlink(data[len(LINK_MARK) :].decode("utf-8", "surrogateescape"), name, dir_fd=fd)
        return
    if data.startswith(SPECIAL_MARK):
        if data == special_entry("fifo"):
            os.mkfifo(name, 0o644, dir_fd=fd)
            return
        raise OSError(errno.EPERM, f"{describe(data)}: cannot be made again")
    if st is not None and st.st_nlink > 1:
        fresh = f".{name}.scopewatch-new"
        write_regular(fresh, data, dir_fd=fd)
        beneath.chmod_at(fd, fresh, stat.S_IMODE(st.st_mode))
        os.replace(fresh, name, src_dir_fd=fd, dst_dir_fd=fd)
    else:
        write_regular(name, data, dir_fd=fd)


def put_copy(path: Path, data: bytes) -> None:
    """:func:`put_entry` for a copy of the workspace (tests, a mirror): an entry that cannot be made
    again (a socket, a device, a file too large to have been kept) is left out."""
    if data.startswith(LARGE_MARK) or (data.startswith(SPECIAL_MARK) and data != special_entry("fifo")):
        return
    put_entry(path, data)
