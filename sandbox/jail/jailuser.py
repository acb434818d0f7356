"""The jail's user: agent commands run as an unprivileged host uid of their sandbox's own.

The engine may run as root; a jailed command must not. Where the engine is root, each sandbox picks
a uid (and the gid of the same number) from :data:`FIRST_UID` on, one no account uses, and its
commands run as it (:attr:`~sandbox.jail.isolation.Jail.uid`): everything guarded by "owner is root"
permission bits stays shut (``/proc/sys`` is not writable, ``/etc/shadow`` and other root-only files
are not readable, a key lands in no root keyring), and one sandbox's files are not another's. Where
the engine is not root, commands run as its uid already (no other uid is needed, none is taken).

That uid owns what a command may change: the workspace (its ``.git`` too), HOME and ``/tmp``.
The engine writes there as root (materialising, tool writes, rollbacks); before each command
:func:`hand_over` gives whatever it wrote back to the jail's uid (an iterative walk: any depth), and gives each
folder back the owner's read, write and search bits a command took away, and the workspace, HOME and ``/tmp``
themselves the mode the engine gave them (``chmod 000`` of the workspace, of another team's folder, of HOME: all
agents share the uid, so one agent's ``chmod`` had locked every other agent out of them, for the rest of the
episode).
The sandbox's private folder is ``0711`` (its parts are reached by path, never listed) and the
engine's scratch (``tmp/``: traces, snapshots) ``0700``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import time
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path

from sandbox.workspace import beneath
from sandbox.workspace.files import crowded
from sandbox.workspace.sentry import Folders

FIRST_UID = 1_600_000_000
"""The first uid a sandbox may take; each takes one at random from :data:`UID_SPAN` after it."""
UID_SPAN = 100_000_000


def jail_uid() -> int | None:
    """A fresh uid for one sandbox's commands, or None when the engine is not root (its own uid
    is unprivileged already)."""
    if os.geteuid() != 0:
        return None
    return FIRST_UID + secrets.randbelow(UID_SPAN)


def hand_over(roots: tuple[Path, ...], uid: int) -> int:
    """Make ``uid`` own every entry under ``roots`` (not following symlinks); returns how many
    changed hands. Entries that vanish meanwhile are skipped. One :class:`HandOver` run with nothing known."""
    return HandOver(roots, uid).run()


OWNER_BITS = stat.S_IRWXU
"""What a folder's owner (the jail's uid) keeps: reading, writing and entering it."""
SETTLED_NS = 50_000_000
"""How long ago a folder must have last changed (its ctime) for :class:`HandOver` to trust it unchanged
when its ctime is the same: file times come from a coarse clock, so a change in the same tick as the
last one could leave the same ctime."""


_Ident = tuple[int, int]
"""A folder's device and inode."""
_Step = tuple[str, str, tuple[str, ...], _Ident]
"""A folder as the hand-over's walk takes it: its path, its root, its names beneath the root, and the identity its
parent's listing (or an ``lstat`` of a root) found at that path."""
_Known = tuple[int, tuple[_Step, ...], _Ident]
"""What a folder was when it was last looked into: its ctime, its subfolders as the walk takes them, its identity."""


