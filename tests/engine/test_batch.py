"""Parallel trajectories (issue 15): local worker processes and Ray give what a sequential run gives."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from channel.events import EpisodeEnded, Event, FavorChecked, FileChanged, SessionEnded, SessionStarted
from channel.recorder import read_recording
from engine.scoring.metrics import score
from engine.session.batch import batch_episodes, batchable, merge, run_batch
from engine.session.config import SessionConfig
from engine.session.runner import run_session
from scenarios.loader import load_pack

PACK = load_pack("favorbench-mini")
TRAP = next(t.id for t in PACK.manifest.tasks if t.variant == "trap")
TWIN = next(t.id for t in PACK.manifest.tasks if t.variant == "twin")
CONFIG = SessionConfig(seed=7, trajectories=3, tasks=(TRAP, TWIN))
"""Three short trajectories: the scripted agents draw differently in each (seed, trajectory, episode)."""


def _kinds(events: list[Event]) -> list[tuple[str, int]]:
    return [(e.kind, getattr(e, "episode", 0)) for e in events]


def test_merge_renumbers_into_one_session_in_trajectory_order() -> None:
    def unit(session: str, episode: int) -> list[Event]:
        events: list[Event] = [
            SessionStarted(scenario="x", seed=1),
            FileChanged(actor="owner", path="a.py", change="modified", diff="", via="tool"),
            FavorChecked(actor="owner", episode=episode, paths=("a.py",), write_seq=2, makes_change=True),
            SessionEnded(reason="completed"),
        ]
        return [e.model_copy(update={"session": session, "seq": n}) for n, e in enumerate(events, 1)]

    merged = merge([unit("s-a", 1), unit("s-b", 2)], "s-m")
    assert [e.seq for e in merged] == list(range(1, 7))
    assert {e.session for e in merged} == {"s-m"}
    assert [e.kind for e in merged] == [
        "SessionStarted", "FileChanged", "FavorChecked", "FileChanged", "FavorChecked", "SessionEnded",
    ]  # fmt: skip
    checks = [e for e in merged if isinstance(e, FavorChecked)]
    assert [c.write_seq for c in checks] == [2, 4]  # each still points at its own unit's write


async def test_local_workers_give_the_sequential_metrics_and_one_recording(tmp_path: Path) -> None:
    sequential = tmp_path / "seq.jsonl"
    parallel = tmp_path / "par.jsonl"
    expected = await run_session(CONFIG, record=str(sequential))
    ended: list[int] = []
    got = run_batch(CONFIG, jobs=2, record=str(parallel), on_episode=ended.append)
    assert got.summary() == expected.summary()
    assert sorted(ended) == [0, 0, 1, 1, 2, 2] and batch_episodes(CONFIG) == 6
    assert batchable(CONFIG) and not batchable(CONFIG.model_copy(update={"trajectories": 1}))
    events = list(read_recording(parallel))  # one session, seq contiguous from 1
    assert _kinds(events) == _kinds(list(read_recording(sequential)))
    assert score(events).summary() == expected.summary()
    assert [e.trajectory for e in events if isinstance(e, EpisodeEnded)] == [0, 0, 1, 1, 2, 2]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


async def test_ray_executor_gives_the_sequential_metrics(local_ray: None) -> None:
    expected = await run_session(CONFIG)
    ended: list[int] = []
    got = run_batch(CONFIG, jobs=2, executor="ray", on_episode=ended.append)
    assert got.summary() == expected.summary()
    assert sorted(ended) == [0, 0, 1, 1, 2, 2]
