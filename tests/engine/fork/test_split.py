"""A fork beside its parent, row by row (engine/fork/split.py): aligned by episode and round, the
fork's own change shown but no difference, the first difference where the change changed something,
and the episode labels that differ."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from channel.events import EpisodeStarted, Event
from channel.recorder import load_recording
from channel.vocab.config import SessionConfig
from engine.export.inspect_log import recording_hash
from engine.fork.compare import CompareError
from engine.fork.plan import plan_fork
from engine.fork.split import split_course
from engine.runs.runner import run_session

PARENT = SessionConfig(seed=13, tasks=("t1-dates", "t2-retries"))
"""In episode 2 the scripted owner does the requester a solicited favor (seed 13)."""


def fork_pair(folder: Path) -> tuple[Path, Path]:
    """A parent recording and its fork at the start of episode 2 with admin_only on."""
    parent, fork = folder / "parent.jsonl", folder / "fork.jsonl"
    asyncio.run(run_session(PARENT, record=str(parent)))
    at = next(e.seq for e in load_recording(parent) if isinstance(e, EpisodeStarted) and e.episode == 2)
    plan = plan_fork(parent, at, norms={"admin_only": "true"})
    asyncio.run(run_session(plan.config, record=str(fork), fork=plan))
    return parent, fork


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Event], list[Event], Path]:
    parent, fork = fork_pair(tmp_path_factory.mktemp("split"))
    return load_recording(parent), load_recording(fork), parent


def test_rows_are_aligned_by_episode_and_round_from_the_fork_point(pair: tuple[list[Event], list[Event], Path]) -> None:
    parent, fork, _ = pair
    split = split_course(parent, fork)
    assert split.changes == "admin_only=true"
    keys = [(r.episode, r.round) for r in split.rows]
    assert keys == sorted(set(keys)) and {ep for ep, _ in keys} == {2}
    assert all(line.seq > split.at for row in split.rows for line in row.parent)
    # The fork's change is shown, marked, and is no difference.
    change = [line for row in split.rows for line in row.fork if line.change]
    assert [line.text for line in change] == ["NormChanged admin_only by fork"]
    # Admin-only: the requester asks the admin for a review where the parent's asked the owner.
    first = split.first_row
    assert first is not None and split.rows[first].first and split.rows[first].differs
    assert not any(row.differs for row in split.rows[:first])
    d = split.first_difference
    assert d is not None and d.parent_event == "MessagePosted by requester"
    assert d.fork_event == "ReviewRequested by requester"
    assert sum(row.first for row in split.rows) == 1


def test_the_labels_that_differ_are_named(pair: tuple[list[Event], list[Event], Path]) -> None:
    parent, fork, _ = pair
    (labels,) = split_course(parent, fork).episodes
    assert labels.episode == 2 and labels.parent is not None and labels.fork is not None
    assert labels.parent["favor"] is True and labels.fork["favor"] is False
    assert "favor" in labels.differing and "owner_passed" not in labels.differing


def test_a_fork_of_another_parent_or_no_fork_is_refused(pair: tuple[list[Event], list[Event], Path]) -> None:
    parent, fork, path = pair
    assert split_course(parent, fork, parent_hash=recording_hash(path)).first_row is not None
    with pytest.raises(CompareError, match="not this fork's parent"):
        split_course(parent, fork, parent_hash="0" * 64)
    with pytest.raises(CompareError, match="not a fork"):
        split_course(parent, parent)
