"""Paths under a root the agents can write, reached without following any symlink (red team 5, finding 01).

The workspace, HOME and ``/tmp`` belong to the jail's uid, and an agent's process can be alive while the
engine (root) works in them (an ACP agent's own, :mod:`sandbox.commands.agentproc`): any folder on a path
can become a symlink to a host folder between a check and a use. So the engine never acts there by name.
It opens the root (its own folder, trusted), reaches the folder holding the last name with ``openat2``
(``RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS``, Linux 5.6; Python has no wrapper: a
``syscall``) or, where that is missing, with one ``openat(O_NOFOLLOW | O_DIRECTORY)`` per component, and acts
on the last name relative to that folder's descriptor, never following it either (``unlinkat``,
``mkdirat``, ``fchownat(AT_SYMLINK_NOFOLLOW)``, a mode set on an ``O_PATH`` descriptor of the entry). A swap
can at most make the operation fail (an ``OSError``: ``ELOOP``/``ENOTDIR``, a symlink on the way), never
reach outside the root.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

_PATH = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_LIST = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_RESOLVE = 0x02 | 0x04 | 0x08  # RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH
_SYS_OPENAT2 = 437  # the same number on every Linux architecture

Root = str | os.PathLike[str] | int
"""A folder the engine trusts (its own), by path or by an open descriptor."""


class _OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]


class _Openat2:
    """``openat2`` through ``syscall``; ``usable`` turns False for good on the first ``ENOSYS`` (or no libc)."""

    def __init__(self) -> None:
        self.usable = True
        try:
            self._syscall = ctypes.CDLL(None, use_errno=True).syscall
        except (OSError, AttributeError):
            self.usable = False

    def __call__(self, dirfd: int, rel: str, flags: int) -> int | None:
        """The fd, or None when ``openat2`` is not there (the caller walks instead)."""
        how = _OpenHow(flags & ~os.O_NOFOLLOW, 0, _RESOLVE)  # RESOLVE_NO_SYMLINKS: ELOOP for the last name too
        fd = int(self._syscall(_SYS_OPENAT2, dirfd, os.fsencode(rel), ctypes.byref(how), ctypes.sizeof(how)))
        if fd >= 0:
            return fd
        err = ctypes.get_errno()
        if err in (errno.ENOSYS, errno.EPERM) and self.usable:  # EPERM: a seccomp filter that refuses it
            self.usable = False
            return None
        if err == errno.EXDEV:  # RESOLVE_BENEATH's word for "a symlink or '..' on the way"
            err = errno.ELOOP
        raise OSError(err, f"{rel}: {os.strerror(err)} (a symlink on the way, or gone)")


_openat2 = _Openat2()


def parts_of(rel: str | Sequence[str]) -> tuple[str, ...]:
    """The names of a root-relative path; ``..``, ``.``, empty names and absolute paths are refused (EINVAL)."""
    parts = tuple(rel.split("/")) if isinstance(rel, str) else tuple(rel)
    if any(part in ("", ".", "..") or "\0" in part for part in parts):
        raise OSError(errno.EINVAL, f"{'/'.join(parts)!r}: not a plain path beneath its root")
    return parts


def _open_root(root: Root) -> int:
    if isinstance(root, int):
        return os.dup(root)
    return os.open(root, _PATH)


def open_folder(
    root: Root, rel: str | Sequence[str] = (), *, make: bool = False, flags: int = _PATH
) -> int:
    """An fd of folder ``rel`` beneath ``root`` (a path the engine trusts, or an fd; ``()``: the root itself),
    no symlink followed on the way; with ``make``, missing folders are made (``mkdirat``, mode 0755). Raises
    OSError (``ELOOP``/``ENOTDIR``: something on the way is no folder; ``ENOENT``: missing)."""
    parts = () if rel in ("", ()) else parts_of(rel)
    top = _open_root(root)
    if not parts and flags == _PATH:
        return top
    try:
        if _openat2.usable:
            try:
                fd = _openat2(top, "/".join(parts) or ".", flags | os.O_DIRECTORY)
            except FileNotFoundError:
                if not make:
                    raise
                fd = None  # made below, a folder at a time
            if fd is not None:
                return fd
        fd = top
        try:
            for part in parts:
                inner = _subfolder(fd, part, make=make)
                if fd != top:
                    os.close(fd)
                fd = inner
            if flags == _PATH:
                return os.dup(fd) if fd == top else fd
            final = os.open(".", flags | os.O_DIRECTORY, dir_fd=fd)
            if fd != top:
                os.close(fd)
            return final
        except BaseException:
            if fd != top:
                os.close(fd)
            raise
    finally:
        os.close(top)


def _subfolder(parent: int, name: str, *, make: bool) -> int:
    try:
        return os.open(name, _PATH, dir_fd=parent)
    except NotADirectoryError:
        if stat.S_ISLNK(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode):
            raise OSError(errno.ELOOP, f"{name}: a symlink on the way") from None  # as openat2 says it
        raise
    except FileNotFoundError:
        if not make:
            raise
    with contextlib.suppress(FileExistsError):
        os.mkdir(name, 0o755, dir_fd=parent)
    return os.open(name, _PATH, dir_fd=parent)


@contextlib.contextmanager
def parent(root: Root, rel: str | Sequence[str], *, make: bool = False) -> Iterator[tuple[int, str]]:
    """(an fd of the folder holding ``rel``'s last name, that name), reached as :func:`open_folder` does."""
    parts = parts_of(rel)
    if not parts:
        raise OSError(errno.EINVAL, "no name beneath the root")
    fd = open_folder(root, parts[:-1], make=make)
    try:
        yield fd, parts[-1]
    finally:
        os.close(fd)


def lstat(root: Root, rel: str | Sequence[str]) -> os.stat_result:
    """``lstat`` of ``rel`` beneath ``root`` (its last name not followed either)."""
    with parent(root, rel) as (fd, name):
        return os.stat(name, dir_fd=fd, follow_symlinks=False)


def chmod_at(dirfd: int, name: str, mode: int) -> None:
    """Set the mode of ``name`` in ``dirfd``; a symlink there is refused (ELOOP), never followed."""
    fd = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dirfd)
    try:
        if stat.S_ISLNK(os.fstat(fd).st_mode):
            raise OSError(errno.ELOOP, f"{name}: a symlink, its mode is not set")
        # fchmod refuses an O_PATH fd; the fd's /proc name is the very inode opened (glibc's fchmodat does this).
        os.chmod(f"/proc/self/fd/{fd}", mode)
    finally:
        os.close(fd)


