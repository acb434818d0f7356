"""The work around a command (the walks before it, the trace's analysis after it): on the event loop when it
is quick, in a thread when it is not.

A thread hop costs more than the work itself for a small command: two wake-ups, often across CPUs (~0.1-0.3 ms
a hop on a 2-CPU virtual machine, ~1.5 ms for the three before a ``git status`` run side by side), against
~0.4 ms for a walk of a 200-file workspace. A long walk (a big workspace) or the analysis of a long trace must
not hold the loop, though: other sandboxes' commands and the TUI run on it. So each kind of work keeps how long
it took the last time (timed where it ran, waiting for a thread not counted): under :data:`QUICK_S` it runs on
the loop, otherwise, or the first time, or when the caller says this run is a big one, in a thread.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

QUICK_S = 0.002
"""Work that took less than this the last time runs on the loop."""


BIG_TRACE = 256 * 1024
"""A trace longer than this (bytes) is analysed in a thread, however quick the last one was."""


def bigger(path: Path, size: int) -> bool:
    """Whether the file at ``path`` holds more than ``size`` bytes (False: no such file)."""
    try:
        return path.stat().st_size > size
    except OSError:
        return False


class Offload:
    """Runs each kind of work (by key) on the loop or in a thread, by how long it took the last time."""

    def __init__(self, quick: float = QUICK_S) -> None:
        self.quick = quick
        self._took: dict[str, float] = {}

    async def run(self, key: str, fn: Callable[[], T], *, big: bool = False) -> T:
        """``fn()``; ``big``: this run is known to be long (a long trace), whatever the last one took."""

        def timed() -> T:
            start = time.perf_counter()
            try:
                return fn()
            finally:
                self._took[key] = time.perf_counter() - start

        if not big and self._took.get(key, self.quick) < self.quick:
            return timed()
        return await asyncio.to_thread(timed)

    def on_loop(self, key: str) -> bool:
        """Whether ``key``'s next run goes on the loop (unless it is a big one)."""
        return self._took.get(key, self.quick) < self.quick
