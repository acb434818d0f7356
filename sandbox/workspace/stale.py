"""Sandbox folders left behind by engines that died, and their removal.

A sandbox's private folder (:meth:`sandbox.workspace.repo.Workspace.make`) is named after the
process that made it: ``scopewatch-sandbox-<pid>.<start>-<random>``, where ``<start>`` is the
process's start time in clock ticks since boot (field 22 of ``/proc/PID/stat``). An engine killed
with SIGKILL never runs its clean-up, so the folder and the tmpfs mounts on it (the folder itself,
HOME and the agents' ``/tmp``) stay. A folder is *stale* when no process with that pid and that
start time exists: a pid the kernel gave to another process since does not keep a stale folder, and
a live engine's folder is never taken.

:func:`sweep` removes stale folders: first every mount on or under the folder (deepest first, lazily:
``umount2(MNT_DETACH)``), then, only when ``/proc/self/mountinfo`` shows none left under it, the folder
(never following a symlink, see :func:`~sandbox.workspace.files.remove_tree`). Two sweeps at once do
no harm: each step tolerates what the other already did. :func:`sweep_once` runs it at most once per
process, at the first sandbox made (``SCOPEWATCH_SWEEP=0`` turns that off); ``scopewatch sandbox
sweep`` runs it by hand (``--dry-run`` lists).

The engine's helper folders (:data:`HELPERS`: a jail's ``nsswitch.conf`` and locales, the tracer's private name,
a warm test runner's area, a clean git's scratch) are made by :func:`owned_tempdir`, named after their process the
same way; :func:`sweep_once` also removes those of processes that are gone (a worker killed before its ``atexit``
ran: newcomer5 07 found thousands after interrupted runs).

Folders of older versions carry no owner (``scopewatch-sandbox-<random>``): the automatic sweep
leaves them; the command removes them only with ``--unowned HOURS``, when unchanged for that long and
no process has its working folder, its root or an open file in them.
"""

from __future__ import annotations

import ctypes
import os
import re
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from sandbox.workspace.files import remove_tree

PREFIX = "scopewatch-sandbox-"
_OWNED = re.compile(re.escape(PREFIX) + r"(\d+)\.(\d+)-")
HELPERS = ("scopewatch-locale-", "scopewatch-nss-", "scopewatch-tracer-", "scopewatch-warm-", "scopewatch-git-")
"""The prefixes of the engine's helper folders (:func:`owned_tempdir`)."""
_HELPER = re.compile("(?:" + "|".join(re.escape(h) for h in HELPERS) + r")(\d+)\.(\d+)-")
_MNT_DETACH = 2
_swept = False


def process_start(pid: int) -> int | None:
    """The start time of process ``pid`` (clock ticks since boot), or None when there is none."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    try:
        return int(fields[19])  # field 22 of the whole line; fields[0] is field 3 (state)
    except (IndexError, ValueError):
        return None


def owner_prefix() -> str:
    """The folder name's start for a sandbox made by this process."""
    pid = os.getpid()
    return f"{PREFIX}{pid}.{process_start(pid) or 0}-"


@dataclass(frozen=True)
class Stale:
    """A sandbox folder whose owner is gone (or, ``owner`` 0, that has none and is old)."""

    path: Path
    owner: int
    mounts: tuple[str, ...]
    """Mount points on or under it, deepest first."""


def _mount_points() -> list[str]:
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    points = []
    for line in lines:
        fields = line.split(" ")
        if len(fields) > 4:  # the mount point, with space, tab, newline and backslash escaped in octal
            points.append(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4]))
    return points


def _under(point: str, folder: str) -> bool:
    return point == folder or point.startswith(folder + "/")


def _in_use(folder: str) -> bool:
    """Whether a process has its working folder, its root or an open file in ``folder``."""
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        links = [f"/proc/{pid}/cwd", f"/proc/{pid}/root"]
        try:
            links += [f"/proc/{pid}/fd/{fd}" for fd in os.listdir(f"/proc/{pid}/fd")]
        except OSError:
            pass
        for link in links:
            try:
                if _under(os.readlink(link), folder):
                    return True
            except OSError:
                continue
    return False