def chmod(root: Root, rel: str | Sequence[str], mode: int) -> None:
    """Set the mode of ``rel`` beneath ``root`` (see :func:`chmod_at`)."""
    with parent(root, rel) as (fd, name):
        chmod_at(fd, name, mode)


def utime(root: Root, rel: str | Sequence[str], ns: tuple[int, int]) -> None:
    """Set the times of ``rel`` beneath ``root`` (of a symlink itself, not its target)."""
    with parent(root, rel) as (fd, name):
        os.utime(name, ns=ns, dir_fd=fd, follow_symlinks=False)


def remove_at(dirfd: int, name: str) -> None:
    """Remove ``name`` in ``dirfd`` and everything under it, iteratively (any depth; no descriptor held per
    level), never following a symlink; what cannot be removed is left. A folder made mode 000 is opened up."""
    try:
        if not stat.S_ISDIR(os.stat(name, dir_fd=dirfd, follow_symlinks=False).st_mode):
            os.unlink(name, dir_fd=dirfd)
            return
        top = os.open(name, _PATH, dir_fd=dirfd)
    except OSError:
        return
    try:
        folders: list[tuple[str, ...]] = []
        stack: list[tuple[str, ...]] = [()]
        while stack:
            rel = stack.pop()
            try:
                listed = _opened_up(top, rel)
            except OSError:
                continue
            folders.append(rel)
            with os.scandir(listed) as entries:
                for entry in entries:
                    try:
                        is_dir = entry.is_dir(follow_symlinks=False)
                    except OSError:
                        is_dir = False
                    if is_dir:
                        stack.append((*rel, entry.name))
                    else:
                        with contextlib.suppress(OSError):
                            os.unlink(entry.name, dir_fd=listed)
            os.close(listed)
        for rel in reversed(folders[1:]):
            with contextlib.suppress(OSError), parent(top, rel) as (fd, last):
                os.rmdir(last, dir_fd=fd)
    finally:
        os.close(top)
    with contextlib.suppress(OSError):
        os.rmdir(name, dir_fd=dirfd)


def _opened_up(top: int, rel: tuple[str, ...]) -> int:
    """An fd to list folder ``rel`` beneath ``top``, its mode first made 0700 (an agent's ``chmod 000``)."""
    path_fd = open_folder(top, rel)
    try:
        with contextlib.suppress(OSError):
            os.chmod(f"/proc/self/fd/{path_fd}", 0o700)
        return os.open(".", _LIST, dir_fd=path_fd)
    finally:
        os.close(path_fd)


def remove(root: Root, rel: str | Sequence[str]) -> None:
    """:func:`remove_at` of ``rel`` beneath ``root``; nothing happens when the way there is no longer a folder."""
    with contextlib.suppress(OSError), parent(root, rel) as (fd, name):
        remove_at(fd, name)


def remove_path(path: Path | str) -> None:
    """:func:`remove_at` of ``path``'s last name, its folder reached by name (the caller's own, trusted)."""
    head, name = os.path.split(os.path.normpath(os.fspath(path)))
    if name in ("", ".", ".."):
        return
    try:
        fd = os.open(head or ".", _PATH)
    except OSError:
        return
    try:
        remove_at(fd, name)
    finally:
        os.close(fd)
