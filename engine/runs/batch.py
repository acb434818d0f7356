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

Crash-safe: each unit's events are merged and appended to the recording as soon as it and the units
before it are done (:class:`Merger`), so a run killed midway leaves a recording of the finished
trajectories with no ``SessionEnded``, which ``report`` scores and marks PARTIAL; SIGTERM and SIGINT
stop every worker (engine/pool/units.py).

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
from channel.errors import ScopewatchError
from channel.events import EpisodeEnded, Event, FavorChecked, SessionEnded, SessionStarted
from channel.memory import InProcessBus
from channel.recorder import Recorder
from channel.vocab.config import SessionConfig
from engine.pool.progress import report
from engine.pool.units import WorkerDied, run_units
from engine.scoring.metrics import Metrics, Scorer
from scenarios.suite import Suite

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


def run_unit(config_json: str, trajectory: int, batch: str = "") -> list[bytes]:
    """Run one trajectory of the batch ``batch`` as a session of its own; returns its events,
    encoded (worker side)."""
    config = SessionConfig.model_validate_json(config_json)
    return asyncio.run(_unit(config, trajectory, batch))


class _BatchSuites:
    """A worker's suites for one batch, each loaded once (reading a suite's TOML costs ~0.5 s of CPU,
    which every unit paid): the units of a batch run the same scenario, as it was when the batch's
    first unit on this worker loaded it; a unit of another batch loads it again."""

    def __init__(self) -> None:
        self.batch = ""
        self.loaded: dict[str, Suite] = {}

    def of(self, batch: str) -> Callable[[str], Suite]:
        from scenarios.catalog import session_suite

        if batch != self.batch or not batch:
            self.batch, self.loaded = batch, {}

        def suite(name: str) -> Suite:
            if name not in self.loaded:
                self.loaded[name] = session_suite(name)
            return self.loaded[name]

        return suite


_SUITES = _BatchSuites()


async def _unit(config: SessionConfig, trajectory: int, batch: str) -> list[bytes]:
    from engine.runs.sessions import open_session

    bus = InProcessBus()
    events: list[bytes] = []

    def keep(event: Event) -> None:
        events.append(encode(event))
        if isinstance(event, EpisodeEnded):
            report(trajectory)

    try:
        session = open_session(config, bus, suites=_SUITES.of(batch))
        session.emitter.add_listener(keep)
        await session.run(only=[trajectory])
    finally:
        await bus.close()
    return events


class Merger:
    """The units' events as one session, one unit at a time in trajectory order: the first unit's
    ``SessionStarted``, the last one's ``SessionEnded``, ``seq`` renumbered contiguously from 1."""

    def __init__(self, units: int, session_id: str | None = None) -> None:
        self.units = units
        self.session_id = session_id or f"s-{uuid.uuid4().hex[:8]}"
        self.seq = 0

    def add(self, index: int, part: Sequence[Event]) -> list[Event]:
        """Unit ``index``'s events, renumbered after the units before it (called in index order)."""
        merged: list[Event] = []
        renumbered: dict[int, int] = {}
        for event in part:
            if isinstance(event, SessionStarted) and index > 0:
                continue
            if isinstance(event, SessionEnded) and index < self.units - 1:
                continue
            self.seq += 1
            renumbered[event.seq] = self.seq
            update: dict[str, Any] = {"session": self.session_id, "seq": self.seq}
            if isinstance(event, FavorChecked):
                update["write_seq"] = renumbered.get(event.write_seq, event.write_seq)
            merged.append(event.model_copy(update=update))
        return merged


def merge(parts: Sequence[Sequence[Event]], session_id: str | None = None) -> list[Event]:
    """The units' events as one session, in trajectory order (see the module docstring)."""
    merger = Merger(len(parts), session_id)
    return [event for index, part in enumerate(parts) for event in merger.add(index, part)]


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
        merger, scorer = Merger(config.trajectories), Scorer()
        units = [(payload, t, merger.session_id) for t in range(config.trajectories)]
        kept = 0

        def finished(index: int, part: list[bytes]) -> None:  # in unit order, as each is done
            nonlocal kept
            kept += 1
            for event in merger.add(index, [decode_event(line) for line in part]):
                if recorder is not None:
                    recorder.write(event)
                label = scorer.feed(event)
                if on_event is not None:
                    on_event(event, label)

        try:
            run_units(run_unit, units, jobs=jobs, executor=executor, on_report=on_episode, on_result=finished)
        except WorkerDied:
            where = ""
            if record:
                where = f" ({record} holds them: a partial recording)" if kept else f" ({_none_kept(recorder)})"
            raise ScopewatchError(
                f"a worker process died (killed by a signal: out of memory?); the run stopped with {kept} of "
                f"{config.trajectories} trajectories finished{where}"
            ) from None
        except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM (Terminated): the same, said in its one line
            if recorder is not None and not kept:
                raise type(stop)(f"no trajectory had finished: {_none_kept(recorder)}") from None
            raise
        return scorer.metrics()
    finally:
        if recorder is not None:
            recorder.close()


def _none_kept(recorder: Recorder | None) -> str:
    """Stopped before a trajectory was done: the recording made up front holds nothing (not even the first
    unit's ``SessionStarted``, which its worker makes), a file ``report`` would refuse, so it is removed.
    A trajectory done is appended at once and stays: a PARTIAL recording (crash-safe, above)."""
    if recorder is None:
        return "nothing recorded"
    recorder.close()
    try:
        recorder.path.unlink()
    except OSError as exc:
        return f"{recorder.path} holds none (cannot remove it: {exc.strerror or exc})"
    return f"nothing recorded, {recorder.path} removed"
