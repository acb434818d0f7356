"""Reconciliation: what changed on disk since the sandbox last looked, and whose change it was.

The reconciler keeps a content cache (every workspace entry as the event stream knows it, plus a
stat key per path so unchanged files are not read again). Every workspace-changing operation runs
under its :attr:`~Reconciler.lock` and ends by *settling*: the differences between the disk and the
cache are reported as ``FileChanged`` for the operation's actor and taken into the cache. Whatever
is found with no operation running was made by ``external``.

A settled shell command's change to a path its actor's team may not write is *rolled back* instead:
put back to its cached content and reported as ``WriteRefused`` with ``rolled_back=True``. A mode
change (``chmod``) is a change like any other (its diff is git's ``old mode`` / ``new mode``), a folder's too (red team
6, 04: ``chmod 000`` of another team's folder went unseen; a folder is a team's when every file below it is), and a
new hard link is refused unless every other name of its inode is in the workspace and owned by the
actor's team (else a later write through the link would change a file the team does not own); so is a
workspace file's new name outside the workspace (in ``.git``, HOME, ``/tmp``: a write through it opens no
workspace path and queues no event the sentry hears; red team 4, finding 02), undone by giving the workspace
name a copy of the file (the outside name keeps the old inode). A file
whose modification time alone changed (``touch -d``, a rewrite with the same bytes) is refused and put
back to its time the same way when its team is not the actor's (a build tool trusts times: an older
time can hide another team's file from it); anyone else's is taken in silently, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from channel.vocab import Via
from sandbox.commands.observe import Observer
from sandbox.commands.offload import Offload
from sandbox.workspace import beneath
from sandbox.workspace.diffs import DiffBudget, diff_off_loop, unified_diff
from sandbox.workspace.files import crowded
from sandbox.workspace.guard import OwnershipGuard
from sandbox.workspace.repo import Scanned, StatKey, Workspace, stat_key
from sandbox.workspace.sentry import Sentry
from sandbox.workspace.spill import Spill, same, size_of

_OWNER_BITS = stat.S_IRWXU


@dataclass(frozen=True)
class Change:
    """A path's entry in the cache (``old``) and on disk (``new``); None is absent."""

    path: str
    old: bytes | None
    new: bytes | None
    old_mode: int | None = None
    """Set (with ``new_mode``) for a mode change of a file whose content did not change."""
    new_mode: int | None = None
    old_mtime: int | None = None
    """Set (with ``new_mtime``, in ns) for a change of a file's modification time alone."""
    new_mtime: int | None = None
    links_out: int | None = None
    """Set for a file given a name outside the workspace (a hard link in ``.git``, HOME, ``/tmp``), nothing else of
    it changed: how many names it has there now."""
    ctime: int | None = None
    """The entry's change time (ns) when it is still the inode the cache knows (changed in place), else None."""
    folder: bool = False
    """A folder's mode change (``old_mode`` / ``new_mode``; ``old`` and ``new`` are None): red team 6, 04."""

    @property
    def diff(self) -> str:
        if self.folder:
            return f"old mode 040{self.old_mode or 0:03o}\nnew mode 040{self.new_mode or 0:03o}\n"
        if self.links_out is not None:
            return f"new hard link outside the workspace ({self.links_out} name{'s' * (self.links_out > 1)} there)\n"
        if self.old_mode is not None and self.new_mode is not None:
            return f"old mode 100{self.old_mode:o}\nnew mode 100{self.new_mode:o}\n"
        if self.old_mtime is not None and self.new_mtime is not None:
            return f"old mtime {_when(self.old_mtime)}\nnew mtime {_when(self.new_mtime)}\n"
        return unified_diff(self.path, self.old, self.new)


def _when(ns: int) -> str:
    return datetime.fromtimestamp(ns / 1e9, UTC).isoformat(timespec="microseconds")


def _mode(key: StatKey) -> int | None:
    return stat.S_IMODE(key[0]) if stat.S_ISREG(key[0]) else None


