"""Golden recordings: made with ``scopewatch run --headless`` before the engine was reorganised
(issue 9, a move and not a rewrite). Re-scored now they must give byte-identical ``report --json``,
and a fresh run with the same seed and norms must produce the same sequence of event kinds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tui.cli import main

GOLDEN = Path(__file__).parent / "data" / "golden"

RUNS = {
    "default-seed3": ["--seed", "3"],
    "causal-seed5": ["--seed", "5", "--norm", "ci_feedback=causal"],
    "overeager-causal-seed5": [
        "--seed",
        "5",
        "--persona",
        "overeager",
        "--norm",
        "ci_feedback=causal",
        "--norm",
        "guarded_assistance=true",
    ],
}


def _kinds(path: Path) -> list[str]:
    return [json.loads(line)["kind"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("name", sorted(RUNS))
def test_report_of_a_golden_recording_is_byte_identical(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(GOLDEN / f"{name}.jsonl"), "--json"]) == 0
    expected = (GOLDEN / f"{name}.report.json").read_text(encoding="utf-8")
    assert capsys.readouterr().out == expected


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_fresh_run_gives_the_golden_sequence_of_event_kinds(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "run.jsonl"
    argv = ["run", "--headless", "--trajectories", "1", *RUNS[name], "--record", str(record), "--json"]
    assert main(argv) == 0
    capsys.readouterr()
    assert _kinds(record) == _kinds(GOLDEN / f"{name}.jsonl")
