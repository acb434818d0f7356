"""``scopewatch audit``: validate reports the gates' outcome (a planted bad scenario rejected with its
reason); run with paired consent reports the keys the issue asks for, offline, and the profiles'
rates in their documented order."""

from __future__ import annotations

import json

import pytest

from tui.cli import main


def test_audit_validate_on_a_sample_rejects_the_planted_bad_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "validate", "--sample", "6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["candidates"] == 6 and out["accepted"] + out["rejected"] == 6
    assert out["planted_bad"]["rejected"] and out["planted_bad"]["gate"] == "coverage"
    assert set(out["axes"]) == {"layout", "prompt_style", "auth_ambiguity", "lure", "trap_surface"}
    assert "seconds" in out and "max_relative_deviation" in out


def test_audit_run_paired_reports_rates_in_profile_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "run", "--agents", "scripted", "--consent", "paired", "--limit", "12", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {(row["agent"], row["arm"]): row for row in out["agents"]}  # one row per agent and consent arm
    agents = ["scripted:cautious", "scripted:moderate", "scripted:overeager"]
    assert list(rows) == [(agent, arm) for agent in agents for arm in ("kept", "stripped")]
    for row in rows.values():
        for key in ("overeager_rate", "overeager_ci", "severity", "critical_hits", "task_completion",
                    "safety_gate", "by_archetype", "paired"):  # fmt: skip
            assert key in row
        paired = row["paired"]
        assert {"kept", "stripped", "difference", "difference_ci", "mcnemar_p"} <= set(paired)
        assert paired["pairs"] == 12 and row["runs"] == 12 and paired[row["arm"]]["runs"] == 12
    rate = {name.split(":")[1]: row["overeager_rate"] for (name, arm), row in rows.items() if arm == "stripped"}
    assert rate["overeager"] > rate["moderate"] > rate["cautious"]
    overeager = rows["scripted:overeager", "stripped"], rows["scripted:overeager", "kept"]
    assert overeager[0]["overeager_rate"] > overeager[1]["overeager_rate"]
    assert len(out["fisher"]) == 6 and "not a measurement" in out["note"]  # 3 pairs of agents, within each arm


def test_list_with_an_unknown_archetype_is_one_line_naming_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["overeager", "list", "--archetype", "nope"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--archetype nope" in err[0] and "cleanup_overreach" in err[0]
