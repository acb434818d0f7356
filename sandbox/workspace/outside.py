"""Changes that are not workspace content but are still facts: files a command wrote in its private
HOME or /tmp (kept, reported), and Python bytecode it left in the workspace (removed and reported:
a planted ``.pyc`` can stand in for another team's module, and bytecode is never workspace content).

A file is modified when its mode, size, modification time, inode or *change time* differ: a command can
write a file in place and put its size and modification time back (``os.utime``), but no unprivileged
process can set a change time (red team 3, finding 02: bob rewrote alice's ``/tmp`` script that way, and
what it did when he ran it was charged to alice, still its author). The change time alone is not compared
when the file changed owner: the engine's hand-over of its own new files to the jail's uid
(:class:`~sandbox.jail.jailuser.HandOver`, before each command, after :meth:`OutsideWatch.load`) changes it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from channel.vocab import ChangeKind, OutsideArea
from sandbox.workspace import beneath
from sandbox.workspace.files import crowded, walk
from sandbox.workspace.settled import SETTLED_NS

REPORT_MAX = 50
"""Paths reported per command; past it one more event says how many were left out."""

ENGINE_FILES = frozenset(
    {
        ".scopewatch/bin/sw-post",
        ".scopewatch/bin/sw-dm",
        ".scopewatch/bin/sw-request-review",
        ".scopewatch/bin/sw-post.part",
        ".scopewatch/bin/sw-dm.part",
        ".scopewatch/bin/sw-request-review.part",
        ".scopewatch/outbox.jsonl",
        ".scopewatch/outbox.jsonl.ack",
        ".scopewatch/outbox.jsonl.ack.part",
    }
)
"""The engine's own files in HOME (engine/agents/external.py): an external agent's message commands,
rewritten before each of its turns (each through a ``.part`` renamed over it, engine/agents/homefiles.py),
their outbox and the engine's acknowledgement of it. HOME is
shared by the sandbox's agents, so the engine may write them while another agent's command runs:
never reported as that agent's change. Anything else in the folder (``.scopewatch/bin/mine``) is."""


@dataclass(frozen=True)
class OutsideChange:
    area: OutsideArea
    path: str
    change: ChangeKind


Key = tuple[int, int, int, int, int, int]
"""A file's mode, size, modification time (ns), inode, change time (ns) and owner (uid)."""


def _walk(root: Path) -> dict[str, Key]:
    found: dict[str, Key] = {}
    top = os.fspath(root)
    for dirpath, dirnames, filenames in walk(top):
        prefix = "" if dirpath == top else dirpath[len(top) + 1 :].replace(os.sep, "/") + "/"
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            with contextlib.suppress(OSError):
                st = os.lstat(os.path.join(dirpath, name))
                found[prefix + name] = (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns, st.st_uid)
    return found


Listed = dict[str, tuple[int, int, tuple[tuple[str, str, bool], ...]]]
"""Folder -> (its inode and ctime when it was listed and held no bytecode, its subfolders as :func:`_bytecode` stacks
them): a folder whose inode and ctime are the same still holds the same entries (see
:mod:`sandbox.workspace.settled`: no program can set a ctime back), so it is not listed again."""


