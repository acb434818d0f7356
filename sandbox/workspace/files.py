"""Files an agent made, handled so that no file can hang or crash the engine.

Every file in the workspace, HOME and ``/tmp`` is the agent's and may be anything: a FIFO (an
``open`` for reading or writing blocks until someone opens the other end), a socket or a device
node (``open`` fails or reaches the hardware), a name that is not UTF-8, a folder 1,100 levels deep
(a recursive walk raises ``RecursionError``), a sparse file of a terabyte. So, here:

- contents are read only from regular files, opened ``O_NONBLOCK | O_NOFOLLOW`` and checked with
  ``fstat`` after the open (a FIFO swapped in after a ``stat`` is never waited on), and only up to
  :data:`ENTRY_MAX` bytes: a bigger file is known by its size and times (:func:`large_entry`), not
  held in memory;
- a file is written after whatever non-regular entry is in its place is removed, again with
  ``O_NOFOLLOW | O_NONBLOCK``;
- walks and removals are iterative (:func:`walk`, :func:`remove_tree`): any depth;
- names are ``str`` with Python's ``surrogateescape`` for bytes that are not UTF-8 (what ``os``
  gives); events show them escaped (:func:`channel.text.escape_bytes`).
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from sandbox.workspace.beneath import remove_path

ENTRY_MAX = 16 * 1024 * 1024
"""Bytes of a file the engine keeps (and diffs); a bigger one is known by size and times only."""

SPECIAL_MARK = b"\0scopewatch-special\0"
"""Prefix of an entry that is no file but a FIFO, socket or device node (the rest names it)."""
LARGE_MARK = b"\0scopewatch-large\0"
"""Prefix of an entry for a file over :data:`ENTRY_MAX` bytes (the rest: size, mtime, ctime)."""


def special_kind(mode: int) -> str | None:
    """``fifo``, ``socket``, ``character device``, ``block device``; None for files, folders, links."""
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    return None


def special_entry(kind: str) -> bytes:
    return SPECIAL_MARK + kind.encode()


def large_entry(st: os.stat_result) -> bytes:
    return LARGE_MARK + f"{st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}".encode()


def describe(data: bytes) -> str | None:
    """A one-line description of a special or large entry (None: file content or a symlink)."""
    if data.startswith(SPECIAL_MARK):
        return f"not a file: a {data[len(SPECIAL_MARK) :].decode()}"
    if data.startswith(LARGE_MARK):
        size = data[len(LARGE_MARK) :].split(b" ", 1)[0].decode()
        return f"a file of {size} bytes (over {ENTRY_MAX // 2**20} MB: content not kept)"
    return None


def read_regular(path: Path | str, dir_fd: int | None = None) -> bytes | None:
    """The content of the regular file at ``path`` (relative to ``dir_fd``, when given: see
    :mod:`sandbox.workspace.beneath`; never through a symlink, never blocking), its :func:`large_entry` past
    :data:`ENTRY_MAX`, or None when it is no regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NOCTTY, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        if st.st_size > ENTRY_MAX:
            return large_entry(st)
        chunks: list[bytes] = []
        left = ENTRY_MAX + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:  # it grew while being read
            return large_entry(os.fstat(fd))
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def write_regular(path: Path | str, data: bytes, mode: int = 0o644, dir_fd: int | None = None) -> None:
    """Make ``path`` (relative to ``dir_fd``, when given) a regular file holding ``data``: a FIFO, socket or
    device in its place is removed first, and the open neither follows a symlink nor blocks. Raises OSError."""
    with contextlib.suppress(FileNotFoundError):
        if special_kind(os.stat(path, dir_fd=dir_fd, follow_symlinks=False).st_mode) is not None:
            os.unlink(path, dir_fd=dir_fd)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    fd = os.open(path, flags, mode, dir_fd=dir_fd)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path}: not a regular file")
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def walk(root: Path | str) -> Iterator[tuple[str, list[str], list[str]]]:
    """``os.walk(root)`` top-down, without recursion (any depth) and never into a symlink: yields
    (folder, subfolder names, other names); removing a name from the subfolders prunes it."""
    stack = [os.fspath(root)]
    while stack:
        top = stack.pop()
        dirs: list[str] = []
        others: list[str] = []
        try:
            with os.scandir(top) as entries:
                for entry in entries:
                    try:
                        is_dir = entry.is_dir(follow_symlinks=False)
                    except OSError:
                        is_dir = False
                    (dirs if is_dir else others).append(entry.name)
        except OSError:
            continue
        yield top, dirs, others
        stack.extend(os.path.join(top, d) for d in reversed(dirs))


def remove_tree(path: Path | str) -> None:
    """Remove ``path`` and everything under it, iteratively (any depth), never following a
    symlink (below ``path``'s folder, by descriptors: :func:`sandbox.workspace.beneath.remove_at`); what
    cannot be removed is left (as ``shutil.rmtree(path, True)``)."""
    remove_path(path)


WALK_QUICK = 5000
"""Entries (files and folders) a tree may hold for a walk of it to run on the event loop: past it the walk goes to a
thread (red team 5, 07: 150,000 folders an agent left in ``/tmp`` froze the engine 5-9 s on every later command). A
walk of a few thousand entries takes a few milliseconds; a thread hop ~0.3 ms."""


def crowded(path: Path | str, own: bool) -> bool:
    """Whether the filesystem holding ``path`` holds more than :data:`WALK_QUICK` entries (one ``statvfs``, whatever
    the tree holds), where it is one of the sandbox's own (``own``: a tmpfs the engine mounted, so the count is the
    tree's, an agent's new entries included); elsewhere False: not known (the host disk's count is not the tree's), so
    :class:`~sandbox.commands.offload.Offload` decides by how long the last walk took."""
    if not own:
        return False
    try:
        st = os.statvfs(path)
    except OSError:
        return True
    return st.f_files - st.f_ffree > WALK_QUICK
