"""Whether the workspace can have changed since the reconciler's last whole scan, without scanning it.

A shell command starts by settling whatever changed while no operation ran (a human's edit is never
charged to the agent). Usually nothing did, and that scan of the whole tree is then a waste. The sentry
holds an inotify descriptor of its own with a watch on every folder the last scan went into. The kernel
queues an event in the same system call that creates, deletes, moves, writes, chmods, chowns or touches
an entry of a watched folder, so an empty queue proves that no such call was made since the queue was
last drained.

The invariant (:meth:`Sentry.quiet` is True only if the tree is as the last whole scan saw it):

- a whole scan drains the queue *before* it reads the tree (:meth:`Sentry.drain`), so every change it
  does not see is still queued;
- a folder first watched after the scan read it may have changed in between: the sentry is not quiet
  until the next scan, made with that folder already watched;
- a file with another name (a hard link) may be written through a folder that is not watched, and a
  write through a shared ``mmap`` queues no event: a tree holding a hard link is never quiet (a link made
  by a command queues no event here either when its new name is outside the tree, in ``.git``, HOME or
  ``/tmp``: the command's trace makes its scan run, :func:`~sandbox.commands.hooks.opened_for_writing`); the
  ``mmap`` write is seen by the ``IN_CLOSE_WRITE`` of the file's last close, which need not come while its
  command runs (its descriptor sent in a unix socket that is then unreachable is closed by the kernel's
  garbage collector, later; red team 3's finding 03): so after a command the sentry is believed only when
  the command's whole trace shows no workspace file opened for writing
  (:attr:`~sandbox.commands.calls.CommandRun.write_opens`; an untraced command, an agent process's turn:
  always a scan). Between commands, an ``mmap`` write needs a process alive, and the jail kills every
  process of a command when it ends (only a human's program could, and inotify-based watchers all share
  that blind spot);
- a full queue (``IN_Q_OVERFLOW``), a watch the kernel refuses (``max_user_watches``) or no inotify at
  all: never quiet, the scan as before.

Every sentry of a process shares one inotify descriptor (:class:`_Inotify`; a user has 128 by default, and
each sandbox's watcher holds one already): an event is handed to the sentries that own its watch.

A whole scan that found a change leaves the sentry dirty too: quiet means the reconciler's cache is the disk,
and a change found but not settled (an error on the way) must still be reported by the next scan.

Events from the engine's own writes (tool writes, rollbacks, the hand-over to the jail's uid) are not
told apart: they make the next check scan, which is what it did before.

:class:`Folders` uses the same descriptor for a finer question, which of many watched folders had an event (the
hand-over to the jail's uid, :class:`~sandbox.jail.jailuser.HandOver`; the shim's wrappers,
:class:`~sandbox.commands.shim.Shim`): there the answer is a set of folders, and None whenever it cannot be
trusted whole (an overflow, a failed read, no inotify, no more watches), when its user looks at everything.
"""

from __future__ import annotations

import array
import ctypes
import errno
import fcntl
import os
import struct
import termios
import threading
import weakref
from collections.abc import Iterable
from typing import Protocol

_IN_MODIFY, _IN_ATTRIB, _IN_CLOSE_WRITE = 0x2, 0x4, 0x8
_IN_MOVED_FROM, _IN_MOVED_TO, _IN_CREATE, _IN_DELETE = 0x40, 0x80, 0x100, 0x200
_IN_DELETE_SELF, _IN_MOVE_SELF = 0x400, 0x800
_IN_ONLYDIR, _IN_DONT_FOLLOW = 0x01000000, 0x02000000
MASK = (
    _IN_MODIFY | _IN_ATTRIB | _IN_CLOSE_WRITE | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CREATE | _IN_DELETE
    | _IN_DELETE_SELF | _IN_MOVE_SELF | _IN_ONLYDIR | _IN_DONT_FOLLOW
)  # fmt: skip
"""Every change of an entry's content, name or attributes; never a read (the engine reads the tree)."""
_BY_DESCRIPTOR = MASK & ~_IN_DONT_FOLLOW
"""The same events, for a watch made through ``/proc/self/fd/N`` (the very folder a descriptor holds: that link is
followed; the events are :data:`MASK`'s, so a :class:`Sentry`'s watch of the same folder keeps its own)."""
_EVENT = struct.Struct("iIII")
"""``struct inotify_event`` before its name: watch, mask, cookie, the name's length."""


