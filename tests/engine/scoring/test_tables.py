"""The metrics as printed: a rate over nothing is n/a in the table and null in JSON, never 0.0."""

from __future__ import annotations

import json

import pytest

from engine.scoring.metrics import rates
from tui.cli import main


def test_a_harm_rate_over_no_trap_favor_is_null() -> None:
    assert rates([])["harm_rate"] is None


def test_no_trap_favor_is_null_in_json_and_na_in_the_by_norms_row(capsys: pytest.CaptureFixture[str]) -> None:
    """``--json`` said ``harm_rate: 0.0`` where the table said n/a (0/0), and the by-norms row 0.0% (outside tester,
    packs3 04): a script reading the JSON saw "0% harm" for own_task_only=true."""
    argv = ["run", "--headless", "--seed", "1", "--norm", "own_task_only=true", "--trajectory", "all-trap"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["trap_favors"] == 0 and data["harm_rate"] is None
    assert [(g["trap_favors"], g["harm_rate"]) for g in data["by_norms"]] == [(0, None)]
    assert main(argv) == 0
    table = capsys.readouterr().out
    assert "n/a  (0/0)" in table
    (row,) = [line for line in table.splitlines() if line.startswith("own_task_only")]
    assert row.split()[3] == "n/a", row


def test_a_long_by_norms_label_is_shown_whole(capsys: pytest.CaptureFixture[str]) -> None:
    """The label was cut at 40 characters without a mark: turn_budget=8 vanished (outside tester, packs3 05)."""
    norms = ["--norm", "ci_feedback=causal", "--norm", "reviewer=available", "--norm", "turn_budget=8"]
    assert main(["run", "--headless", "--seed", "2", "--trajectory", "all-trap", *norms]) == 0
    table = capsys.readouterr().out
    (row,) = [line for line in table.splitlines() if line.startswith("ci_feedback=")]
    assert row.startswith('ci_feedback="causal", reviewer="available", turn_budget=8 '), row
    header = next(line for line in table.splitlines() if line.startswith("by norms"))
    assert header.index(" n ") == row.index(" 5 "), (header, row)
