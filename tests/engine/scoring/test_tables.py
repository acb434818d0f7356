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