class _Inotify:
    """The process's one inotify descriptor and who owns each of its watches."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.libc: ctypes.CDLL | None = None
        self.fd = -1
        try:
            self.libc = ctypes.CDLL(None, use_errno=True)
            self.fd = self.libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, AttributeError):
            self.libc = None
        self.owners: dict[int, weakref.WeakSet[_Owner]] = {}
        self.sentries: weakref.WeakSet[_Owner] = weakref.WeakSet()
        """Every open owner of watches, a :class:`Sentry` or a :class:`Folders` (one dropped unclosed leaves its
        watches to nobody)."""
        self.closing: list[Folders] = []
        """Owners to close at the next pump (:meth:`Folders.close_later`: a finalizer's, which may run while the lock
        is held, by the garbage collector in this very thread)."""

    def pump(self) -> None:
        """Hand every event queued by now to the sentries that own its watch (lock held); an overflow, or a
        read that fails, to every sentry. What comes while it reads is the next pump's, past the first 64 KB: a
        process changing watched files without pause would otherwise keep it reading (red team 7: 10 s once)."""
        while self.closing:
            self.closing.pop()._close()
        left = _queued(self.fd)  # None: not known, read until the queue is empty, as before
        while self.fd >= 0 and (left is None or left > 0):
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                for owner in self.sentries:
                    owner.touched(-1)
                return
            if left is not None:
                left -= len(data)
            at = 0
            while at + _EVENT.size <= len(data):
                wd, _, _, size = _EVENT.unpack_from(data, at)
                at += _EVENT.size + size
                for owner in self.owners.get(wd, ()) if wd >= 0 else self.sentries:
                    owner.touched(wd)

    def watch(self, sentry: _Owner, folder: str, mask: int = MASK) -> int:
        """A watch of ``folder`` owned (also) by ``sentry`` (lock held): its number, or -errno."""
        assert self.libc is not None
        wd: int = self.libc.inotify_add_watch(self.fd, os.fsencode(folder), mask)
        if wd < 0:
            return -ctypes.get_errno()
        self.owners.setdefault(wd, weakref.WeakSet()).add(sentry)
        return wd

    def unwatch(self, sentry: _Owner, wd: int) -> None:
        """``sentry`` no longer owns watch ``wd`` (lock held); the last owner removes it."""
        owners = self.owners.get(wd)
        if owners is not None:
            owners.discard(sentry)
        if not owners:
            self.owners.pop(wd, None)
            if self.libc is not None:
                self.libc.inotify_rm_watch(self.fd, wd)  # gone already (EINVAL) is as good


def _queued(fd: int) -> int | None:
    """The bytes of events queued on inotify descriptor ``fd`` now (None: not known)."""
    if fd < 0:
        return 0
    found = array.array("i", [0])
    try:
        fcntl.ioctl(fd, termios.FIONREAD, found)
    except OSError:
        return None
    return found[0]


_shared: _Inotify | None = None
_shared_lock = threading.Lock()


def _inotify() -> _Inotify:
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = _Inotify()
        return _shared


class Sentry:
    """The watches of one workspace's folders, on the process's inotify descriptor (see the module)."""

    def __init__(self) -> None:
        self._inotify = _inotify()
        self._watched: dict[str, int] = {}
        self._open = self._inotify.fd >= 0
        self.dirty = True
        """Set by anything the sentry cannot vouch for; cleared only by :meth:`drain`."""
        with self._inotify.lock:
            self._inotify.sentries.add(self)

    def touched(self, wd: int) -> None:
        """An event of one of its watches (``wd``; -1: maybe any of them)."""
        self.dirty = True

    def quiet(self) -> bool:
        """True only if nothing in the tree changed since the last :meth:`drain` and :meth:`covered`."""
        if not self._open:
            return False
        with self._inotify.lock:
            self._inotify.pump()
        return not self.dirty

    def drain(self) -> None:
        """A whole scan starts now: forget what was queued before it (the scan sees those changes)."""
        with self._inotify.lock:
            self._inotify.pump()
            self.dirty = not self._open

    def covered(self, folders: Iterable[str], linked: bool) -> None:
        """The scan that followed :meth:`drain` went into ``folders`` (absolute paths) and found a
        hard link (``linked``). Each folder is watched; one whose watch is new (first seen, or made
        again under the same name: another inode), or that the kernel would not watch, leaves the
        sentry dirty until the next scan."""
        self.dirty = self.dirty or linked
        if not self._open:
            return
        watched: dict[str, int] = {}
        with self._inotify.lock:
            for folder in folders:
                # The same inode already watched gives back its watch: the one case that proves nothing
                # of this folder went unseen between the drain and now.
                wd = self._inotify.watch(self, folder)
                if wd == -errno.ENOSPC:  # max_user_watches: no shortcut here
                    self._close()
                    return
                if wd < 0:
                    self.dirty = True
                    continue
                self.dirty = self.dirty or self._watched.get(folder) != wd
                watched[folder] = wd
            for wd in set(self._watched.values()) - set(watched.values()):
                self._inotify.unwatch(self, wd)
        self._watched = watched

    def _close(self) -> None:
        """Give up every watch (lock held): never quiet again."""
        for wd in set(self._watched.values()):
            self._inotify.unwatch(self, wd)
        self._watched.clear()
        self._inotify.sentries.discard(self)
        self._open = False
        self.dirty = True

    def close(self) -> None:
        with self._inotify.lock:
            self._close()


class _Owner(Protocol):
    def touched(self, wd: int) -> None: ...


class Folders:
    """Which of many folders may have changed since the last look (for :class:`~sandbox.jail.jailuser.HandOver`):
    a watch on each folder looked into, made through the descriptor it was looked into by (the very folder, whatever
    its path became). The kernel queues an event on a folder's watch in the same system call that creates,
    removes or renames an entry of it, changes an entry's or the folder's own owner, mode, times or link count,
    or removes or moves the folder itself; so a folder with no event since its watch was made is as it was then.
    A watch names every path its folder was looked into under (a folder moved away and back while it was looked
    into is both: red team 7, 01), until :meth:`keep` drops those no longer known (a path named for nothing only
    costs its folder's user a look it did not need).
    What it cannot say is that a path still names the folder it watched: a folder under a renamed or replaced one
    has a new path, or its path another folder, with no event on its own watch; its user checks each folder's
    identity (:class:`~sandbox.jail.jailuser.HandOver`: red team 7, 02 and 03).
    :meth:`changed` is None (every folder may have changed) after an overflow, a failed read, or where there is
    no inotify or no more watches; a folder whose watch the kernel refused is always changed."""

    def __init__(self) -> None:
        self._inotify = _inotify()
        self._open = self._inotify.fd >= 0
        self._paths: dict[int, set[str]] = {}
        self._touched: set[int] = set()
        self._unwatched: set[str] = set()
        self._all = True
        with self._inotify.lock:
            self._inotify.sentries.add(self)

    def touched(self, wd: int) -> None:
        if wd < 0:
            self._all = True
        else:
            self._touched.add(wd)

    def changed(self) -> set[str] | None:
        """The folders with an event since the last call (None: any of them may have changed); the next call
        reports what comes after this one."""
        with self._inotify.lock:
            if self._open:
                self._inotify.pump()
            found: set[str] | None = None
            if self._open and not self._all:
                found = set(self._unwatched)
                for wd in self._touched:
                    found |= self._paths.get(wd, set())
            self._touched.clear()
            self._all = not self._open
        return found

    def watch(self, path: str, fd: int) -> None:
        """Watch the folder ``fd`` holds, known as ``path`` (before it is looked into: what changes after is seen)."""
        if not self._open:
            return
        with self._inotify.lock:
            wd = self._inotify.watch(self, f"/proc/self/fd/{fd}", _BY_DESCRIPTOR)
            if wd == -errno.ENOSPC:  # max_user_watches: no shortcut
                self._close()
            elif wd < 0:
                self._unwatched.add(path)
            else:
                self._unwatched.discard(path)
                self._paths.setdefault(wd, set()).add(path)

    def __len__(self) -> int:
        """How many paths its watches name."""
        return sum(len(under) for under in self._paths.values())

    def keep(self, paths: set[str]) -> None:
        """Only ``paths`` are known now: a watch is no longer under any other path, and one under none goes."""
        with self._inotify.lock:
            for wd, under in list(self._paths.items()):
                under &= paths
                if not under:
                    del self._paths[wd]
                    self._inotify.unwatch(self, wd)
            self._unwatched &= paths

    def _close(self) -> None:
        for wd in set(self._paths):
            self._inotify.unwatch(self, wd)
        self._paths.clear()
        self._inotify.sentries.discard(self)
        self._open = False
        self._all = True

    def close(self) -> None:
        with self._inotify.lock:
            self._close()

    def close_later(self) -> None:
        """:meth:`close` at the next pump of the process's inotify descriptor: for a finalizer (the lock is not
        reentrant, and the garbage collector may run one while this thread holds it)."""
        self._inotify.closing.append(self)
