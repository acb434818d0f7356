"""What the kernel ran for each exec, read while it runs.

``execveat(fd, "", ..., AT_EMPTY_PATH)`` (``fexecve``: a memfd, a deleted file) and
``execve("/proc/self/fd/N")`` / ``/dev/fd/N`` name only a descriptor, and it is gone once the
command ended; the file's name (``memfd:innocent``) is the caller's choice. And a file run by its
path can be renamed over or rewritten once its program ended, before the engine looks at it (a copy
of bash runs ``git reset --hard``, then a copy of git takes its place: read afterwards, the
``reset`` looks like git's own work). So while the command runs, as each exec's line arrives from
strace, the engine reads ``/proc/PID/exe``: the file the kernel mapped, by its inode and, for a file
the size of a registry program, its bytes (:meth:`~sandbox.commands.identity.ProgramIndex.of_process`),
and when it read it.

A reading is the exec's only when it is sure to be (:func:`image_at`): taken before the process
ran its next program and before it ended (a later reading could be of another program, or of a new
process that reused the pid; strace's times and the engine's are the same clock). Else there is no
reading: an exec by descriptor is then reported as unidentified, never guessed or hidden, and an
exec by path is known by its file as it is after the command
(:meth:`~sandbox.commands.identity.ProgramIndex.as_ran` says what a reading changes).
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping

from sandbox.commands.identity import Image, ProgramIndex
from sandbox.commands.strace import Exec, ParsedTrace

_LINE = re.compile(
    rb'^(\d+)\s+(\d+\.\d+)\s+(?:execveat\(\d+<.*?, ""|execve(?:at)?\((?:\S+, )?"(?:/proc/(?:self|thread-self|\d+)'
    rb'/fd|/dev/fd)/\d+")'
)
_ANY = re.compile(rb"^(\d+)\s+(\d+\.\d+)\s+execve(?:at)?\(")
"""Any exec's line (the descriptor ones are :data:`_LINE`'s)."""
_HEAD = 4096
"""Bytes of a long trace line kept (the call, its descriptor and path come first)."""
_RESUMED = re.compile(rb"^(\d+)\s+(\d+\.\d+)\s+<\.\.\. execve(?:at)? resumed>.*\) = 0$")


class ExecImages:
    """Reads the trace as it comes (:meth:`feed`) and, for each exec that succeeded, the image its
    process runs now: :attr:`found` maps (pid, time of the exec's line) to it and when it was read."""

    def __init__(self, index: ProgramIndex, *, held: bool = False) -> None:
        self._index = index
        self._proc: str | None = None if held else ""
        """The ``/proc`` showing the trace's pids ("": the index's; None: not known yet, see :meth:`reach`)."""
        self._held: list[tuple[int, bytes]] = []
        self._partial = b""
        self._long = False  # inside a line past _HEAD bytes: its head is kept, the rest skipped to its end
        self._waiting: set[bytes] = set()  # pids whose exec by descriptor is unfinished
        self.found: dict[tuple[int, float], tuple[Image, float]] = {}

    def feed(self, data: bytes) -> None:
        """Take more of the trace. Of a line longer than :data:`_HEAD` (an exec with a huge argv) only
        its head and its end are kept: all that says which exec it is and whether it succeeded."""
        if self._long:
            cut = data.find(b"\n")
            if cut < 0:
                return
            self._long = False
            self._examine(self._partial + data[max(0, cut - 64) : cut])
            self._partial, data = b"", data[cut + 1 :]
        buf = self._partial + data
        cut = buf.rfind(b"\n")
        complete, self._partial = (buf[:cut], buf[cut + 1 :]) if cut >= 0 else (b"", buf)
        if b"exec" in complete:
            for line in complete.split(b"\n"):
                self._examine(line)
        if len(self._partial) > _HEAD:
            self._partial, self._long = self._partial[:_HEAD], True

    def _examine(self, line: bytes) -> None:
        if b"exec" in line:
            self._line(line)

    def _line(self, line: bytes) -> None:
        start = _LINE.match(line) or _ANY.match(line)
        if start is not None:
            if line.endswith(b"<unfinished ...>"):
                self._waiting.add(start.group(1))
                return
            changed = re.search(rb"<pid changed to (\d+) \.\.\.>$", line)
            if changed is not None:
                self._read(int(changed.group(1)), start.group(2))
            elif line.endswith(b") = 0"):
                self._read(int(start.group(1)), start.group(2))
            return
        resumed = _RESUMED.match(line)
        if resumed is not None and resumed.group(1) in self._waiting:
            self._waiting.discard(resumed.group(1))
            self._read(int(resumed.group(1)), resumed.group(2))

    def reach(self, proc: str | None) -> None:
        """The ``/proc`` that shows the trace's pids (None: the index's), known once the tracer has
        started (it runs in a PID namespace of its own): the readings held until now are taken (late:
        :func:`image_at` keeps only those still sure to be the exec's)."""
        self._proc = proc or ""
        held, self._held = self._held, []
        for pid, ts in held:
            self._read(pid, ts)

    def _read(self, pid: int, ts: bytes) -> None:
        if self._proc is None:
            self._held.append((pid, ts))
            return
        image = self._index.of_file(f"{self._proc}/{pid}/exe") if self._proc else self._index.of_process(pid)
        if image is not None:
            self.found[(pid, float(ts))] = (image, time.time())


def image_at(e: Exec, trace: ParsedTrace, found: Mapping[tuple[int, float], tuple[Image, float]]) -> Image | None:
    """The image read for ``e`` while it ran (``found``: :attr:`ExecImages.found`), or None: none was
    read, or it was read once the process may have run another program or ended (see the module)."""
    got = found.get((e.pid, e.ts))
    if got is None:
        return None
    image, at = got
    later = [x.entered or x.ts for x in trace.execs if x.pid == e.pid and x.ts > e.ts]
    ended = trace.exits.get(e.pid, (None, 0))[0]
    if (later and at >= min(later)) or (ended is not None and at >= ended):
        return None
    return image