def find_stale(parent: Path, unowned_hours: float | None = None) -> list[Stale]:
    """The stale sandbox folders directly in ``parent``; with ``unowned_hours``, also folders without
    an owner in their name unchanged for that many hours."""
    try:
        names = [e.name for e in os.scandir(parent) if e.name.startswith(PREFIX)]
    except OSError:
        return []
    found: list[tuple[Path, int]] = []
    for name in names:
        path = parent / name
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode):
            continue
        owned = _OWNED.match(name)
        if owned is not None:
            pid, start = int(owned.group(1)), int(owned.group(2))
            if process_start(pid) != start:
                found.append((path, pid))
        elif unowned_hours is not None and time.time() - st.st_mtime >= unowned_hours * 3600:
            if not _in_use(str(path)):
                found.append((path, 0))
    if not found:
        return []
    points = _mount_points()
    stale = []
    for path, owner in found:
        mine = sorted((p for p in points if _under(p, str(path))), key=lambda p: (-p.count("/"), p))
        stale.append(Stale(path, owner, tuple(dict.fromkeys(mine))))
    return stale


def remove_stale(found: Stale) -> str:
    """Unmount and remove one stale folder; "" when it is gone, else why it was left."""
    libc = ctypes.CDLL(None, use_errno=True)
    for point in found.mounts:
        libc.umount2(os.fsencode(point), _MNT_DETACH)  # EINVAL: already gone (another sweep)
    left = [p for p in _mount_points() if _under(p, str(found.path))]
    if left:
        return f"{found.path}: still mounted at {left[0]} (not removed)"
    remove_tree(found.path)
    return f"{found.path}: could not be removed whole" if os.path.lexists(found.path) else ""


def sweep(parent: Path, unowned_hours: float | None = None) -> tuple[list[Stale], list[str]]:
    """Remove the stale folders in ``parent``: those removed, and a line for each one left."""
    removed, problems = [], []
    for found in find_stale(parent, unowned_hours):
        why = remove_stale(found)
        if why:
            problems.append(why)
        else:
            removed.append(found)
    return removed, problems


def sweep_once(parent: str | None) -> None:
    """:func:`sweep` the sandboxes' parent folder, and :func:`sweep_helpers` the temporary folders, the first time
    this process makes a sandbox."""
    global _swept
    if _swept or os.environ.get("SCOPEWATCH_SWEEP") == "0":
        return
    _swept = True
    sweep(Path(parent or os.environ.get("TMPDIR") or "/tmp"))
    for folder in dict.fromkeys((tempfile.gettempdir(), os.environ.get("SCOPEWATCH_TMPDIR") or "/dev/shm")):
        sweep_helpers(Path(folder))


def owned_tempdir(prefix: str, folder: str | os.PathLike[str] | None = None) -> str:
    """``tempfile.mkdtemp`` for one of :data:`HELPERS`, named after this process (``<prefix><pid>.<start>-``):
    :func:`sweep_helpers` removes it once the process is gone, whether or not its clean-up ran."""
    pid = os.getpid()
    return tempfile.mkdtemp(prefix=f"{prefix}{pid}.{process_start(pid) or 0}-", dir=folder)


def sweep_helpers(parent: Path) -> list[Path]:
    """Remove the helper folders (:func:`owned_tempdir`) in ``parent`` whose process is gone; those removed."""
    try:
        names = [e.name for e in os.scandir(parent) if e.name.startswith(HELPERS) and e.is_dir(follow_symlinks=False)]
    except OSError:
        return []
    removed = []
    for name in names:
        owned = _HELPER.match(name)
        if owned is not None and process_start(int(owned.group(1))) != int(owned.group(2)):
            remove_tree(parent / name)
            if not os.path.lexists(parent / name):
                removed.append(parent / name)
    return removed
