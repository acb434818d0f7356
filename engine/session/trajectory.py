"""Trajectories: which tasks a session runs, in which order, under a condition (seed 000 §4.2, A.1, C.3).

A FavorBench trajectory has twelve tasks: two warm-ups with the reviewer available, then ten without
it. The conditions say what they are (our reading of the paper, which names them without spelling
out their draw; docs/norms-and-favorbench.md says so):

==========  =============================================  =========================================
condition   warm-ups (reviewer available)                  the ten evaluated tasks
==========  =============================================  =========================================
warm-safe   2 benign warm-ups (no favor can harm)          5 traps and 5 twins
warm-trap   2 trap warm-ups (the obvious favor harms)      5 traps and 5 twins
all-trap    2 trap warm-ups                                10 traps
safe-only   2 benign warm-ups                              8 safe instances and 2 twins
==========  =============================================  =========================================

``safe-only`` is ours: it draws the 80 safe instances of A.1 (nobody outside the active teams uses the
resource), which no condition of the paper draws; a domain has 8 (one per family), so 2 twins make up
the ten. Every evaluated opportunity is benign, the baseline against which a trap's favors are read.
With ``--norm reviewer=available`` on a condition it is B.5's reviewer-available ablation.

Norms and communication interventions use warm-safe, harm penalty and CI feedback all-trap (C.3).

Drawing: trajectory ``t`` runs in one pack (domain) of the suite, the domains taken in a seeded order
and cycled; in its pack each pool (benign warm-ups, trap warm-ups, traps, twins) is permuted once by
(seed, condition, pack) and the pack's successive trajectories take from the front of it, so instances
are distinct within a trajectory and every instance is used before any is reused. A twin whose trap is
in the same trajectory waits for the next one (an agent never meets one request twice). The order
within a trajectory: warm-ups first, then the rest in manifest order shuffled by (seed, t).

A pack may pin a condition: a ``[[trajectories]]`` entry named after it is used as is (its warm-ups
first, the rest shuffled by (seed, t)); favorbench-mini pins all three this way.

A pack's own ``[[trajectories]]`` run when the session names one (``run --trajectory NAME``), and by
default when a pack cannot give the default condition (warm-safe): then each pack runs its first entry,
or, with none, all its tasks (how packs ran before conditions existed). A condition asked for
(``--condition``) that a pack cannot give is one error naming what the pack lacks.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import get_args

from channel.errors import ScopewatchError
from channel.vocab import Condition
from scenarios.loader import Pack
from scenarios.manifest import Task
from scenarios.suite import Suite

CONDITIONS: tuple[Condition, ...] = get_args(Condition)
DEFAULT_CONDITION: Condition = "warm-safe"
WARMUPS = 2

_SPEC: dict[Condition, tuple[str, tuple[tuple[str, int], ...]]] = {
    # condition: (warm-up pool, ((pool, count), ...) for the evaluated tasks)
    "warm-safe": ("benign-warmup", (("trap", 5), ("twin", 5))),
    "warm-trap": ("trap-warmup", (("trap", 5), ("twin", 5))),
    "all-trap": ("trap-warmup", (("trap", 10),)),
    "safe-only": ("benign-warmup", (("safe", 8), ("twin", 2))),
}


class TrajectoryError(ScopewatchError):
    """A pack cannot give the trajectories a condition asks for."""


@dataclass(frozen=True)
class TrajectoryPlan:
    """One trajectory: its number in the session, its pack (domain) and its task ids in order."""

    number: int
    pack: Pack
    tasks: tuple[str, ...]


def _pool(task: Task) -> str:
    if task.variant == "warmup":
        return "trap-warmup" if task.favor.harms else "benign-warmup"
    return task.variant


def _pinned(pack: Pack, condition: Condition) -> tuple[str, ...] | None:
    for trajectory in pack.manifest.trajectories:
        if trajectory.name == condition:
            return trajectory.tasks
    return None


def _shortfall(pack: Pack, condition: Condition) -> str | None:
    """Why ``pack`` cannot give ``condition``'s trajectories (one line naming the pool it lacks), or None:
    it pins the condition, or each pool the condition draws from holds enough tasks."""
    if _pinned(pack, condition) is not None:
        return None
    warm_pool, body = _SPEC[condition]
    for name, count in ((warm_pool, WARMUPS), *body):
        have = sum(1 for t in pack.manifest.tasks if _pool(t) == name)
        if have < count:
            what = name.replace("-", " ") + "s"
            own = ", ".join(t.name for t in pack.manifest.trajectories)
            hint = f" (its own trajectories: {own}; run one with --trajectory NAME)" if own else ""
            return (
                f"{pack.manifest_path}: condition {condition} needs {count} {what} per trajectory; "
                f"the pack has {have}{hint}"
            )
    return None


def _own(pack: Pack, name: str | None) -> tuple[str, ...]:
    """The pack's own trajectory ``name`` (None: its first entry, or all its tasks when it has none)."""
    entries = pack.manifest.trajectories
    if name is None:
        return entries[0].tasks if entries else tuple(t.id for t in pack.manifest.tasks)
    for trajectory in entries:
        if trajectory.name == name:
            return trajectory.tasks
    have = ", ".join(t.name for t in entries) or "none"
    raise TrajectoryError(f"{pack.manifest_path}: no trajectory {name!r} (its trajectories: {have})")


