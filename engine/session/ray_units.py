"""Trajectories as Ray tasks (``--executor ray`` or ``ray://ADDRESS``; the ``scopewatch[ray]`` extra).

Each task runs one unit (:func:`engine.session.batch.run_unit`) on whichever node Ray picks: the
unit builds its workspaces there, in that node's temporary directory, and returns its events; the
driver merges and scores them as for local workers. ``ray`` alone starts (or joins) a Ray on this
machine with ``jobs`` CPUs; ``ray://HOST:10001`` connects to a running cluster's Ray Client server,
whose nodes need scopewatch installed (the same version as the driver). Progress arrives per unit:
a unit's episodes count as done when its task returns.
"""

from __future__ import annotations

import logging
from typing import Any

from channel.codec import decode_event
from channel.errors import ScopewatchError
from channel.events import EpisodeEnded
from engine.session.config import SessionConfig


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


def run_on_ray(config: SessionConfig, executor: str, jobs: int, on_episode: Any) -> list[list[bytes]]:
    """Every trajectory as a Ray task; their events in trajectory order."""
    from engine.session.batch import run_unit

    ray = connect(executor, jobs)
    remote = ray.remote(num_cpus=1, max_retries=0)(run_unit)
    payload = config.model_dump_json()
    refs = [remote.remote(payload, t) for t in range(config.trajectories)]
    index = {ref: t for t, ref in enumerate(refs)}
    results: dict[int, list[bytes]] = {}
    pending = list(refs)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    events = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, ScopewatchError):
                        raise cause from None
                    raise ScopewatchError(f"a trajectory's Ray task failed: {cause or exc}") from None
                trajectory = index[ref]
                results[trajectory] = events
                if on_episode is not None:
                    for line in events:
                        if b'"EpisodeEnded"' in line and isinstance(decode_event(line), EpisodeEnded):
                            on_episode(trajectory)
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise
    return [results[t] for t in range(config.trajectories)]
