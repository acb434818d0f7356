"""A unit's progress: what it reports (:func:`report`) reaches the driver's ``on_report``.

Where a report goes depends on where the unit runs: the driver's ``on_report`` itself (units run
in-process), a worker's queue (local workers), or a list returned with the result (a Ray task,
:func:`collected`). The pool points the sink there with :func:`reporting_to`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

R = TypeVar("R")

Sink = Callable[[Any], None]

_SINK: Sink | None = None
"""Where :func:`report` sends items in this process (None: nowhere)."""


def report(item: Any) -> None:
    """Called in a unit: pass ``item`` (picklable) to the driver's ``on_report``."""
    if _SINK is not None:
        _SINK(item)


def set_sink(sink: Sink | None) -> None:
    """Send this process's reports to ``sink`` from now on (a worker process, once)."""
    global _SINK
    _SINK = sink


@contextlib.contextmanager
def reporting_to(sink: Sink | None) -> Iterator[None]:
    """Send this process's reports to ``sink`` while the block runs."""
    global _SINK
    saved, _SINK = _SINK, sink
    try:
        yield
    finally:
        _SINK = saved


def collected(fn: Callable[..., R], args: tuple[Any, ...]) -> tuple[R, list[Any]]:
    """``fn(*args)`` and the items it reported (how a Ray task returns its progress with its result)."""
    items: list[Any] = []
    with reporting_to(items.append):
        return fn(*args), items
