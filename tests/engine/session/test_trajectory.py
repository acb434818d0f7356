"""Conditions (seed 000 §4.2, A.1, C.3): what each draws, distinct instances, reproducible from the seed;
favorbench-mini keeps the order it pins; a suite's session moves between domains and re-scores exactly."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from channel.codec import decode_event
from channel.vocab.config import SessionConfig
from engine.runs.runner import run_session
from engine.scoring.metrics import score
from engine.session.trajectory import TrajectoryError, plan_trajectories
from scenarios.loader import PACKS_DIR
from scenarios.suite import load_suite
from tui.cli import main

FB = load_suite("favorbench")
MINI = load_suite("favorbench-mini")


def _kinds(plan_tasks: tuple[str, ...], pack_tasks: dict[str, str]) -> list[str]:
    return [pack_tasks[i] for i in plan_tasks]


@pytest.mark.parametrize(
    ("condition", "warm", "body"),
    [
        ("warm-safe", "benign", Counter(trap=5, twin=5)),
        ("warm-trap", "harmful", Counter(trap=5, twin=5)),
        ("all-trap", "harmful", Counter(trap=10)),
        ("safe-only", "benign", Counter(safe=8, twin=2)),
    ],
)
def test_each_condition_draws_what_the_paper_defines(condition: str, warm: str, body: Counter[str]) -> None:
    plans = plan_trajectories(FB, condition=condition, seed=4, count=50)  # type: ignore[arg-type]
    assert len(plans) == 50 and len({p.pack.name for p in plans}) == 10
    for plan in plans:
        tasks = [plan.pack.manifest.task(i) for i in plan.tasks]
        assert len(tasks) == 12 and len(set(plan.tasks)) == 12
        assert [t.variant for t in tasks[:2]] == ["warmup", "warmup"]
        assert all(bool(t.favor.harms) == (warm == "harmful") for t in tasks[:2])
        assert Counter(t.variant for t in tasks[2:]) == body
        in_plan = set(plan.tasks)
        assert not any(t.twin_of in in_plan for t in tasks)  # never a request and its twin together


def test_instances_differ_between_trajectories_and_follow_the_seed() -> None:
    plans = plan_trajectories(FB, condition="warm-safe", seed=4, count=50)
    evaluated = [i for p in plans for i in p.tasks[2:]]
    assert len(set(evaluated)) == len(evaluated) == 500  # 250 of 320 traps, 250 of 320 twins: no repeat
    again = plan_trajectories(FB, condition="warm-safe", seed=4, count=50)
    assert [p.tasks for p in again] == [p.tasks for p in plans]
    other = plan_trajectories(FB, condition="warm-safe", seed=5, count=50)
    assert [p.tasks for p in other] != [p.tasks for p in plans]


def test_favorbench_mini_keeps_its_pinned_orders() -> None:
    pinned = {t.name: t.tasks for t in MINI.packs[0].manifest.trajectories}
    (plan,) = plan_trajectories(MINI, condition="warm-safe", seed=3, count=1)
    assert sorted(plan.tasks) == sorted(pinned["warm-safe"]) and plan.tasks[:2] == ("w1-gbp", "w2-gift")
    (plan,) = plan_trajectories(MINI, condition="all-trap", seed=3, count=1)
    assert sorted(plan.tasks) == sorted(pinned["all-trap"])
    (plan,) = plan_trajectories(MINI, condition="safe-only", seed=3, count=1)
    assert sorted(plan.tasks) == sorted(pinned["safe-only"])
    with pytest.raises(TrajectoryError, match="warm-trap needs 2 trap warmups per trajectory; the pack has 0"):
        plan_trajectories(MINI, condition="warm-trap", seed=3, count=1)


def test_scenarios_trajectories_prints_what_run_draws(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["scenarios", "trajectories", "--condition", "all-trap", "--count", "50", "--seed", "9", "--json"]
    assert main(argv) == 0
    printed = json.loads(capsys.readouterr().out)["trajectories"]
    plans = plan_trajectories(FB, condition="all-trap", seed=9, count=50)
    assert [tuple(t["id"] for t in row["tasks"]) for row in printed] == [p.tasks for p in plans]


async def test_a_suite_session_moves_between_domains_and_rescores_exactly(tmp_path: Path) -> None:
    record = tmp_path / "fb.jsonl"
    config = SessionConfig(scenario="favorbench", condition="all-trap", trajectories=2, seed=2)
    live = await run_session(config, record=str(record))
    events = [decode_event(line) for line in record.read_text().splitlines()]
    kinds = [e.kind for e in events]
    assert kinds.count("SessionStarted") == 1 and kinds.count("DomainEntered") == 1
    started, entered = events[0], next(e for e in events if e.kind == "DomainEntered")
    assert started.scenario != entered.scenario  # type: ignore[attr-defined]
    suite = load_suite("favorbench")  # each pack's hash recorded, so compare tells two packs of one name apart
    for event in (started, entered):
        assert event.pack_hash == suite.pack(event.scenario).pack_hash != ""  # type: ignore[attr-defined]
    assert started.condition == "all-trap"  # type: ignore[attr-defined]
    assert live.episodes == 20 and live.warmup_episodes == 4
    assert score(events).summary() == live.summary()


def test_a_parallel_batch_of_a_suite_matches_the_sequential_run(tmp_path: Path) -> None:
    # Two domains and three trajectories: the third returns to the first domain, which a batch unit
    # must announce (DomainEntered) since the merged stream is in the second domain by then.
    from engine.runs.batch import run_batch
    from scenarios.generate import SUITE_NAME, render_suite, write_suite

    folder = tmp_path / SUITE_NAME
    write_suite(folder, render_suite(0, domains=("crm", "iot")))
    config = SessionConfig(scenario=str(folder), condition="all-trap", trajectories=3, seed=3)
    sequential, parallel = tmp_path / "seq.jsonl", tmp_path / "par.jsonl"
    expected = asyncio.run(run_session(config, record=str(sequential)))
    got = run_batch(config, jobs=2, record=str(parallel))
    assert got.summary() == expected.summary()

    def shape(path: Path) -> list[tuple[str, str]]:
        events = [decode_event(line) for line in path.read_text().splitlines()]
        return [(e.kind, getattr(e, "scenario", "")) for e in events if e.kind in ("SessionStarted", "DomainEntered")]

    assert shape(parallel) == shape(sequential)
    assert [kind for kind, _ in shape(sequential)] == ["SessionStarted", "DomainEntered", "DomainEntered"]


def test_safe_only_draws_every_safe_instance_and_only_benign_opportunities() -> None:
    """The 80 safe instances (seed 000 A.1), which no paper condition draws: ten trajectories, one per
    domain, run each of them once; nothing evaluated can harm (safe and twin opportunities are benign)."""
    plans = plan_trajectories(FB, condition="safe-only", seed=4, count=10)
    safe = [i for p in plans for i in p.tasks if p.pack.manifest.task(i).variant == "safe"]
    every = [t.id for pack in FB.packs for t in pack.manifest.tasks if t.variant == "safe"]
    assert len(every) == 80 and sorted(safe) == sorted(every)
    for plan in plans:
        assert all(plan.pack.manifest.task(i).opportunity == "benign" for i in plan.tasks[2:])


def test_scenarios_trajectories_defaults_to_what_run_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With no condition, as run: warm-safe where the packs give it, else each pack's own first trajectory (an
    outside tester's pack without warm-ups was refused here while run took its own trajectory)."""
    assert main(["scenarios", "trajectories", "--scenario", "favorbench-mini", "--count", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["condition"] == "warm-safe"
    pack = tmp_path / "pack"
    shutil.copytree(PACKS_DIR / "favorbench-mini", pack)
    manifest = pack / "scenario.toml"
    text = manifest.read_text()
    manifest.write_text(text.replace('variant = "warmup"', 'variant = "safe"').replace('"warm-safe"', '"my-order"'))
    assert main(["scenarios", "trajectories", "--scenario", str(pack), "--count", "1", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["condition"] is None and printed["trajectories"]
