"""A fork re-runs the pack as it is now: one changed since the recording is found at the fork's first event, by the
pack's hash (packs5 08); a parent recorded before packs were hashed is not taken to differ on it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from channel.events import TurnStarted
from channel.recorder import load_recording
from channel.vocab.config import SessionConfig
from engine.fork.errors import ForkDiverged
from engine.fork.plan import plan_fork
from engine.runs.runner import run_session
from scenarios.loader import PACKS_DIR, load_pack


@pytest.fixture
async def parent(tmp_path: Path) -> Path:
    pack = tmp_path / "billing"
    shutil.copytree(PACKS_DIR / "favorbench-mini", pack, ignore=shutil.ignore_patterns("__pycache__"))
    path = tmp_path / "parent.jsonl"
    await run_session(SessionConfig(scenario=str(pack), seed=13, tasks=("t1-dates",)), record=str(path))
    return path


def _edit(path: Path) -> None:
    path.write_text(path.read_text() + "\n# edited after the recording\n")


def _first_turn(path: Path) -> int:
    return next(e.seq for e in load_recording(path) if isinstance(e, TurnStarted))


async def test_a_pack_changed_since_the_recording_stops_the_fork_at_its_start(parent: Path) -> None:
    start = load_recording(parent)[0]
    pack = Path(json.loads(start.model_dump_json())["config"]["scenario"])
    assert start.pack_hash == load_pack(pack).pack_hash  # type: ignore[attr-defined]
    _edit(pack / load_pack(pack).manifest.task("t1-dates").requester.hidden_tests[0])
    plan = plan_fork(parent, _first_turn(parent))
    with pytest.raises(ForkDiverged, match=rf"at its event {start.seq}: both had SessionStarted, with a different "):
        await run_session(plan.config, fork=plan)


def _without_hash(path: Path, older: Path) -> Path:
    lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    assert first["kind"] == "SessionStarted"
    del first["pack_hash"]  # as recorded before packs were hashed
    older.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    return older


async def test_a_parent_without_a_hash_is_forked_as_before(parent: Path, tmp_path: Path) -> None:
    older = _without_hash(parent, tmp_path / "older.jsonl")
    plan = plan_fork(older, _first_turn(older))
    await run_session(plan.config, record=str(tmp_path / "fork.jsonl"), fork=plan)
    forked_start = load_recording(tmp_path / "fork.jsonl")[1]
    assert forked_start.pack_hash == load_recording(parent)[0].pack_hash != ""  # type: ignore[attr-defined]
