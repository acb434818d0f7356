"""The favor loop end to end, headless, on the built-in pack (issue 3's "Done when")."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from channel.commands import DecideReview, SetNorm
from channel.events import (
    EpisodeEnded,
    FileChanged,
    HarmDetected,
    NormChanged,
    ReviewDecided,
    ReviewRequested,
    SessionEnded,
    TurnStarted,
    WriteRefused,
)
from channel.memory import InProcessBus
from channel.recorder import Recorder, read_recording
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms, parse_assignments
from engine.runs.runner import run_session
from engine.scoring.metrics import score
from engine.session.loop import Session
from engine.session.trajectory import trajectory_order
from scenarios.loader import load_pack

PACK = load_pack("favorbench-mini")
TRAPS = [t for t in PACK.manifest.tasks if t.variant == "trap"]
TWINS = [t for t in PACK.manifest.tasks if t.variant == "twin"]


def config(**kw: object) -> SessionConfig:
    norms = kw.pop("norms", [])
    return SessionConfig(norms=parse_assignments(list(norms)), **kw)  # type: ignore[arg-type]


async def test_recording_rescored_gives_identical_metrics(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"
    live = await run_session(config(trajectories=1, seed=1), record=str(record))
    offline = score(read_recording(record))
    assert live.summary() == offline.summary()
    assert live.episodes == 10 and live.warmup_episodes == 2


async def test_same_seed_same_metrics_different_seed_different_trajectory() -> None:
    a = await run_session(config(seed=7))
    b = await run_session(config(seed=7))
    assert a.summary() == b.summary()
    assert trajectory_order(PACK, 7, 0) != trajectory_order(PACK, 8, 0)
    assert [lab.task_id for lab in a.labels] == trajectory_order(PACK, 7, 0)


async def test_own_task_only_removes_favors_and_keeps_owner_success() -> None:
    default = await run_session(config(trajectories=1, seed=3))
    scoped = await run_session(config(trajectories=1, seed=3, norms=["own_task_only=true"]))
    assert default.favor_rate is not None and default.favor_rate > 0
    assert scoped.favor_rate == 0
    assert scoped.owner_success == default.owner_success


async def test_no_shared_channel_means_no_volunteered_favors() -> None:
    m = await run_session(config(trajectories=1, seed=2, norms=["shared_channel=false"]))
    assert m.favor_types["volunteered"] == 0
    assert m.favors > 0  # direct requests by DM still get favors


async def collect(cfg: SessionConfig) -> list:
    bus = InProcessBus()
    session = Session(cfg, bus)
    events: list = []
    session.emitter.add_listener(events.append)
    await session.run()
    return events


@pytest.mark.parametrize("trap", TRAPS, ids=lambda t: t.id)
async def test_obvious_change_in_trap_harms_named_absent_team(trap) -> None:
    events = await collect(config(persona="helpful", tasks=(trap.id,)))
    harms = [e for e in events if isinstance(e, HarmDetected) and e.stage == "final"]
    assert harms, "the obvious change in a trap must break an absent team"
    assert {h.absent_team for h in harms} <= set(trap.favor.harms)
    assert all(h.author == "owner" and h.path in trap.favor.needs and h.diff for h in harms)
    assert all("::test_" in h.test for h in harms)


@pytest.mark.parametrize("trap", TRAPS, ids=lambda t: t.id)
async def test_safe_alternative_in_trap_harms_nobody(trap) -> None:
    events = await collect(config(persona="careful", tasks=(trap.id,)))
    assert any(isinstance(e, FileChanged) and e.actor == "owner" and e.path in trap.favor.needs for e in events)
    assert not [e for e in events if isinstance(e, HarmDetected)]
    end = next(e for e in events if isinstance(e, EpisodeEnded))
    assert end.passed == {"requester": True, "owner": True}


@pytest.mark.parametrize("twin", TWINS, ids=lambda t: t.id)
async def test_obvious_change_in_twin_harms_nobody(twin) -> None:
    events = await collect(config(persona="helpful", tasks=(twin.id,)))
    assert any(isinstance(e, FileChanged) and e.actor == "owner" and e.path in twin.favor.needs for e in events)
    assert not [e for e in events if isinstance(e, HarmDetected)]


async def test_norm_toggle_applies_from_next_turn() -> None:
    bus = InProcessBus()
    session = Session(config(tasks=(TRAPS[0].id, TWINS[0].id)), bus)
    events: list = []
    sent: list = []

    def on_event(event: object) -> None:
        events.append(event)
        if isinstance(event, TurnStarted) and event.turn == 2 and not sent:
            sent.append(event)
            asyncio.get_running_loop().create_task(
                bus.publish(SetNorm(session=session.id, key="admin_only", value=True))
            )

    session.emitter.add_listener(on_event)
    await session.run()
    changed = [e for e in events if isinstance(e, NormChanged)]
    assert len(changed) == 1 and changed[0].key == "admin_only" and changed[0].new is True
    # It is applied at a round boundary: right after it, the next turn starts.
    after = events[events.index(changed[0]) + 1]
    assert isinstance(after, TurnStarted)
    labels = score(events).labels
    assert labels[-1].norms["admin_only"] is True


async def test_human_reviewer_decides_and_change_lands() -> None:
    bus = InProcessBus()
    cfg = SessionConfig(norms=Norms(reviewer="human"), tasks=(PACK.manifest.tasks[0].id,))
    session = Session(cfg, bus)
    events: list = []

    def on_event(event: object) -> None:
        events.append(event)
        if isinstance(event, ReviewRequested) and event.to == "admin":
            asyncio.get_running_loop().create_task(
                bus.publish(DecideReview(session=session.id, request_id=event.request_id, decision="approved"))
            )

    session.emitter.add_listener(on_event)
    await asyncio.wait_for(session.run(), timeout=120)
    decided = [e for e in events if isinstance(e, ReviewDecided)]
    assert decided and decided[0].actor == "human" and decided[0].applied
    assert any(isinstance(e, FileChanged) and e.via == "review" and e.actor == "human" for e in events)
    assert isinstance(events[-1], SessionEnded) and events[-1].reason == "completed"


async def test_recorder_keeps_every_event(tmp_path: Path) -> None:
    bus = InProcessBus()
    recorder = Recorder(tmp_path / "s.jsonl")
    session = Session(config(tasks=(TRAPS[0].id,)), bus, recorder=recorder)
    events: list = []
    session.emitter.add_listener(events.append)
    await session.run()
    recorder.close()
    assert list(read_recording(tmp_path / "s.jsonl")) == events
    assert [e.seq for e in events] == list(range(1, len(events) + 1))


async def test_guarded_assistance_refuses_the_harmful_favor_and_lets_the_safe_one_land() -> None:
    trap = TRAPS[0]
    events = await collect(config(persona="helpful", tasks=(trap.id,), norms=["guarded_assistance=true"]))
    refused = [e for e in events if isinstance(e, WriteRefused)]
    assert refused and "guarded assistance" in refused[0].reason and refused[0].path in trap.favor.needs
    assert not [e for e in events if isinstance(e, HarmDetected)]
    events = await collect(config(persona="careful", tasks=(trap.id,), norms=["guarded_assistance=true"]))
    assert not [e for e in events if isinstance(e, WriteRefused)]
    assert any(isinstance(e, FileChanged) and e.actor == "owner" and e.path in trap.favor.needs for e in events)
