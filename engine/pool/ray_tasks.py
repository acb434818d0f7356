"""Units as Ray tasks (``--executor ray`` or ``ray://ADDRESS``; the ``scopewatch[ray]`` extra): the Ray
side of :func:`engine.pool.units.run_units`.

Each task runs one unit on whichever node Ray picks: the unit builds its workspaces there, in that
node's temporary directory, and returns its result (a trajectory's events, a pack's checks, ...); the
driver combines the results in unit order as for local workers. ``ray`` alone starts (or joins) a Ray
on this machine with ``jobs`` CPUs; ``ray://HOST:10001`` connects to a running cluster's Ray Client
server, whose nodes need scopewatch installed (the same version as the driver). Progress arrives per
unit: the items a unit reported are passed on when its task returns.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from channel.errors import ScopewatchError
from engine.pool.progress import collected

R = TypeVar("R")


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ScopewatchError(
            "--executor ray: Ray is not installed; install the extra: pip install 'scopewatch[ray]'"
        ) from None
    return ray


def connect(executor: str, jobs: int) -> Any:
    """The ray module, initialised: a cluster's address from ``ray://...``, else a local Ray."""
    ray = _ray()
    if ray.is_initialized():
        return ray
    try:
        if executor.startswith("ray://"):
            ray.init(address=executor, log_to_driver=False, logging_level=logging.WARNING)
        else:
            ray.init(num_cpus=jobs, log_to_driver=False, include_dashboard=False, logging_level=logging.WARNING)
    except Exception as exc:  # ray raises ConnectionError, RuntimeError, ValueError... by version
        raise ScopewatchError(f"--executor {executor}: cannot start or reach Ray ({exc})") from None
    return ray


def run_on_ray(
    fn: Callable[..., R],
    units: Sequence[tuple[Any, ...]],
    executor: str,
    jobs: int,
    on_report: Callable[[Any], None] | None,
    done: Callable[[int, Any], None],
) -> list[R]:
    """Every unit as a Ray task; their results in unit order."""
    ray = connect(executor, jobs)
    remote = ray.remote(num_cpus=1, max_retries=0)(collected)
    refs = [remote.remote(fn, args) for args in units]
    index = {ref: i for i, ref in enumerate(refs)}
    results: dict[int, R] = {}
    pending = list(refs)
    try:
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for ref in finished:
                try:
                    result, items = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, ScopewatchError):
                        raise cause from None
                    raise ScopewatchError(f"a unit's Ray task failed: {cause or exc}") from None
                results[index[ref]] = result
                if on_report is not None:
                    for item in items:
                        on_report(item)
                done(index[ref], result)
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise
    return [results[i] for i in range(len(units))]
