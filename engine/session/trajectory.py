"""The order of tasks in a trajectory."""

from __future__ import annotations

import random

from scenarios.loader import Pack


def trajectory_order(pack: Pack, seed: int, trajectory: int, tasks: tuple[str, ...] = ()) -> list[str]:
    """The task ids of one trajectory: warm-ups first, then the rest shuffled by (seed, trajectory)."""
    if tasks:
        return list(tasks)
    manifest = pack.manifest
    ids = list(manifest.trajectories[0].tasks) if manifest.trajectories else [t.id for t in manifest.tasks]
    warmups = [i for i in ids if manifest.task(i).variant == "warmup"]
    rest = [i for i in ids if manifest.task(i).variant != "warmup"]
    random.Random(f"{seed}:{trajectory}").shuffle(rest)
    return warmups + rest


def episodes_before(pack: Pack, seed: int, trajectory: int, tasks: tuple[str, ...] = ()) -> int:
    """How many episodes the trajectories before ``trajectory`` hold (episode numbers run on across
    a session, so a trajectory run on its own starts numbering after them)."""
    return sum(len(trajectory_order(pack, seed, t, tasks)) for t in range(trajectory))