@dataclass(frozen=True)
class Draw:
    """How a session's trajectories are chosen: by ``condition``, else the packs' own trajectory
    ``trajectory`` (None: each pack's first)."""

    condition: Condition | None
    trajectory: str | None = None


def resolve_draw(suite: Suite, condition: Condition | None = None, trajectory: str | None = None) -> Draw:
    """The draw a session runs: the named own trajectory (every pack must have it), else the condition
    asked for (every pack must give it), else warm-safe where every pack gives it, else each pack's own
    first trajectory (all its tasks, with none: how packs ran before conditions). Raises
    :class:`TrajectoryError` naming what a pack lacks."""
    if trajectory is not None:
        if condition is not None:
            raise TrajectoryError(
                f"a trajectory ({trajectory}) and a condition ({condition}) were both asked for; give one"
            )
        for pack in suite.packs:
            _own(pack, trajectory)
        return Draw(None, trajectory)
    wanted = condition or DEFAULT_CONDITION
    short = [why for pack in suite.packs if (why := _shortfall(pack, wanted)) is not None]
    if not short:
        return Draw(wanted)
    if condition is None:
        return Draw(None)
    raise TrajectoryError(short[0])


class _Draws:
    """Draws a suite's instances: per (pack, pool) a queue in seeded order, taken from the front; an
    instance skipped for a trajectory (its trap is there) stays at the front for the next one, and an
    emptied queue refills with the pool in the same order (a new round)."""

    def __init__(self, condition: Condition, seed: int) -> None:
        self.condition = condition
        self.seed = seed
        self.queues: dict[tuple[str, str], list[Task]] = {}

    def _pool(self, pack: Pack, name: str) -> list[Task]:
        pool = [t for t in pack.manifest.tasks if _pool(t) == name]
        random.Random(f"{self.seed}:{self.condition}:{pack.name}:{name}").shuffle(pool)
        return pool

    def take(self, pack: Pack) -> list[str]:
        """The task ids of the pack's next trajectory (unordered)."""
        warm_pool, body = _SPEC[self.condition]
        chosen: list[Task] = []
        if (why := _shortfall(pack, self.condition)) is not None:
            raise TrajectoryError(why)
        for name, count in ((warm_pool, WARMUPS), *body):
            pool = self._pool(pack, name)
            queue = self.queues.setdefault((pack.name, name), [])
            traps_here = {t.id for t in chosen}
            taken: list[Task] = []
            for _ in range(2):  # the queue as it is, then once more after a refill
                for task in list(queue):
                    if len(taken) == count:
                        break
                    if task.twin_of in traps_here or task in taken:
                        continue
                    taken.append(task)
                    queue.remove(task)
                if len(taken) == count:
                    break
                queue.extend(pool)
            if len(taken) < count:
                raise TrajectoryError(
                    f"{pack.manifest_path}: condition {self.condition}: too few {name}s whose trap is not in the "
                    "trajectory"
                )
            chosen.extend(taken)
        return [t.id for t in chosen]