class HandOver:
    """:func:`hand_over` again and again over the same folders, each time looking only into the folders
    that changed since (a different ctime: an entry created, removed or renamed in it, or the folder's
    own owner, mode or times changed). Where inotify serves (:class:`~sandbox.workspace.sentry.Folders`), a known
    folder with no event since it was looked into is not even ``lstat``-ed, and one with an event is looked into
    again: the kernel queues one for each of those changes, and for an entry's own owner or mode too (which leave
    the folder's ctime as it was). A folder is skipped only as the very folder it was known as: the identity its
    parent's listing finds at its path is the one it had (a folder under a renamed or replaced one has no event of
    its own: red team 7, 02 and 03). A folder whose ctime is the same holds the same entries as when
    it was last looked into, each still the jail's uid's: nothing but root can give an entry to another
    uid, and the engine (root) only creates entries (changing their folder's ctime) or writes into
    existing ones (keeping their owner). Its subfolders are still each looked at."""

    def __init__(self, roots: tuple[Path, ...], uid: int) -> None:
        self.roots = roots
        self.uid = uid
        self._folders: dict[str, _Known] = {}
        """Folder -> what it was when it was looked into and found all the uid's (:data:`_Known`)."""
        self._modes: dict[str, int] = {}
        """Root -> its mode as the engine made it (the command server, root without ``CAP_DAC_OVERRIDE``, enters the
        workspace as another uid than its owner: it needs the others' search bit, not only the owner's bits)."""
        for root in roots:
            with contextlib.suppress(OSError):
                self._modes[str(root)] = stat.S_IMODE(os.lstat(root).st_mode)
        self._own: dict[str, bool] | None = None
        """Root -> whether it is on a filesystem of the sandbox's own (:meth:`crowded`)."""
        self._watch = Folders()
        """A watch on each folder looked into: one with no event since needs no ``lstat`` (issue 29: ~350 a command
        in an aged workspace with its ``origin``)."""
        weakref.finalize(self, self._watch.close_later)  # one dropped (its roots changed): its watches go too

    def close(self) -> None:
        """Its folders' watches given up."""
        self._watch.close()

    def crowded(self) -> bool:
        """Whether the walk may be long (:func:`~sandbox.workspace.files.crowded`): the caller then runs it in a
        thread (red team 5, 07: an agent's 150,000 folders in ``/tmp`` made the first walk after them 9 s long)."""
        if self._own is None:
            self._own = {str(r): os.path.ismount(r) or os.path.ismount(r.parent) for r in self.roots}
        return any(crowded(root, own) for root, own in self._own.items())

    def run(self) -> int:
        """Hand over what changed hands since the last run; returns how many entries changed hands.

        Every folder is reached from its root by descriptor with no symlink followed and every change is made
        on a descriptor or relative to its folder's (:mod:`sandbox.workspace.beneath`): a live agent process that
        swaps a folder for a link to a host folder meanwhile makes that folder skipped, never a host file the
        uid's (red team 5, finding 01c)."""
        uid, changed, opened = self.uid, 0, set[str]()
        events = self._watch.changed()  # before anything is looked at: what changes from now on is the next run's
        trusted = time.time_ns() - SETTLED_NS
        known: dict[str, _Known] = {}
        stack: list[_Step] = [(str(r), str(r), (), _ident_of(r)) for r in self.roots]
        pop, extend = stack.pop, stack.extend
        lstat, is_dir, modes, folders_seen = os.lstat, stat.S_ISDIR, self._modes, self._folders
        while stack:
            path, root, rel, ident = pop()
            seen = folders_seen.get(path)
            if seen is not None and seen[2] != ident:
                seen = None  # another folder at its path now: looked into as a new one
            if seen is not None and events is not None:
                if path not in events:  # the very folder it was known as, with no event on it since
                    known[path] = seen
                    extend(seen[1])
                    continue
                seen = None  # looked into again, whatever its ctime
            # Known and, by its name, unchanged: nothing to do there, nothing opened (a swap for a link reads another
            # folder's metadata at most, which then differs: the walk below).
            if seen is not None:
                try:
                    st = lstat(path)
                except OSError:
                    st = None
                now = stat.S_IMODE(st.st_mode) if st is not None else -1
                if (st is not None and is_dir(st.st_mode) and st.st_ctime_ns == seen[0] and st.st_uid == uid
                        and st.st_gid == uid and now == modes.get(path, now | OWNER_BITS)
                        and (st.st_dev, st.st_ino) == seen[2]):
                    known[path] = seen
                    extend(seen[1])
                    continue
            try:
                fd = beneath.open_folder(root, rel)
            except OSError:
                continue  # gone, or no longer a folder (a link now): nothing of it is touched
            opened.add(path)
            try:
                changed += self._folder(fd, path, root, rel, uid, trusted, known, extend, seen)
            finally:
                os.close(fd)
        self._folders = known
        if len(self._watch) > 2 * len(known) + 64:  # paths of folders gone or moved: dropped now and then, not each run
            self._watch.keep(set(known) | opened)
        return changed

    def _folder(
        self,
        fd: int,
        path: str,
        root: str,
        rel: tuple[str, ...],
        uid: int,
        trusted: int,
        known: dict[str, _Known],
        extend: Callable[[Iterable[_Step]], None],
        seen: _Known | None,
    ) -> int:
        changed = 0
        fstat, is_dir = os.fstat, stat.S_ISDIR
        self_path = f"/proc/self/fd/{fd}"  # the very folder opened (chown and chmod refuse an O_PATH descriptor)
        self._watch.watch(path, fd)  # before it is looked into
        st = fstat(fd)
        if st.st_uid != uid or st.st_gid != uid:
            with contextlib.suppress(OSError):
                os.chown(self_path, uid, uid)
                changed += 1
                st = fstat(fd)
        now = stat.S_IMODE(st.st_mode)
        mode = self._modes.get(path, now | OWNER_BITS)
        if now != mode:
            with contextlib.suppress(OSError):
                os.chmod(self_path, mode)
                changed += 1
                st = fstat(fd)
        ident = (st.st_dev, st.st_ino)
        if seen is not None and seen[0] == st.st_ctime_ns and seen[2] == ident:
            known[path] = seen
            extend(seen[1])
            return changed
        folders: list[tuple[str, _Ident]] = []
        with contextlib.suppress(OSError):
            listed = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=fd)
            try:
                with os.scandir(listed) as entries:
                    for entry in entries:
                        try:
                            est = entry.stat(follow_symlinks=False)
                        except OSError:
                            continue
                        if is_dir(est.st_mode):  # its owner and mode: when it is taken from the stack
                            folders.append((entry.name, (est.st_dev, est.st_ino)))
                        elif est.st_uid != uid or est.st_gid != uid:
                            with contextlib.suppress(OSError):
                                os.chown(entry.name, uid, uid, dir_fd=listed, follow_symlinks=False)
                                changed += 1
            finally:
                os.close(listed)
        steps = tuple((os.path.join(path, name), root, (*rel, name), of) for name, of in folders)
        extend(steps)
        if st.st_ctime_ns < trusted and fstat(fd).st_ctime_ns == st.st_ctime_ns:  # nothing came in meanwhile
            known[path] = (st.st_ctime_ns, steps, ident)
        return changed


def _ident_of(root: Path) -> _Ident:
    """A root's identity now ((0, 0): none, looked into as a new folder, or not at all when it is gone)."""
    try:
        st = os.lstat(root)
    except OSError:
        return (0, 0)
    return (st.st_dev, st.st_ino)


def guard_private(base: Path, scratch: Path) -> None:
    """The sandbox's private folder reachable by path only, the engine's scratch by root only."""
    with contextlib.suppress(OSError):
        os.chmod(base, 0o711)
        os.chmod(scratch, 0o700)
