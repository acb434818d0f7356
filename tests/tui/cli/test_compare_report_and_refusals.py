"""The command line of issue 12: the safe reviewer, the pack's norm defaults, compare, partial
recordings, and the inputs it refuses."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.runs.runner import run_session
from engine.scoring.stats import fisher_exact
from scenarios.loader import load_pack
from tui.cli import main

ROOT = Path(__file__).resolve().parents[3]
STARTED = '"kind":"EpisodeStarted"'


@pytest.mark.parametrize(("reviewer", "harmful"), [("available", False), ("naive", True)])
def test_the_safe_reviewer_harms_nobody_and_the_naive_one_does(
    reviewer: str, harmful: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", "--headless", "--seed", "3", "--norm", f"reviewer={reviewer}", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["reviewer_harm"] > 0) is harmful
    assert data["requester_pass_rate"] > 0.5  # the reviewer is how requesters get their change


def test_prompts_show_has_no_consent_block_on_a_favorbench_pack(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["prompts", "show", "--role", "owner"]) == 0
    out = capsys.readouterr().out
    assert "Scope of consent" not in out and "consent_block=false" in out
    assert main(["prompts", "show", "--role", "owner", "--norm", "consent_block=true"]) == 0
    assert "Scope of consent" in capsys.readouterr().out
    # A pack that turns it on in its [norms] (seed 003's packs) shows it by default.
    pack = tmp_path / "pack"
    shutil.copytree(load_pack("favorbench-mini").folder, pack)
    manifest = pack / "scenario.toml"
    manifest.write_text(manifest.read_text().replace("consent_block = false", "consent_block = true"))
    assert main(["prompts", "show", "--scenario", str(pack)]) == 0
    assert "Scope of consent" in capsys.readouterr().out


def test_a_bad_pack_norm_is_one_line_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(load_pack("favorbench-mini").folder, pack)
    manifest = pack / "scenario.toml"
    manifest.write_text(manifest.read_text().replace("consent_block = false", "consent_block = 7"))
    assert main(["prompts", "show", "--scenario", str(pack)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "scenario.toml: norms.consent_block: norm consent_block" in err


async def test_compare_prints_fisher_p_for_the_favor_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = ("t1-dates", "t2-retries-twin", "t3-total", "t4-convert-twin")
    a, b = tmp_path / "default.jsonl", tmp_path / "own.jsonl"
    await run_session(SessionConfig(tasks=tasks, trajectories=1, seed=3), record=str(a))
    await run_session(
        SessionConfig(tasks=tasks, trajectories=1, seed=3, norms=Norms(own_task_only=True)), record=str(b)
    )
    assert main(["compare", str(a), str(b), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    favor = next(r for r in data["rates"] if r["name"] == "favor_rate")
    assert favor["b_count"] == 0 and favor["a_count"] > 0
    assert favor["fisher_p"] == pytest.approx(fisher_exact(favor["a_count"], 4, 0, 4))
    assert "own_task_only=true" in data["b"]
    assert main(["compare", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "fisher_p" in out and "favor_rate" in out


def test_report_on_a_recording_cut_by_sigkill_says_partial(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "cut.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "tui.cli", "run", "--headless", "--record", str(record)]
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # Until the third episode has begun (a sentinel in the file, not a clock: on a loaded machine the
        # run's start-up alone can take a good part of the 60 s once allowed here); pytest-timeout bounds a hang.
        while proc.poll() is None and not (record.exists() and record.read_text().count(STARTED) >= 3):
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the run ended before its third episode began"
    assert main(["report", str(record), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["partial"] is True and data["cut_episode"].startswith("episode ")
    assert main(["report", str(record)]) == 0
    assert capsys.readouterr().out.startswith("PARTIAL")


@pytest.mark.parametrize("speed", ["nan", "inf", "-1", "0"])
def test_replay_refuses_a_speed_that_is_not_a_finite_positive_number(
    speed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["replay", "x.jsonl", "--speed", speed])
    assert caught.value.code == 2 and "--speed" in capsys.readouterr().err


def test_run_headless_refuses_bus(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--headless", "--bus", "mqtt://localhost:1883"]) == 2
    assert "scopewatch serve --bus" in capsys.readouterr().err
