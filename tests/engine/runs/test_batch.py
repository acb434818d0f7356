"""Batches of units in parallel (issue 15): trajectories, a suite's packs, the audit gates' batches
and the audit sessions give on local worker processes and on Ray what one job gives."""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import scenarios.catalog
from channel.events import EpisodeEnded, Event, FavorChecked, FileChanged, SessionEnded, SessionStarted
from channel.recorder import read_recording
from channel.vocab.config import SessionConfig
from engine.overeager import gates as overeager_gates
from engine.runs.batch import _BatchSuites, batch_episodes, batchable, merge, run_batch
from engine.runs.runner import run_session
from engine.scoring.metrics import score
from engine.validation.suites import _files, validate_suite, validate_unit
from scenarios.generate.tomlwrite import dumps
from scenarios.loader import PACKS_DIR, load_pack
from scenarios.suite import load_suite
from tui.cli import main

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


async def test_an_audit_sessions_trajectories_batch_as_a_favor_sessions_do(tmp_path: Path) -> None:
    """--jobs works on every episode kind: an audit scenario's trajectories, as two worker processes,
    merge into the stream a sequential run gives (same event kinds, same verdicts, same metrics)."""
    from channel.events import VerdictReached
    from scenarios.overeager.benchmark import load_benchmark

    config = SessionConfig(scenario=load_benchmark().scenarios[0].id, persona="overeager", trajectories=2)
    sequential, parallel = tmp_path / "seq.jsonl", tmp_path / "par.jsonl"
    expected = await run_session(config, record=str(sequential))
    assert batchable(config) and batch_episodes(config) == 2
    got = run_batch(config, jobs=2, record=str(parallel))
    assert got.summary() == expected.summary()
    seq_events, par_events = list(read_recording(sequential)), list(read_recording(parallel))
    assert _kinds(par_events) == _kinds(seq_events)

    def verdicts(events: list[Event]) -> list[tuple[int, bool, tuple[str, ...]]]:
        return [(e.episode, e.overeager, e.triggered) for e in events if isinstance(e, VerdictReached)]

    assert verdicts(par_events) == verdicts(seq_events) and len(verdicts(seq_events)) == 2


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


def _small_suite(tmp_path: Path) -> Path:
    """Two FavorBench domains cut to a warm-up, a trap and its twin each; crm's traps name an unknown
    atom, so its (traps) check fails (a failure must come back the same as well)."""
    suite = tmp_path / "two-domains"
    for domain in ("clinic", "crm"):
        shutil.copytree(PACKS_DIR / "favorbench" / domain, suite / domain)
        manifest = suite / domain / "scenario.toml"
        data = tomllib.loads(manifest.read_text())
        trap = next(t for t in data["tasks"] if t["variant"] == "trap")
        kept = [next(t for t in data["tasks"] if t["variant"] == "warmup"), trap]
        kept += [t for t in data["tasks"] if t.get("twin_of") == trap["id"]]
        data["tasks"] = kept
        text = dumps(data)
        manifest.write_text(text.replace('"git_push_protected"', '"git_push_to_the_moon"') if domain == "crm" else text)
    (suite / "suite.toml").write_text('name = "two-domains"\ndomains = ["clinic", "crm"]\n')
    return suite


def _validate(suite: Path, capsys: pytest.CaptureFixture[str], *options: str) -> tuple[dict[str, object], str]:
    assert main(["scenarios", "validate", str(suite), "--json", *options]) == 1
    report = json.loads(capsys.readouterr().out)
    for pack in report["packs"]:
        pack.pop("seconds")
    assert main(["scenarios", "validate", str(suite), *options]) == 1
    text = re.sub(r"\d+\.\d s\)", "T s)", capsys.readouterr().out)
    return report, text


def test_scenarios_validate_with_two_jobs_prints_what_one_job_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = _small_suite(tmp_path)
    one = _validate(suite, capsys, "--jobs", "1")
    assert _validate(suite, capsys, "--jobs", "2") == one
    report, text = one
    packs = report["packs"]
    assert isinstance(packs, list) and [(p["pack"], p["ok"], p["tasks"]) for p in packs] == [
        ("favorbench/clinic", True, 3),
        ("favorbench/crm", False, 3),
    ]
    assert "favorbench/crm: FAIL (traps):" in text and "git_push_to_the_moon" in text
    assert text.endswith("2 packs, 6 tasks: 1 check FAILED (T s)\n")


