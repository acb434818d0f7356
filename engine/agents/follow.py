"""Following a file an agent's process appends lines to while it runs (a product's native event
stream, an external agent's message outbox): every complete line is handed on as soon as the file
changes (watchfiles wakes the reader, with a short timeout as a fallback), and once more after the
process ends. Lines past :data:`MAX_LINE` bytes are skipped; a line still being written waits. The file is read without
following a link the agent made (:mod:`engine.agents.homefiles`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from watchfiles import awatch

from engine.agents import homefiles
from engine.agents.homefiles import UnsafeName

MAX_LINE = 1 << 20

OnLine = Callable[[str], Awaitable[None]]


@dataclass
class LineFollower:
    """Reads the complete lines appended to ``path`` and awaits ``on_line`` for each, in order.
    ``consumed`` is the byte offset just past the line being handed on (and, after a drain, past the
    last complete line)."""

    path: Path
    on_line: OnLine
    root: Path | None = None
    """The agent's folder above ``path`` (its HOME): below it no link is followed (the engine reads as
    root; :mod:`engine.agents.homefiles`). Default: ``path``'s folder."""
    consumed: int = 0
    _offset: int = 0
    _rest: bytes = b""

    @property
    def _root(self) -> Path:
        return self.path.parent if self.root is None else self.root

    async def drain(self) -> None:
        """Hand on what was appended since the last read."""
        try:
            chunk = homefiles.read_file(self._root, self.path, self._offset)
        except UnsafeName:  # a link or a FIFO in place of the file: nothing to read
            return
        if chunk is None:
            return
        self._offset += len(chunk)
        lines = (self._rest + chunk).split(b"\n")
        rest = lines.pop()
        self._rest = b"" if len(rest) > MAX_LINE else rest
        for raw in lines:
            self.consumed += len(raw) + 1
            if len(raw) <= MAX_LINE:
                await self.on_line(raw.decode("utf-8", errors="replace"))

    async def follow(self, stop: asyncio.Event) -> None:
        """Drain on every change of the file's folder until ``stop`` is set, then once more."""
        homefiles.make_folder(self._root, self.path.parent)
        with contextlib.suppress(RuntimeError):  # the folder went away: the final drain still runs
            async for _ in awatch(self.path.parent, stop_event=stop, debounce=50, step=20,
                                  rust_timeout=200, yield_on_timeout=True):
                await self.drain()
        await self.drain()
