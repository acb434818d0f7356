"""Files the engine (root) writes, reads or removes in an agent's HOME, never through a link the agent made.

An agent's commands own its HOME: by the time the engine touches ``~/.scopewatch/outbox.jsonl.ack``, any
name on the way may be a symlink to a host path. Every function here walks from HOME one folder at a time
with ``O_NOFOLLOW|O_DIRECTORY`` on a folder fd (a link standing where the engine wants a folder is removed,
and the folder made), opens files with ``O_NOFOLLOW`` relative to that fd, and writes a file as a temporary
(``O_CREAT|O_EXCL|O_NOFOLLOW``) renamed over its name in the same folder (a rename replaces a link, it does
not follow it). Reads take regular files only (a FIFO would block the engine, a device is not the agent's).
HOME itself is the engine's own folder (the sandbox's), opened with ``O_NOFOLLOW`` too.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_TRIES = 5


class UnsafeName(OSError):
    """A name in an agent's HOME the engine will not use (not a folder where one is wanted, not a file)."""


def _parts(home: Path, path: Path) -> tuple[str, ...]:
    parts = path.relative_to(home).parts
    if any(part in ("..", ".") for part in parts):
        raise UnsafeName(errno.EINVAL, f"{path}: not a plain path under {home}")
    return parts


def _subfolder(parent: int, name: str, *, create: bool) -> int:
    """The fd of folder ``name`` in ``parent``: a link there is removed (and, with ``create``, a folder made)."""
    for _ in range(_TRIES):
        try:
            return os.open(name, _DIR, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                raise
        except OSError as error:
            if error.errno not in (errno.ELOOP, errno.ENOTDIR):
                raise
            if not stat.S_ISLNK(os.lstat(name, dir_fd=parent).st_mode):
                raise UnsafeName(errno.ENOTDIR, f"{name}: not a folder") from error
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name, dir_fd=parent)
            if not create:
                raise FileNotFoundError(errno.ENOENT, f"{name}: was a link, removed") from error
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o755, dir_fd=parent)
    raise UnsafeName(errno.ELOOP, f"{name}: keeps changing")


@contextlib.contextmanager
def folder(home: Path, path: Path, *, create: bool = True) -> Iterator[int]:
    """An fd of folder ``path`` under ``home`` (``home`` itself allowed), reached without following a link;
    missing folders are made with ``create``, else FileNotFoundError."""
    try:
        fd = os.open(home, _DIR)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR):
            raise UnsafeName(error.errno, f"{home}: not a folder") from error
        raise
    try:
        for part in _parts(home, path):
            inner = _subfolder(fd, part, create=create)
            os.close(fd)
            fd = inner
        yield fd
    finally:
        os.close(fd)


def make_folder(home: Path, path: Path) -> None:
    """``mkdir -p`` of ``path`` under ``home``, a link on the way removed, never followed."""
    with folder(home, path):
        pass


def write_file(home: Path, path: Path, data: str | bytes, mode: int = 0o644) -> None:
    """Write ``path`` (under ``home``) whole: a temporary ``NAME.part`` in its folder (whatever stood there
    removed first), renamed over it (atomic, and a link at ``path`` is replaced, not followed)."""
    raw = data.encode() if isinstance(data, str) else data
    with folder(home, path.parent) as parent:
        temp = f"{path.name}.part"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp, dir_fd=parent)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=parent)
        try:
            try:
                os.fchmod(fd, mode)
                view = memoryview(raw)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
            os.rename(temp, path.name, src_dir_fd=parent, dst_dir_fd=parent)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=parent)
            raise


def remove(home: Path, path: Path) -> None:
    """Remove the name ``path`` under ``home`` (a file or a link, itself), if it is there."""
    try:
        with folder(home, path.parent, create=False) as parent:
            os.unlink(path.name, dir_fd=parent)
    except FileNotFoundError:
        pass


def read_file(home: Path, path: Path, offset: int = 0) -> bytes | None:
    """The bytes of regular file ``path`` under ``home`` from ``offset`` (None when it is missing); a link
    or anything but a regular file is refused (UnsafeName)."""
    try:
        with folder(home, path.parent, create=False) as parent:
            fd = os.open(path.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=parent)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise UnsafeName(errno.ELOOP, f"{path}: a link") from error
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnsafeName(errno.EINVAL, f"{path}: not a regular file")
        chunks = []
        while chunk := os.pread(fd, 1 << 20, offset):
            chunks.append(chunk)
            offset += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
