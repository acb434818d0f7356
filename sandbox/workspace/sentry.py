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
  write through a shared ``mmap`` queues no event: a tree holding a hard link is never quiet; the
  ``mmap`` case needs a process writing while no operation runs, and the jail kills every process of a
  command when it ends (only a human's program could, and inotify-based watchers all share that blind
  spot);
- a full queue (``IN_Q_OVERFLOW``), a watch the kernel refuses (``max_user_watches``) or no inotify at
  all: never quiet, the scan as before.

Events from the engine's own writes (tool writes, rollbacks, the hand-over to the jail's uid) are not
told apart: they make the next check scan, which is what it did before.
"""

from __future__ import annotations

import ctypes
import errno
import os
from collections.abc import Iterable

_IN_MODIFY, _IN_ATTRIB, _IN_CLOSE_WRITE = 0x2, 0x4, 0x8
_IN_MOVED_FROM, _IN_MOVED_TO, _IN_CREATE, _IN_DELETE = 0x40, 0x80, 0x100, 0x200
_IN_DELETE_SELF, _IN_MOVE_SELF = 0x400, 0x800
_IN_ONLYDIR, _IN_DONT_FOLLOW = 0x01000000, 0x02000000
MASK = (
    _IN_MODIFY | _IN_ATTRIB | _IN_CLOSE_WRITE | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CREATE | _IN_DELETE
    | _IN_DELETE_SELF | _IN_MOVE_SELF | _IN_ONLYDIR | _IN_DONT_FOLLOW
)  # fmt: skip
"""Every change of an entry's content, name or attributes; never a read (the engine reads the tree)."""


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


class Sentry:
    """An inotify descriptor with a watch per folder of the workspace (see the module)."""

    def __init__(self) -> None:
        self._libc = _libc()
        self._fd = -1
        if self._libc is not None and hasattr(self._libc, "inotify_init1"):
            self._fd = self._libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        self._watched: dict[str, int] = {}
        self._dirty = True
        """Set by anything the sentry cannot vouch for; cleared only by :meth:`drain`."""

    def quiet(self) -> bool:
        """True only if nothing in the tree changed since the last :meth:`drain` and :meth:`covered`."""
        if self._dirty or self._fd < 0:
            return False
        try:
            pending = os.read(self._fd, 1 << 16)
        except BlockingIOError:
            return True
        except OSError:
            pending = b"?"
        # Read is not drained: the events stay meaningful until a whole scan starts.
        self._dirty = bool(pending) or self._dirty
        return not self._dirty

    def drain(self) -> None:
        """A whole scan starts now: forget what was queued before it (the scan sees those changes)."""
        self._dirty = self._fd < 0
        while self._fd >= 0:
            try:
                if not os.read(self._fd, 1 << 16):
                    return
            except BlockingIOError:
                return
            except OSError:
                self._dirty = True
                return

    def covered(self, folders: Iterable[str], linked: bool) -> None:
        """The scan that followed :meth:`drain` went into ``folders`` (absolute paths) and found a
        hard link (``linked``). Each folder is watched; one whose watch is new (first seen, or made
        again under the same name: another inode), or that the kernel would not watch, leaves the
        sentry dirty until the next scan."""
        self._dirty = self._dirty or linked
        if self._fd < 0 or self._libc is None:
            return
        watched: dict[str, int] = {}
        for folder in folders:
            # The same inode already watched gives back its watch: the one case that proves nothing
            # of this folder went unseen between the drain and now.
            wd = self._libc.inotify_add_watch(self._fd, os.fsencode(folder), MASK)
            if wd < 0:
                if ctypes.get_errno() == errno.ENOSPC:  # max_user_watches: no shortcut here
                    self.close()
                    return
                self._dirty = True
                continue
            self._dirty = self._dirty or self._watched.get(folder) != wd
            watched[folder] = wd
        for wd in set(self._watched.values()) - set(watched.values()):
            self._libc.inotify_rm_watch(self._fd, wd)  # gone already (EINVAL) is as good
        self._watched = watched

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        self._watched.clear()
        self._dirty = True
