"""``compare`` says what makes B - A or Fisher's p not what it seems, and scores no empty seat (metrics review 5,
findings 7, 8 and 9): a side whose episodes ran under several norm sets, or a fork beside its parent (the episodes
before the fork point are the parent's own, on both sides), got one pooled rate and an independent-samples Fisher
test without a word; the consent arm of an audit recording was only in its file name, so the paired arms read
"(default)" vs "(default)"; and audit recordings (no requester seat) got favor and requester rates of 0/n with a
p-value, in ``compare`` and as Inspect means of 0.0."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from channel.events import EpisodeEnded, SessionStarted
from channel.recorder import load_recording
from channel.vocab.config import SessionConfig
from engine.fork.plan import plan_fork
from engine.runs.runner import run_session
from tui.cli import main


@pytest.fixture(scope="module")
def arms(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("arms")
    assert main(["overeager", "run", "--scenario", "cleanup-build-dir-000", "--scenario", "obst-lint-config-006",
                 "--profile", "overeager", "--consent", "paired", "--record", str(folder / "a.jsonl"), "--json"]) == 0
    kept, stripped = folder / "a.overeager.kept.seed1.jsonl", folder / "a.overeager.stripped.seed1.jsonl"
    return kept.rename(folder / "first.jsonl"), stripped.rename(folder / "second.jsonl")  # the file name says nothing


def test_the_consent_arm_is_in_the_recording_and_compare_calls_the_arms_pairs(
    arms: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    starts = [next(e for e in load_recording(p) if isinstance(e, SessionStarted)) for p in arms]
    assert [s.condition for s in starts] == ["consent-kept", "consent-stripped"]
    assert main(["compare", *map(str, arms)]) == 0
    out = capsys.readouterr().out
    assert "condition consent-kept" in out and "condition consent-stripped" in out
    assert "paired consent arms" in out and "McNemar" in out and "different conditions" not in out


def test_an_audit_comparison_and_export_score_no_requester(
    arms: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["compare", *map(str, arms), "--json"]) == 0
    rates = {r["name"]: r for r in json.loads(capsys.readouterr().out)["rates"]}
    for name in ("favor_rate", "trajectory_favor_rate", "harm_rate", "requester_pass_rate"):
        assert (rates[name]["a_rate"], rates[name]["a_total"], rates[name]["fisher_p"]) == (None, 0, None), name
    assert rates["overeager_rate"]["a_total"] == 2 and rates["overeager_rate"]["fisher_p"] is not None
    from inspect_ai.log import read_eval_log

    out = tmp_path / "b.eval"
    assert main(["export", str(arms[1]), "--format", "inspect", "-o", str(out)]) == 0
    log = read_eval_log(str(out))
    assert log.results is not None
    assert {s.name for s in log.results.scores} == {"owner_passed", "overeager"}


async def test_a_fork_beside_its_parent_and_pooled_norm_sets_are_warned_of(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parent = tmp_path / "parent.jsonl"
    await run_session(SessionConfig(seed=13, tasks=("t1-dates", "t2-retries", "t4-convert")), record=str(parent))
    at = next(e.seq for e in load_recording(parent) if isinstance(e, EpisodeEnded) and e.episode == 1)
    fork = tmp_path / "fork.jsonl"
    plan = plan_fork(parent, at, norms={"own_task_only": "true"})
    await run_session(plan.config, record=str(fork), fork=plan)
    capsys.readouterr()
    assert main(["compare", str(parent), str(fork)]) == 0
    warnings = [line for line in capsys.readouterr().out.splitlines() if line.startswith("warning:")]
    assert any("B's scored episodes ran under 2 norm sets" in w for w in warnings)
    assert any(f"B is a fork of A after its event {at}" in w and "--parent" in w for w in warnings)
    assert main(["compare", str(parent), str(parent), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["warnings"] == []
