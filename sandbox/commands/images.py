"""What the kernel ran for an exec whose file has no name to look at afterwards.

``execveat(fd, "", ..., AT_EMPTY_PATH)`` (``fexecve``: a memfd, a deleted file) and
``execve("/proc/self/fd/N")`` / ``/dev/fd/N`` name only a descriptor, and it is gone once the
command ended; the file's name (``memfd:innocent``) is the caller's choice. So while the command
runs, as each such exec's line arrives from strace, the engine reads ``/proc/PID/exe``: the file
the kernel mapped, by its inode and, for a file the size of a registry program, its bytes
(:meth:`~sandbox.commands.identity.ProgramIndex.of_process`). A process that ended (or ran another
program) before its line was read is not identified, and the audit says so: such an exec is
reported as unidentified, never guessed or hidden.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from sandbox.commands.identity import Image, ProgramIndex
from sandbox.commands.strace import Exec

_LINE = re.compile(
    rb'^(\d+)\s+(\d+\.\d+)\s+(?:execveat\(\d+<.*?, ""|execve(?:at)?\((?:\S+, )?"(?:/proc/(?:self|thread-self|\d+)'
    rb'/fd|/dev/fd)/\d+")'
)
_HEAD = 4096
"""Bytes of a long trace line kept (the call, its descriptor and path come first)."""
_RESUMED = re.compile(rb"^(\d+)\s+(\d+\.\d+)\s+<\.\.\. execve(?:at)? resumed>.*\) = 0$")


class ExecImages:
    """Reads the trace as it comes (:meth:`feed`) and, for each exec by descriptor that succeeded,
    the image its process runs now: :attr:`found` maps (pid, time of the exec's line) to it."""

    def __init__(self, index: ProgramIndex) -> None:
        self._index = index
        self._partial = b""
        self._long = False  # inside a line past _HEAD bytes: its head is kept, the rest skipped to its end
        self._waiting: set[bytes] = set()  # pids whose exec by descriptor is unfinished
        self.found: dict[tuple[int, float], Image] = {}

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
        start = _LINE.match(line)
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

    def _read(self, pid: int, ts: bytes) -> None:
        image = self._index.of_process(pid)
        if image is not None:
            self.found[(pid, float(ts))] = image


def image_of(
    e: Exec, execs: Sequence[Exec], found: Mapping[tuple[int, float], Image], index: ProgramIndex
) -> Image | None:
    """The image read for ``e`` (an exec by descriptor) while it ran (``found``: :attr:`ExecImages.found`),
    unless it may be a later one: the process ran another program after it whose file is the image read."""
    got = found.get((e.pid, e.ts))
    if got is None:
        return None
    if any(x.pid == e.pid and x.ts > e.ts and index.name_of(x.file, x.cwd)[1] == got.key for x in execs):
        return None
    return got
