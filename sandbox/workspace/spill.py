"""Big contents the reconciler knows, kept on disk in the sandbox's private folder instead of the engine's memory.

The reconciler's cache held every workspace file up to 16 MB in the engine's memory: one command writing 300 MB in
the agent's own folder grew the engine by 293 MB (red team round 4, 09; the jail's memory limit does not cover the
engine). A content of :data:`SPILL_MIN` bytes or more, and any past :data:`RESIDENT_MAX` bytes held in all, is
written once to a private folder under its SHA-256 and known by a short entry (:func:`is_spilled`: its size and that
file's path); :func:`load` reads it back where the bytes are needed (a diff, a rollback, a test run's copy), so the
events are the same. Files no entry of the cache (nor a running test) names any more are removed
(:meth:`Spill.collect`). The folder is in the engine's own folder (``tmp/``), a tmpfs of its own apart from the
agents' space where the engine runs as root (:data:`~sandbox.jail.limits.ENGINE_MAX`): a command that fills its space
fills no share of the engine's (red team 5, 06: the copies shared the agents' 2 GB and a full tmpfs left no room for
the exec trace). The copies leave :data:`~sandbox.jail.limits.ENGINE_RESERVE` bytes of it free for the trace; past
that the content is held in memory as before (a rollback must still have it).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from sandbox.jail.limits import ENGINE_RESERVE
from sandbox.workspace.files import read_regular

SPILL_MARK = b"\0scopewatch-spilled\0"
"""Prefix of an entry whose content is on disk (the rest: its size, a space, the file's path)."""
SPILL_MIN = 256 * 1024
"""A content this big or bigger is always kept on disk."""
RESIDENT_MAX = 64 * 1024 * 1024
"""Bytes of content one cache holds in memory at most; past it, smaller contents go to disk too."""


def is_spilled(entry: bytes | None) -> bool:
    return entry is not None and entry.startswith(SPILL_MARK)


def size_of(entry: bytes | None) -> int:
    """The content's size in bytes (0 for None)."""
    if entry is None:
        return 0
    if is_spilled(entry):
        return int(entry[len(SPILL_MARK) :].split(b" ", 1)[0])
    return len(entry)


def _path(entry: bytes) -> str:
    return entry[len(SPILL_MARK) :].split(b" ", 1)[1].decode("utf-8", "surrogateescape")


def load(entry: bytes) -> bytes:
    """The content an entry stands for (itself unless spilled); raises OSError when its file is gone."""
    if not is_spilled(entry):
        return entry
    data = read_regular(_path(entry))
    if data is None or len(data) != size_of(entry):
        raise OSError(f"{_path(entry)}: the content kept for the workspace is gone")
    return data


def digest_of(entry: bytes) -> str:
    """The content's SHA-256 (hex), without reading a spilled one."""
    if is_spilled(entry):
        return os.path.basename(_path(entry))
    return hashlib.sha256(entry).hexdigest()


def same(one: bytes | None, other: bytes | None) -> bool:
    """Whether two entries stand for the same content (either may be spilled)."""
    if one is None or other is None or is_spilled(one) == is_spilled(other):
        return one == other
    return size_of(one) == size_of(other) and digest_of(one) == digest_of(other)


class Spill:
    """One cache's folder of spilled contents, and how many of its entries name each (see the module)."""

    def __init__(self, folder: Path, reserve: int = ENGINE_RESERVE) -> None:
        self.folder = folder
        self.reserve = reserve
        """Bytes of the folder's filesystem a spilled content must leave free (the trace's room)."""
        self.resident = 0
        """Bytes of content held in memory by the entries held (:meth:`hold`)."""
        self._held: Counter[str] = Counter()
        self._pinned: Counter[str] = Counter()
        self._loose: set[str] = set()
        """Files written or let go since the last :meth:`collect`."""

    def keep(self, data: bytes | None) -> bytes | None:
        """``data`` as the cache should hold it: itself, or spilled (written once, under its SHA-256)."""
        if data is None or data.startswith(b"\0scopewatch-"):
            return data
        if len(data) < SPILL_MIN and self.resident + len(data) <= RESIDENT_MAX:
            return data
        digest = hashlib.sha256(data).hexdigest()
        path = self.folder / digest
        if digest not in self._held and not path.exists():
            try:
                self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
                room = os.statvfs(self.folder)
                if room.f_bavail * room.f_frsize < len(data) + self.reserve:
                    return data  # the engine's own space: what is left of it is the trace's
                fd, name = tempfile.mkstemp(dir=self.folder)
                try:
                    with os.fdopen(fd, "wb") as f:
                        f.write(data)
                    os.replace(name, path)
                finally:
                    with contextlib.suppress(OSError):
                        os.unlink(name)
            except OSError:  # the private folder is full (its tmpfs's cap): held in memory, as before
                return data
            self._loose.add(digest)
        return SPILL_MARK + f"{len(data)} {path}".encode("utf-8", "surrogateescape")

    def hold(self, entry: bytes | None) -> None:
        """The cache took ``entry``."""
        if is_spilled(entry):
            assert entry is not None
            self._held[digest_of(entry)] += 1
        elif entry is not None:
            self.resident += len(entry)

    def release(self, entry: bytes | None) -> None:
        """The cache let ``entry`` go (its file is removed at the next :meth:`collect` if nothing holds it)."""
        if is_spilled(entry):
            assert entry is not None
            digest = digest_of(entry)
            self._held[digest] -= 1
            if self._held[digest] <= 0:
                del self._held[digest]
                self._loose.add(digest)
        elif entry is not None:
            self.resident -= len(entry)

    def pin(self, entries: Iterable[bytes]) -> list[str]:
        """Keep the files of ``entries`` until :meth:`unpin` (a test run copies them after the lock is let go)."""
        digests = [digest_of(e) for e in entries if is_spilled(e)]
        self._pinned.update(digests)
        return digests

    def unpin(self, digests: list[str]) -> None:
        self._pinned.subtract(digests)
        self._pinned += Counter()  # drops the counts at zero
        self._loose.update(digests)

    def collect(self) -> None:
        """Remove the files nothing holds or pins any more."""
        for digest in list(self._loose):
            if digest not in self._held and digest not in self._pinned:
                with contextlib.suppress(OSError):
                    os.unlink(self.folder / digest)
        self._loose.clear()
