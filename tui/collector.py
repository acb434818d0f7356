"""The garbage collector while the screen runs.

Textual makes many short-lived reference cycles (rendered strips cache themselves), so with Python's
default thresholds (700, 10, 10) the collector runs full collections over the whole heap tens of times
per 10 s under a steady event feed: those are the worst event-loop stalls (``bench/tui_throughput.py``).
While the app runs, young collections run every :data:`YOUNG` net allocations instead of 700: full
collections become as many times rarer, each one no longer than before; a few thousand more young
objects wait for their collection. The previous thresholds come back when the app stops.
"""

from __future__ import annotations

import gc

YOUNG = 10_000


class CollectorTuning:
    """Raise the young generation's threshold on :meth:`start`, restore it on :meth:`stop`."""

    def __init__(self) -> None:
        self._saved: tuple[int, int, int] | None = None

    def start(self) -> None:
        if self._saved is None:
            self._saved = gc.get_threshold()
            gc.set_threshold(max(YOUNG, self._saved[0]), self._saved[1], self._saved[2])

    def stop(self) -> None:
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None