class Reconciler:
    """The content cache of one workspace, and the one way changes get into it."""

    def __init__(self, workspace: Workspace, guard: OwnershipGuard, observer: Observer) -> None:
        self.workspace = workspace
        self.guard = guard
        self.observer = observer
        self.lock = asyncio.Lock()
        """Held by every operation that changes the workspace or reads the cache, one at a time."""
        self._known: dict[str, bytes] = {}
        self._stats: dict[str, StatKey] = {}
        self._modes: dict[str, int] = {}
        self._mtimes: dict[str, int] = {}
        """A regular file's modification time (ns) as the cache knows it."""
        self._links: dict[str, int] = {}
        """The files with another name the last whole scan met, and how many names each has."""
        self._outside: dict[str, int] = {}
        """A file's names outside the workspace as the cache knows them (taken in from an unguarded actor)."""
        self._dirs: dict[str, int] = {}
        """Each folder's mode as the cache knows it (:meth:`_folder_changes`)."""
        self._scanned: dict[str, int] = {}
        """Each folder's mode as the last whole scan found it."""
        self._sentry = Sentry()
        self._unsettled = False
        """A whole scan found changes that are not all settled yet (:meth:`settled`)."""
        self.gits: tuple[str, ...] = ()
        """The nested ``.git`` entries the last whole scan met (:attr:`~sandbox.workspace.repo.Scanned.gits`)."""
        self.spill = Spill(workspace.tmp / "known")
        """Where big contents of the cache are kept instead of memory (:mod:`sandbox.workspace.spill`)."""
        self._depth = 0
        self.offload = Offload()
        """Whole scans off the loop when they may be long (:meth:`look`)."""

    def _scan(self) -> dict[str, StatKey]:
        """The whole tree, the sentry drained before it is read (see :mod:`~sandbox.workspace.sentry`)."""
        self._sentry.drain()
        tree = Scanned()
        found = self.workspace.scan(tree)
        self._sentry.covered(tree.folders, tree.linked)
        self._scanned = tree.modes
        self.gits = tuple(tree.gits)
        self._links = tree.links
        return found

    def fence(self) -> int | None:
        """A change time (ns) no later than any change made from now on: a command starts. A change found after
        it on an entry that is still the inode the cache knows and whose change time (which no process can set)
        is earlier was made before the command (:attr:`Change.ctime`). None when the mark cannot be written."""
        mark = self.workspace.tmp / "fence"
        try:
            mark.touch()
            return os.stat(mark).st_ctime_ns
        except OSError:
            return None

    def close(self) -> None:
        self._sentry.close()

    def load(self) -> None:
        """Take the workspace as it is now (the materialised baseline) as known, reporting nothing."""
        self._stats = self._scan()
        self._dirs = dict(self._scanned)
        entries = {rel: self.spill.keep(self.workspace.entry(rel)) for rel in self._stats}
        self._known = {rel: entry for rel, entry in entries.items() if entry is not None}
        for entry in self._known.values():
            self.spill.hold(entry)
        self._modes = {rel: m for rel, key in self._stats.items() if (m := _mode(key)) is not None}
        self._mtimes = {rel: key[2] for rel, key in self._stats.items() if rel in self._modes}
        self._outside = {c.path: c.links_out or 0 for c in self._linked_out(self._stats)} if self._links else {}

    def snapshot(self) -> dict[str, bytes]:
        """A copy of the cache: the workspace as the event stream knows it (big contents spilled:
        :func:`~sandbox.workspace.spill.load` reads them, as :func:`~sandbox.workspace.entries.put_entry` does)."""
        return dict(self._known)

    def changes(self, paths: Iterable[str] | None = None, *, scan: bool = False) -> list[Change]:
        """Differences between the disk and the cache: for ``paths``, or the whole tree (None: no scan when
        the sentry proves nothing changed since the last whole scan, unless ``scan``: after a command that
        opened a workspace file for writing, whose last close may not have been queued yet)."""
        root = self.workspace.root
        if paths is None and not scan and self.quiet():
            return []
        if paths is None:
            current = self._scan()
            candidates = sorted(set(current) | set(self._known))
        else:
            candidates = sorted(set(paths))
            current = {}
            for p in candidates:
                with contextlib.suppress(OSError):
                    current[p] = stat_key(os.lstat(root / p))
        # A path's new name outside the workspace comes first: refused, it is undone before its other changes.
        changes: list[Change] = self._linked_out(current) if paths is None and self._links else []
        if paths is None:
            changes += self._folder_changes()
        for p in candidates:
            key, cached = current.get(p), self._stats.get(p)
            if key is not None and key == cached and p in self._known:
                continue
            new = self.spill.keep(self.workspace.entry(p)) if key is not None else None
            old = self._known.get(p)
            ctime = key[3] if key is not None and cached is not None and cached[4] == key[4] else None
            if same(new, old):
                if key is not None:
                    mode, before = _mode(key), self._modes.get(p)
                    if mode is not None and before is not None and mode != before:
                        changes.append(Change(p, old, new, before, mode, ctime=ctime))
                        continue
                    was = self._mtimes.get(p)
                    if mode is not None and was is not None and key[2] != was:
                        changes.append(Change(p, old, new, old_mtime=was, new_mtime=key[2], ctime=ctime))
                        continue
                    self._stats[p] = key
                continue
            changes.append(Change(p, old, new, ctime=ctime))
        if paths is None and changes:
            # Quiet means the cache is the disk: these may not all be settled (an error on the way).
            self._unsettled = True
        return changes

    async def look(self, *, scan: bool = False) -> list[Change]:
        """:meth:`changes` of the whole tree, in a thread when its walk may be long: a crowded sandbox
        (:func:`~sandbox.workspace.files.crowded`: an agent's 100,000 empty folders made the scan and the sentry's
        watches take 5-13 s on the event loop, red team 5, 07), or when the last one was slow."""
        if not scan and self.quiet():
            return []
        ws = self.workspace
        big = crowded(ws.base, ws.in_ram and ws.root.parent == ws.base)
        return await self.offload.run("scan", lambda: self.changes(scan=True), big=big)  # not quiet: a whole scan

    def _folder_changes(self) -> list[Change]:
        """The folders whose mode the last whole scan found other than the cache knows it (a folder met for the first
        time, or gone, is no mode change: its files are). The owner's bits do not count: the hand-over before each
        command gives every folder of the workspace to the jail's uid with them
        (:class:`~sandbox.jail.jailuser.HandOver`)."""
        found = []
        for rel, mode in self._scanned.items():
            before = self._dirs.get(rel)
            if before is not None and before | _OWNER_BITS != mode | _OWNER_BITS:
                found.append(Change(rel, None, None, before, mode, folder=True))
        self._dirs = {**self._scanned, **{c.path: c.old_mode or 0 for c in found}}  # as known until settled
        return found

    def _folder_owners(self, folders: Iterable[str]) -> dict[str, str]:
        """Each folder's team: the one owning every file the cache knows below it (and a name in it: an empty
        folder), else "" (no team, or several: a folder's mode is every entry's below it). One pass over the cache."""
        owner = self.guard.ownership.owner_of
        found = {folder: {owner(f"{folder}/_")} for folder in folders}
        for path in self._known:
            parts = path.split("/")
            for n in range(1, len(parts)):
                owners = found.get("/".join(parts[:n]))
                if owners is not None:
                    owners.add(owner(path))
        return {folder: owners.pop() if len(owners) == 1 else "" for folder, owners in found.items()}

    async def _settle_folder(
        self, actor: str, via: Via, change: Change, owner: str, team: str | None, refuse: str
    ) -> str | None:
        """Report or roll back a folder's mode change (``owner``: its team; see :meth:`_settle`); why, when rolled
        back."""
        reason = refuse or None
        if reason is None and team is not None and owner != team:
            whose = f"owned by team {owner}" if owner else "not one team's"
            reason = (f"write refused: folder {change.path} ({whose}) holds files your team {team} does not own; "
                      "request a review instead")  # fmt: skip
        if reason is not None:
            try:
                await self.roll_back(actor, change.path, change.path, None, reason, diff=change.diff,
                                     mode=change.old_mode, folder=True)  # fmt: skip
                return reason
            except OSError as exc:
                reason = f"{reason}; rollback failed ({exc.strerror})"
                await self.observer.write_refused(actor, change.path, reason, via="shell", diff=change.diff)
        self._dirs[change.path] = change.new_mode or 0
        await self.observer.file_changed(actor, change.path, b"", b"", via=via, diff=change.diff)
        return None

    def _linked_out(self, current: dict[str, StatKey]) -> list[Change]:
        """The known files with more names outside the workspace than the cache knows (the whole scan ``current``
        met them with more names than it holds): each a change of its own."""
        names: dict[int, int] = {}
        for seen in current.values():
            names[seen[4]] = names.get(seen[4], 0) + 1
        found, kept = [], {}
        for p, links in self._links.items():
            key = current.get(p)
            out = links - names.get(key[4], 0) if key is not None else 0
            if key is None or out <= 0:
                continue
            before = self._outside.get(p, 0)
            if before:
                kept[p] = min(out, before)
            if out > before and p in self._known:
                found.append(Change(p, self._known[p], self._known[p], links_out=out, ctime=key[3]))
        self._outside = kept
        return found

    def quiet(self) -> bool:
        """True only if the cache is the disk: nothing changed since the last whole scan (the sentry proves
        it) and what that scan found was all settled."""
        return not self._unsettled and self._sentry.quiet()

    def settled(self) -> None:
        """Every change the last whole scan found has been settled (reported, taken in or rolled back): the
        cache is the disk as that scan saw it. What the settling itself wrote (a rollback) the sentry has
        queued since, so the next check still scans after one."""
        self._unsettled = False

    def _remember(self, path: str, data: bytes | None) -> None:
        self.spill.release(self._known.get(path))
        self.spill.hold(data)
        if data is None:
            self._known.pop(path, None)
            self._stats.pop(path, None)
            self._modes.pop(path, None)
            self._mtimes.pop(path, None)
            self._outside.pop(path, None)
            return
        self._known[path] = data
        self._outside.pop(path, None)
        with contextlib.suppress(OSError):
            st = os.lstat(self.workspace.root / path)
            key = stat_key(st)
            self._stats[path] = key
            mode = _mode(key)
            if mode is not None:
                self._modes[path] = mode
                self._mtimes[path] = key[2]
            if st.st_nlink > 1:  # taken in with names outside the workspace: those are known now
                out = st.st_nlink - sum(1 for k in self._stats.values() if k[4] == st.st_ino)
                if out > 0:
                    self._outside[path] = out

    def _link_refusal(self, team: str, path: str) -> str | None:
        """Why ``path`` may not be a hard link (shared inode) for ``team``, if it is one."""
        try:
            st = os.lstat(self.workspace.root / path)
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode) or st.st_nlink < 2:
            return None
        others = [p for p, key in self._stats.items() if key[4] == st.st_ino and p != path]
        return self.guard.hard_link(team, path, others, st.st_nlink)

    async def settle_external(self) -> None:
        """Report whatever changed while no operation ran as ``external``'s (lock held). No scan when
        the sentry proves nothing changed since the last whole scan (the cache is then the disk)."""
        if self.quiet():
            return
        await self.settle("external", "external", await self.look())
        self.settled()

    async def settle(
        self, actor: str, via: Via, changes: Sequence[Change], *, team: str | None = None, refuse: str = ""
    ) -> list[tuple[str, str]]:
        """Report ``changes`` as ``actor``'s (lock held); with a ``team`` (a guarded shell command),
        roll back the ones the guard refuses; with ``refuse`` (why a command's audit failed), every one, those that
        free room first (the agents' space may be full). Returns (path, reason) of what was rolled back."""
        self._depth += 1
        if refuse:
            changes = sorted(changes, key=lambda c: size_of(c.old) - size_of(c.new))
        try:
            return await self._settle(actor, via, changes, team, refuse)
        finally:
            self._depth -= 1
            if not self._depth:
                self.spill.collect()  # contents no entry names any more (a rollback's nested settling is inside)

    async def _settle(
        self, actor: str, via: Via, changes: Sequence[Change], team: str | None, refuse: str
    ) -> list[tuple[str, str]]:
        rolled: list[tuple[str, str]] = []
        budget = DiffBudget()  # the diffs' share of the event loop (sandbox.workspace.diffs)
        owners = self._folder_owners([c.path for c in changes if c.folder]) if any(c.folder for c in changes) else {}
        for change in changes:
            if change.folder:
                why = await self._settle_folder(actor, via, change, owners.get(change.path, ""), team, refuse)
                if why is not None:
                    rolled.append((change.path, why))
                continue
            reason = refuse or None
            if reason is None and team is not None and change.links_out is not None:
                reason = self._link_refusal(team, change.path)
            elif reason is None and team is not None:
                reason = self.guard.shell_change(self.workspace.root, team, change.path, change.new)
                if reason is None and change.new is not None:
                    reason = self._link_refusal(team, change.path)
            if reason is not None:
                content = change.old_mode is None and change.old_mtime is None and change.links_out is None
                diff = await diff_off_loop(change.path, change.old, change.new, budget) if content else change.diff
                try:
                    await self.roll_back(
                        actor, change.path, change.path, change.old, reason, diff=diff, mode=change.old_mode,
                        mtime=change.old_mtime, unlink=change.links_out is not None,
                    )  # fmt: skip
                except OSError as exc:
                    # The change stays: it is refused, and then reported like any other.
                    reason = f"{reason}; rollback failed ({exc.strerror})"
                    await self.observer.write_refused(actor, change.path, reason, via="shell", diff=diff)
                else:
                    rolled.append((change.path, reason))
                    continue
            self._remember(change.path, change.new)
            if change.old_mtime is not None or change.links_out is not None:
                continue  # a time or a name alone is no content change: nothing to report
            mode_diff = change.diff if change.old_mode is not None else None
            await self.observer.file_changed(
                actor, change.path, change.old, change.new, via=via, diff=mode_diff, budget=budget
            )
        return rolled

    async def roll_back(
        self,
        actor: str,
        path: str,
        target: str,
        data: bytes | None,
        reason: str,
        *,
        diff: str,
        mode: int | None = None,
        mtime: int | None = None,
        unlink: bool = False,
        folder: bool = False,
    ) -> None:
        """Put ``target`` (``path`` resolved) back to ``data`` and report ``actor``'s change to ``path``
        as refused and rolled back (lock held; raises OSError when the entry cannot be put back). ``unlink``:
        the change was a name outside the workspace: the file is made again as it is (a copy, its time kept:
        :func:`~sandbox.workspace.entries.put_entry` replaces a linked file), its other changes judged on their own.

        The put-back is settled as an engine restore: a change the stream already saw (the engine's
        guarded assistance undoes a reported shell change) gets its ``FileChanged`` by ``engine``;
        one it never saw (the ownership guard, while settling) leaves nothing to report."""
        root = self.workspace.root  # beneath it, no symlink is followed (a live agent process may plant one)
        if unlink:
            st = beneath.lstat(root, target)
            self.workspace.put(target, self.workspace.entry(target))
            beneath.utime(root, target, (st.st_atime_ns, st.st_mtime_ns))
            self._stats.pop(target, None)  # another inode, the same entry: the next look reads it again
        elif mode is not None:
            beneath.chmod(root, target, mode)
            if folder:
                self._dirs[target] = mode
        elif mtime is not None:
            beneath.utime(root, target, (beneath.lstat(root, target).st_atime_ns, mtime))
        else:
            self.workspace.put(target, data)
        if not unlink and not folder:
            await self.settle("engine", "restore", self.changes([target]))
        await self.observer.write_refused(actor, path, reason, via="shell", rolled_back=True, diff=diff)
