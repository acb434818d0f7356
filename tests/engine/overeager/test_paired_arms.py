"""``overeager run --consent paired`` reports each consent arm on its own (metrics review 4, finding 1):
no rate, interval or Fisher test pools the kept and stripped runs of one scenario and seed (seed 003
Table 1 reports the arms apart; Table 7's Fisher p-values compare cells on one prompt condition)."""

from __future__ import annotations

import json
from math import comb

import pytest

from engine.overeager.report import Run, audit_report
from engine.scoring.verdicts import Verdict
from tui.cli import main


def _run(agent: str, scenario: int, arm: str, overeager: bool) -> Run:
    verdict = Verdict(
        trajectory=1, episode=1, task_id=f"s{scenario}", variant="trap", agent="agent", role="agent",
        overeager=overeager, triggered=("t",) if overeager else (), severity=int(overeager), critical_hits=0,
        success_met=(), success_checks=0, task_complete=True, safety_gate=not overeager, evidence={}, norms={},
        end_seq=1,
    )  # fmt: skip
    return Run(agent=agent, scenario=f"s{scenario}", archetype="cleanup", seed=1, arm=arm, verdict=verdict)


def _fisher(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided Fisher's exact p, written out again here."""
    k = k1 + k2
    w = {x: comb(n1, x) * comb(n2, k - x) for x in range(max(0, k - n2), min(k, n1) + 1)}
    return sum(v for v in w.values() if v <= w[k1]) / comb(n1 + n2, k)


def _runs() -> list[Run]:
    """12 scenarios: a never overeager; b overeager on 3 kept and 6 stripped runs (the reviewer's numbers:
    pooled 0/24 vs 9/24 would be 'significant', each arm alone is not)."""
    runs = []
    for s in range(12):
        for arm in ("kept", "stripped"):
            runs.append(_run("scripted:a", s, arm, False))
            runs.append(_run("scripted:b", s, arm, s < (3 if arm == "kept" else 6)))
    return runs


def test_each_arm_is_its_own_row_and_no_row_pools_them() -> None:
    report = audit_report(_runs(), consent="paired")
    assert report["arms"] == ["kept", "stripped"]
    rows = {(row["agent"], row["arm"]): row for row in report["agents"]}
    assert list(rows) == [("scripted:a", "kept"), ("scripted:a", "stripped"), ("scripted:b", "kept"),
                          ("scripted:b", "stripped")]  # fmt: skip
    assert all(row["runs"] == 12 for row in rows.values())  # one run per scenario and seed, never 24
    kept, stripped = rows["scripted:b", "kept"], rows["scripted:b", "stripped"]
    assert (kept["overeager"], kept["overeager_rate"], stripped["overeager"], stripped["overeager_rate"]) == (
        3, 0.25, 6, 0.5
    )
    assert kept["paired"] is stripped["paired"] and kept["paired"]["pairs"] == 12
    assert kept["paired"]["kept"]["overeager"] == 3 and kept["paired"]["difference"] == 0.25
    assert {(row["archetype"], row["arm"]) for row in report["by_archetype"]} == {
        ("cleanup", "kept"), ("cleanup", "stripped")
    }  # fmt: skip
    assert all(cell["runs"] == 12 for row in report["by_archetype"] for cell in row["cells"].values())


def test_fisher_compares_agents_within_one_arm() -> None:
    report = audit_report(_runs(), consent="paired")
    by_arm = {f["arm"]: f for f in report["fisher"]}
    assert len(report["fisher"]) == 2 and set(by_arm) == {"kept", "stripped"}
    assert by_arm["kept"]["fisher_p"] == pytest.approx(_fisher(0, 12, 3, 12))
    assert by_arm["stripped"]["fisher_p"] == pytest.approx(_fisher(0, 12, 6, 12))
    assert min(f["fisher_p"] for f in report["fisher"]) > 0.01 > _fisher(0, 24, 9, 24)  # what pooling claimed


def test_one_arm_keeps_one_row_per_agent() -> None:
    runs = [r for r in _runs() if r.arm == "stripped"]
    report = audit_report(runs, consent="stripped")
    assert [(row["agent"], row["arm"], row["runs"]) for row in report["agents"]] == [
        ("scripted:a", "stripped", 12), ("scripted:b", "stripped", 12)
    ]  # fmt: skip
    assert "paired" not in report["agents"][0] and len(report["fisher"]) == 1


def test_the_text_table_names_the_arm_of_each_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "run", "--agents", "scripted", "--consent", "paired", "--limit", "2", "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "scripted:cautious [kept]" in text and "scripted:cautious [stripped]" in text
    assert "(consent kept): p = " in text and "(consent stripped): p = " in text
    assert main(["audit", "run", "--agents", "scripted", "--consent", "paired", "--limit", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {row["runs"] for row in out["agents"]} == {2} and all(f["arm"] for f in out["fisher"])
