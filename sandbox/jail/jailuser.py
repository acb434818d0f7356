"""The jail's user: agent commands run as an unprivileged host uid of their sandbox's own.

The engine may run as root; a jailed command must not. Where the engine is root, each sandbox picks
a uid (and the gid of the same number) from :data:`FIRST_UID` on, one no account uses, and its
commands run as it (:attr:`~sandbox.jail.isolation.Jail.uid`): everything guarded by "owner is root"
permission bits stays shut (``/proc/sys`` is not writable, ``/etc/shadow`` and other root-only files
are not readable, a key lands in no root keyring), and one sandbox's files are not another's. Where
the engine is not root, commands run as its uid already (no other uid is needed, none is taken).

That uid owns what a command may change: the workspace (its ``.git`` too), HOME and ``/tmp``.
The engine writes there as root (materialising, tool writes, rollbacks); before each command
:func:`hand_over` gives whatever it wrote back to the jail's uid (an iterative walk: any depth).
The sandbox's private folder is ``0711`` (its parts are reached by path, never listed) and the
engine's scratch (``tmp/``: traces, snapshots) ``0700``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

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
    changed hands. Entries that vanish meanwhile are skipped."""
    changed = 0
    stack = [str(r) for r in roots]
    while stack:
        path = stack.pop()
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if st.st_uid != uid or st.st_gid != uid:
            with contextlib.suppress(OSError):
                os.lchown(path, uid, uid)
                changed += 1
        if stat.S_ISDIR(st.st_mode):
            with contextlib.suppress(OSError), os.scandir(path) as entries:
                stack.extend(e.path for e in entries)
    return changed


def guard_private(base: Path, scratch: Path) -> None:
    """The sandbox's private folder reachable by path only, the engine's scratch by root only."""
    with contextlib.suppress(OSError):
        os.chmod(base, 0o711)
        os.chmod(scratch, 0o700)