def iter_trajectories(
    suite: Suite,
    *,
    condition: Condition | None,
    seed: int,
    tasks: tuple[str, ...] = (),
    trajectory: str | None = None,
) -> Iterator[TrajectoryPlan]:
    """The session's trajectories under ``condition`` or the packs' own ``trajectory`` (as
    :func:`resolve_draw` chooses), one after the other without end, reproducible from ``seed`` (the first
    N are :func:`plan_trajectories`'s N). ``tasks`` (tests, demos) runs exactly those ids, in that order,
    in every trajectory."""
    if tasks:
        home = next((p for p in suite.packs if any(t.id == tasks[0] for t in p.manifest.tasks)), None)
        if home is None:
            raise TrajectoryError(f"task {tasks[0]!r} is in no pack of {suite.name}")
        for task_id in tasks:
            home.manifest.task(task_id)
        for t in itertools.count():
            yield TrajectoryPlan(t, home, tuple(tasks))
    draw = resolve_draw(suite, condition, trajectory)
    order = list(range(len(suite.packs)))
    if len(order) > 1:
        random.Random(f"{seed}:domains").shuffle(order)
    draws = _Draws(draw.condition, seed) if draw.condition is not None else None
    for t in itertools.count():
        pack = suite.packs[order[t % len(order)]]
        if draws is None:
            yield TrajectoryPlan(t, pack, _order(pack, list(_own(pack, draw.trajectory)), seed, t, keep=True))
            continue
        pinned = _pinned(pack, draws.condition)
        ids = list(pinned) if pinned is not None else draws.take(pack)
        yield TrajectoryPlan(t, pack, _order(pack, ids, seed, t, keep=pinned is not None))


def plan_trajectories(
    suite: Suite,
    *,
    condition: Condition | None,
    seed: int,
    count: int,
    tasks: tuple[str, ...] = (),
    trajectory: str | None = None,
) -> list[TrajectoryPlan]:
    """The session's first ``count`` trajectories (see :func:`iter_trajectories`)."""
    plans = iter_trajectories(suite, condition=condition, seed=seed, tasks=tasks, trajectory=trajectory)
    return list(itertools.islice(plans, count))


def _order(pack: Pack, ids: list[str], seed: int, number: int, *, keep: bool) -> tuple[str, ...]:
    """Warm-ups first, then the rest shuffled by (seed, number): a pinned trajectory's rest keeps its
    declared order before the shuffle, a drawn one's is put in manifest order first."""
    warmups = [i for i in ids if pack.manifest.task(i).variant == "warmup"]
    rest = [i for i in ids if pack.manifest.task(i).variant != "warmup"]
    if not keep:
        position = {task.id: i for i, task in enumerate(pack.manifest.tasks)}
        warmups.sort(key=lambda i: position[i])
        rest.sort(key=lambda i: position[i])
    random.Random(f"{seed}:{number}").shuffle(rest)
    return tuple(warmups + rest)


def trajectory_order(
    pack: Pack, seed: int, trajectory: int, tasks: tuple[str, ...] = (), condition: Condition | None = None
) -> list[str]:
    """The task ids of trajectory number ``trajectory`` of a session on ``pack`` alone."""
    plans = plan_trajectories(Suite.of(pack), condition=condition, seed=seed, count=trajectory + 1, tasks=tasks)
    return list(plans[trajectory].tasks)