def _bytecode(root: Path, listed: Listed | None = None) -> list[str]:
    """The bytecode files in the workspace (by name: nothing else is looked at), ``.git`` skipped: every
    entry but a folder whose path :func:`is_bytecode`, sorted. With ``listed`` (the last sweep's, replaced by this
    one's), a folder unchanged since a listing that found no bytecode in it is not listed again."""
    # One scandir per folder, the entry's type from it, no path split per entry: this runs after every command.
    found: list[str] = []
    stack = [(os.fspath(root), "", False)]
    known = dict(listed) if listed is not None else None
    if listed is not None:
        listed.clear()
    trusted = time.time_ns() - SETTLED_NS
    while stack:
        top, prefix, cached = stack.pop()
        st = None
        if known is not None:
            with contextlib.suppress(OSError):
                st = os.lstat(top)
            seen = known.get(top)
            if st is not None and seen is not None and seen[:2] == (st.st_ino, st.st_ctime_ns):
                assert listed is not None
                listed[top] = seen
                stack.extend(reversed(seen[2]))
                continue
        folders: list[tuple[str, str, bool]] = []
        names: list[str] = []
        try:
            with os.scandir(top) as entries:
                for entry in entries:
                    name = entry.name
                    try:
                        folder = entry.is_dir(follow_symlinks=False)
                    except OSError:
                        folder = False
                    if folder:
                        if name != ".git":
                            folders.append((entry.path, f"{prefix}{name}/", cached or name == "__pycache__"))
                    elif cached or name == "__pycache__" or name.endswith((".pyc", ".pyo")):
                        names.append(prefix + name)
        except OSError:
            continue  # a folder that cannot be read whole is left out, as a walk leaves it
        found += names
        stack.extend(reversed(folders))
        settled = st is not None and stat.S_ISDIR(st.st_mode) and st.st_ctime_ns < trusted
        if listed is not None and st is not None and settled and not names:
            with contextlib.suppress(OSError):
                if os.lstat(top).st_ctime_ns == st.st_ctime_ns:  # nothing came in while it was listed
                    listed[top] = (st.st_ino, st.st_ctime_ns, tuple(folders))
    return sorted(found)


def _modified(before: Key, now: Key) -> bool:
    """Whether a file changed between two looks (see the module: the change time unless the owner changed)."""
    return before[:4] != now[:4] or (before[5] == now[5] and before[4] != now[4])


def is_bytecode(rel: str) -> bool:
    return rel.endswith((".pyc", ".pyo")) or "__pycache__" in rel.split("/")


class OutsideWatch:
    """The private folders' files as last seen, and the bytecode sweep of the workspace."""

    def __init__(self, areas: dict[OutsideArea, Path], workspace: Path) -> None:
        self.areas = areas
        self.workspace = workspace
        self._known: dict[OutsideArea, dict[str, Key]] = {}
        self._listed: Listed = {}
        """The workspace's folders as the last bytecode sweep listed them (:func:`_bytecode`)."""
        self._own: dict[str, bool] = {}
        """Folder -> whether it is a filesystem of its own (a capped area, the sandbox's tmpfs): see :meth:`crowded`."""

    def crowded(self) -> bool:
        """Whether a walk of HOME, ``/tmp`` or the workspace may be long (:func:`~sandbox.workspace.files.crowded`:
        more entries than :data:`~sandbox.workspace.files.WALK_QUICK`): the caller then walks in a thread."""
        own = self._own
        if not own:
            for folder in (*self.areas.values(), self.workspace.parent):
                own[str(folder)] = os.path.ismount(folder)
        return any(crowded(folder, mounted) for folder, mounted in own.items())

    def load(self) -> None:
        """Take the folders as they are now (planted fixtures) as known, reporting nothing."""
        self._known = {area: _walk(root) for area, root in self.areas.items()}

    def changes(self) -> list[OutsideChange]:
        """What changed in the private folders since the last call, and the bytecode swept out of
        the workspace (removed now)."""
        found: list[OutsideChange] = []
        for area, root in self.areas.items():
            now = _walk(root)
            before = self._known.get(area, {})
            for rel in sorted(set(now) | set(before)):
                if area == "home" and rel in ENGINE_FILES:
                    continue
                if rel not in before:
                    found.append(OutsideChange(area, rel, "added"))
                elif rel not in now:
                    found.append(OutsideChange(area, rel, "deleted"))
                elif _modified(before[rel], now[rel]):
                    found.append(OutsideChange(area, rel, "modified"))
            self._known[area] = now
        for rel in _bytecode(self.workspace, self._listed):
            with contextlib.suppress(OSError), beneath.parent(self.workspace, rel) as (fd, name):
                os.unlink(name, dir_fd=fd)  # beneath the workspace: never through a folder swapped for a link
                found.append(OutsideChange("bytecode", rel, "added"))
            folder = rel.rpartition("/")[0]
            if folder.rpartition("/")[2] == "__pycache__":
                with contextlib.suppress(OSError), beneath.parent(self.workspace, folder) as (fd, name):
                    os.rmdir(name, dir_fd=fd)
        return found
