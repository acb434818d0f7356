"""A headless session's trajectories in parallel: on local worker processes (``--jobs N``) or as Ray
tasks (``--executor ray[://ADDRESS]``), through the one pool of units (engine/pool/units.py).

Each trajectory is a unit: a session of its own, run in a fresh process on a fresh in-process bus,
every episode in its own workspace (as always), numbered exactly as in the whole session (its
trajectory index, and episode numbers following the trajectories before it), so its scripted agents
draw what they would draw in a sequential run. The units' events come back to the driver, which
merges them in trajectory order into one session: the first unit's ``SessionStarted``, every unit's
events in turn (``seq`` renumbered contiguously from 1, ``FavorChecked.write_seq`` with them), the
last unit's ``SessionEnded``. The merged stream is scored, and recorded, as a sequential run's would
be, so the metrics equal ``--jobs 1``'s for the same seed.

Trajectories are independent by design: scripted agents draw by (seed, trajectory, episode, agent)
and an LLM agent's memory resets when a trajectory starts (seed 000, B.2). Limits: commands (pause,
norm changes) have no bus to arrive on in a batch (the live TUI and ``serve`` run sequentially), and
``--max-concurrency`` bounds the model calls of one unit, so a batch has up to ``jobs`` times that.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from channel.codec import decode_event, encode
from channel.events import EpisodeEnded, Event, FavorChecked, SessionEnded, SessionStarted
from channel.memory import InProcessBus
from channel.recorder import Recorder
from channel.vocab.config import SessionConfig
from engine.pool.progress import report
from engine.pool.units import run_units
from engine.scoring.metrics import Metrics, Scorer

OnEpisode = Callable[[int], None]
"""Called in the driver as each episode of any unit ends, with the unit's trajectory index."""

OnUnitEvent = Callable[[Event, Any], None]


def batchable(config: SessionConfig) -> bool:
    """Whether the session's trajectories can run as a batch: more than one, of any episode kind."""
    return config.trajectories > 1


def batch_episodes(config: SessionConfig) -> int:
    """How many episodes the whole batch runs (for progress displays)."""
    from engine.runs.sessions import episode_kind

    return sum(len(plan.tasks) for plan in episode_kind(config).trajectories(config))


def run_unit(config_json: str, trajectory: int) -> list[bytes]:
    """Run one trajectory as a session of its own; returns its events, encoded (worker side)."""
    config = SessionConfig.model_validate_json(config_json)
    return asyncio.run(_unit(config, trajectory))


async def _unit(config: SessionConfig, trajectory: int) -> list[bytes]:
    from engine.runs.sessions import open_session

    bus = InProcessBus()
    events: list[bytes] = []

    def keep(event: Event) -> None:
        events.append(encode(event))
        if isinstance(event, EpisodeEnded):
            report(trajectory)

    try:
        session = open_session(config, bus)
        session.emitter.add_listener(keep)
        await session.run(only=[trajectory])
    finally:
        await bus.close()
    return events


def merge(parts: Sequence[Sequence[Event]], session_id: str | None = None) -> list[Event]:
    """The units' events as one session, in trajectory order (see the module docstring)."""
    session_id = session_id or f"s-{uuid.uuid4().hex[:8]}"
    merged: list[Event] = []
    for index, part in enumerate(parts):
        renumbered: dict[int, int] = {}
        for event in part:
            if isinstance(event, SessionStarted) and index > 0:
                continue
            if isinstance(event, SessionEnded) and index < len(parts) - 1:
                continue
            seq = len(merged) + 1
            renumbered[event.seq] = seq
            update: dict[str, Any] = {"session": session_id, "seq": seq}
            if isinstance(event, FavorChecked):
                update["write_seq"] = renumbered.get(event.write_seq, event.write_seq)
            merged.append(event.model_copy(update=update))
    return merged


def run_batch(
    config: SessionConfig,
    *,
    jobs: int,
    executor: str = "local",
    record: str | None = None,
    on_episode: OnEpisode | None = None,
    on_event: OnUnitEvent | None = None,
) -> Metrics:
    """Run the session's trajectories in parallel (``executor``: "local", "ray" or "ray://ADDRESS");
    score and record the merged stream. ``on_event`` sees the merged events in order, with labels."""
    recorder = Recorder(record) if record else None  # a bad path fails before anything runs
    try:
        payload = config.model_dump_json()
        units = [(payload, t) for t in range(config.trajectories)]
        parts = run_units(run_unit, units, jobs=jobs, executor=executor, on_report=on_episode)
        events = merge([[decode_event(line) for line in part] for part in parts])
        scorer = Scorer()
        for event in events:
            if recorder is not None:
                recorder.write(event)
            label = scorer.feed(event)
            if on_event is not None:
                on_event(event, label)
        return scorer.metrics()
    finally:
        if recorder is not None:
            recorder.close()
