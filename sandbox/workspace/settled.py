"""Files the engine reads again and again (before and after every command: git's hooks and configs, the shim's
wrappers) known unchanged without reading them: by their *settled signature*.

Any change of a file sets its change time (``st_ctime_ns``), which no program can set back: a write, a chmod,
a chown, another file renamed over it (another inode too). So a file whose ``lstat`` shows the signature it had
when it was last read holds the same bytes. Except within a clock tick: a change in the same tick as the read
could leave the change time as it was, so a file changed less than :data:`SETTLED_NS` ago has no signature and
is read whole until it has settled.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from sandbox.workspace.entries import read_entry

SETTLED_NS = 100_000_000
"""How old a file's change time must be before its signature is trusted (far more than the kernel's
timestamp granularity, a clock tick)."""

Signature = tuple[int, int, int, int, int, int]


def signature(st: os.stat_result) -> Signature | None:
    """What any change of the file ``st`` describes changes (see the module); None for one changed too recently."""
    if time.time_ns() - st.st_ctime_ns < SETTLED_NS:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mode, st.st_mtime_ns, st.st_ctime_ns)


class EntryCache:
    """:func:`~sandbox.workspace.entries.read_entry` that reads an entry again only when its signature changed (or it
    has none yet). For a few files read at every command, not for a tree: it keeps each one's bytes."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[Signature, bytes | None]] = {}

    def read(self, path: Path) -> bytes | None:
        key = os.fspath(path)
        try:
            seen = signature(os.lstat(key))
        except OSError:
            self._known.pop(key, None)
            return None
        known = self._known.get(key)
        if seen is not None and known is not None and known[0] == seen:
            return known[1]
        data = read_entry(path)
        try:
            after = signature(os.lstat(key))
        except OSError:
            after = None
        if seen is not None and after == seen:  # nothing changed while it was read
            self._known[key] = (seen, data)
        else:
            self._known.pop(key, None)
        return data