def test_a_pack_unit_on_a_node_without_its_folder_gets_its_files(tmp_path: Path) -> None:
    folder = _small_suite(tmp_path) / "crm"
    here = validate_unit(str(folder), 10.0)
    elsewhere = validate_unit(str(tmp_path / "not-on-this-node"), 10.0, files=_files(folder))
    assert not here.ok and any(str(folder) in p for c in here.checks for p in c.problems)
    moved = str(folder).replace(str(folder), str(tmp_path / "not-on-this-node"))
    assert [c.model_dump() for c in elsewhere.checks] == [
        c.model_copy(update={"problems": tuple(p.replace(str(folder), moved) for p in c.problems)}).model_dump()
        for c in here.checks
    ]


def test_audit_validate_and_run_with_two_jobs_print_what_one_job_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(overeager_gates, "CHUNK", 4)  # the 6 candidates and the planted bad one: two units
    outputs: dict[str, list[dict[str, object]]] = {}
    for jobs in ("1", "2"):
        assert main(["audit", "validate", "--sample", "6", "--json", "--jobs", jobs]) == 0
        validated = json.loads(capsys.readouterr().out)
        validated.pop("seconds")
        record = tmp_path / f"audit-{jobs}.jsonl"
        assert main(["audit", "run", "--limit", "3", "--json", "--jobs", jobs, "--record", str(record)]) == 0
        outputs[jobs] = [validated, json.loads(capsys.readouterr().out)]
        recorded = [tmp_path / f"audit-{jobs}.{p}.axis.seed1.jsonl" for p in ("cautious", "moderate", "overeager")]
        kinds = [[(e.kind, getattr(e, "episode", 0)) for e in read_recording(path)] for path in recorded]
        outputs[jobs].append({"kinds": kinds})
    assert outputs["2"] == outputs["1"]
    validated, ran, recorded = outputs["1"]
    assert validated["accepted"] == 6 and validated["planted_bad"]["rejected"]  # type: ignore[index]
    assert [a["agent"] for a in ran["agents"]] == ["scripted:cautious", "scripted:moderate", "scripted:overeager"]  # type: ignore[attr-defined]
    kinds = recorded["kinds"]
    assert isinstance(kinds, list) and [[k for k, _ in one].count("VerdictReached") for one in kinds] == [3, 3, 3]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["scenarios", "validate", "favorbench-mini", "--jobs", "0"], "--jobs: must be at least 1, got 0"),
        (["audit", "validate", "--jobs", "two"], "--jobs: expected a whole number, got 'two'"),
        (["audit", "run", "--executor", "slurm"], "--executor: 'slurm' is not local, ray or ray://HOST:PORT"),
    ],
)
def test_a_bad_jobs_or_executor_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_ray_executor_validates_a_suite_as_one_job_does(local_ray: None, tmp_path: Path) -> None:
    suite = load_suite(_small_suite(tmp_path))
    seen: list[str] = []
    on_ray = validate_suite(suite, jobs=2, executor="ray", on_task=seen.append)
    here = validate_suite(suite, jobs=1)
    assert [r.model_dump(exclude={"seconds"}) for r in on_ray] == [r.model_dump(exclude={"seconds"}) for r in here]
    assert sorted(seen) == ["favorbench/clinic"] * 3 + ["favorbench/crm"] * 3


def test_a_worker_loads_a_batch_s_suite_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def load(name: str) -> Any:
        calls.append(name)
        return object()

    monkeypatch.setattr(scenarios.catalog, "session_suite", load)
    suites = _BatchSuites()
    first, again = suites.of("b-1")("favorbench"), suites.of("b-1")("favorbench")
    other = suites.of("b-2")("favorbench")
    assert first is again and other is not first and calls == ["favorbench", "favorbench"]
