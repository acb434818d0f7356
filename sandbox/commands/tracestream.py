"""The exec trace as strace writes it: read as it comes through a FIFO the engine holds open (so strace never
blocks on a full pipe), looked at for execs by descriptor while their processes run
(:class:`~sandbox.commands.images.ExecImages`), kept up to :data:`~sandbox.commands.volume.TRACE_MAX` bytes
(the rest counted, not kept), and watched for the end of the command's root process (:class:`TraceTail`). The
analysis of a finished trace is :mod:`sandbox.commands.tracer`'s.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from sandbox.commands.images import ExecImages
from sandbox.commands.strace import Parser
from sandbox.commands.volume import TRACE_MAX

STREAM_PARSE_MAX = 64 * 1024
"""Bytes of one command's trace parsed as they come (:attr:`TraceStream.parser`); a longer trace is parsed from its
file after the command, and what was parsed of it as it came is work thrown away (~2 ms of CPU at most)."""


class TraceTail:
    """Watches a trace as strace writes it for the end of strace's own child (the command's root
    process): ``strace -f`` waits for every traced process, so a daemon the command left would keep
    the command running; where no PID namespace ends it (isolation ``none``, a container), the
    engine ends the leftovers when the root has ended, and takes the root's exit code."""

    def __init__(self) -> None:
        self._root: bytes | None = None
        self._partial = b""
        self.code: int | None = None
        """The root's exit code, once it has ended."""

    def feed(self, data: bytes) -> bool:
        """Take more of the trace; True once the root has ended."""
        if self.code is not None:
            return True
        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()
        for line in lines:
            parts = line.split(None, 2)  # pid (padded), time, what
            if len(parts) < 3:
                continue
            pid, event = parts[0], parts[2]
            if self._root is None:
                self._root = pid
            if pid != self._root:
                continue
            if event.startswith(b"+++ exited with "):
                self.code = int(event.split()[3])
            elif event.startswith(b"+++ killed by "):
                self.code = 137
            if self.code is not None:
                return True
        return False


class TraceStream:
    """The trace through a FIFO the engine holds open (read and write: it never sees end-of-file)
    and reads as it comes (strace never blocks on a full pipe), kept in ``file`` for the parser.
    ``on_root_exit`` runs once, when :class:`TraceTail` sees the root end; ``root=False`` (an episode's jail,
    whose root is its command server) watches for no root's end."""

    def __init__(self, fifo: Path, file: Path, images: ExecImages | None = None, *, root: bool = True) -> None:
        fifo.unlink(missing_ok=True)
        os.mkfifo(fifo, 0o600)
        self.fifo = fifo
        self._fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
        self.lost = ""
        """Why the trace could not be kept (the engine could not write it: ``No space left on device``), "" while it
        is: the command's audit then fails closed (:attr:`~sandbox.commands.calls.CommandRun.audit_lost`)."""
        self._out = self._open(file)
        self.kept = 0
        self.cut = 0
        """Bytes of trace not kept, past :data:`~sandbox.commands.volume.TRACE_MAX` (the rest is lost)."""
        self.tail = TraceTail()
        self._root = root
        self.images = images
        self.on_root_exit: Callable[[], None] | None = None
        self.marker: re.Pattern[bytes] | None = None
        """A line that ends one command's part of a trace that goes on (an episode's jail), an open of ``/dev/null``
        (a chunk without that name is not searched): :attr:`marked` turns True when it is seen."""
        self.marked = False
        self._line = b""
        self.parser: Parser | None = None
        """Parses what is kept as it comes (:meth:`switch`), the same bytes as the file gets."""

    @property
    def fd(self) -> int:
        return self._fd

    def pump(self) -> None:
        """Read whatever is in the pipe now."""
        # This runs once for about every line strace writes (it writes them one by one): ~50 times a `git status`.
        fd, read, images, marker = self._fd, os.read, self.images, self.marker
        while fd >= 0:
            try:
                chunk = read(fd, 1 << 16)
            except BlockingIOError:
                return
            if not chunk:
                return
            parse = self.kept < TRACE_MAX and not self.lost
            if parse:
                self._write(chunk)
                self.kept += len(chunk)
            else:
                self.cut += len(chunk)
            if images is not None:
                images.feed(chunk)
            if marker is not None:
                self._look(marker, chunk)
            if parse and self.parser is not None and not self.parser.abandoned:
                # Parsed here, on the loop, only while the trace is small (a git status's is ~10 KB); a bigger one is
                # parsed from its file after the command (in a thread past BIG_TRACE), as it always was (red team 7b,
                # 01: one 21 MB exec line held the loop 7 s).
                if self.kept > STREAM_PARSE_MAX:
                    self.parser.abandoned = True
                else:
                    self.parser.feed(chunk)
            if self._root and self.tail.feed(chunk) and self.on_root_exit is not None:
                callback, self.on_root_exit = self.on_root_exit, None
                callback()
            if len(chunk) < 1 << 16:
                return  # the pipe is empty (what came since wakes the loop again): no read for EAGAIN

    def _look(self, marker: re.Pattern[bytes], chunk: bytes) -> None:
        if self._line:
            chunk = self._line + chunk
        cut = chunk.rfind(b"\n")
        self._line = chunk[cut + 1 :][-4096:]
        # The marker is an open of /dev/null: a line without that name needs no regular expression.
        if cut >= 0 and b"/dev/null" in chunk and marker.search(chunk, 0, cut):
            self.marked = True

    def _open(self, file: Path) -> BinaryIO | None:
        try:
            return file.open("wb")
        except OSError as exc:
            self.lost = exc.strerror or str(exc)
            return None

    def _write(self, chunk: bytes) -> None:
        # A failed write is no exception on the loop (this is a reader callback) nor in the command's run: the
        # pipe is still drained (strace never blocks), and the command's audit fails closed (red team 5, 06).
        if self._out is None:
            return
        try:
            self._out.write(chunk)
        except OSError as exc:
            self.lost = exc.strerror or str(exc)

    def flush(self) -> None:
        """What came so far, on disk for the parser."""
        if self._out is not None:
            try:
                self._out.flush()
            except OSError as exc:
                self.lost = exc.strerror or str(exc)

    def _close_file(self) -> None:
        out, self._out = self._out, None
        if out is not None:
            try:
                out.close()
            except OSError as exc:
                self.lost = exc.strerror or str(exc)

    def switch(self, file: Path, images: ExecImages | None, parser: Parser | None = None) -> None:
        """What comes next goes to ``file`` (one command's part of a trace that goes on), and to ``parser``."""
        self._close_file()
        self.lost = ""
        self._out = self._open(file)
        self.kept = self.cut = 0
        self.images = images
        self.parser = parser
        self.marked = False

    def close(self) -> None:
        """Read the rest (strace has exited), close the pipe and the file."""
        self.pump()
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        self._close_file()
        self.fifo.unlink(missing_ok=True)
