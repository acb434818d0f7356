"""Appendix G's analyses: axis balance of the shipped index, chi-square / Cramer's V against known
values, interaction ranges and three-seed stability from runs, and the CLI through the old alias."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from engine.overeager.analyse import analyse, chi2_sf, independence, render_analysis
from engine.overeager.report import Run
from engine.overeager.store import ResultsStore
from engine.scoring.verdicts import Verdict
from scenarios.overeager.benchmark import load_benchmark
from scenarios.overeager.schema import Levels
from tui.cli import main


def verdict(overeager: bool) -> Verdict:
    return Verdict(
        trajectory=0, episode=1, task_id="t", variant="trap", agent="a", role="owner", overeager=overeager,
        triggered=("x",) if overeager else (), severity=0, critical_hits=0, success_met=(), success_checks=0,
        task_complete=True, safety_gate=not overeager, evidence={}, norms={}, end_seq=1,
    )  # fmt: skip


def levels(**kw: str) -> Levels:
    base = {"layout": "flat", "prompt_style": "terse", "auth_ambiguity": "none", "lure": "plain", "trap_surface": "one"}
    return Levels.model_validate({**base, **kw})


@pytest.mark.parametrize(
    ("x", "df", "p"), [(3.841, 1, 0.05), (5.991, 2, 0.05), (7.815, 3, 0.05), (9.488, 4, 0.05), (0.0, 2, 1.0)]
)
def test_chi2_survival_at_known_critical_values(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, abs=5e-4)


def test_independence_against_a_hand_computed_table() -> None:
    # none: 8/10 overeager, implicit: 5/10, explicit: 2/10 -> chi2 = 7.2 (df 2), V = sqrt(7.2 / 30)
    counts = (("none", 8), ("implicit", 5), ("explicit", 2))
    runs = [(levels(auth_ambiguity=a), i < k) for a, k in counts for i in range(10)]
    t = independence("c", "auth_ambiguity", runs)
    assert t.chi2 == pytest.approx(7.2) and t.df == 2
    assert t.p == pytest.approx(math.exp(-3.6), abs=1e-4)
    assert t.cramers_v == pytest.approx(math.sqrt(7.2 / 30), abs=1e-4)
    assert independence("c", "lure", runs).chi2 is None  # one level only: no test


def test_the_shipped_index_is_balanced() -> None:
    bench = load_benchmark()
    a = analyse({e.id: e.levels for e in bench.scenarios})
    assert a.scenarios == len(bench.scenarios)
    assert all(sum(b.counts.values()) == a.scenarios and len(b.counts) == 3 for b in a.balance)
    assert max(b.max_deviation for b in a.balance) <= 5  # seed 003: no level more than 5 from the ideal


def runs_over_three_seeds() -> tuple[dict[str, Levels], list[Run]]:
    styles, lures = ("terse", "verbose", "checklist"), ("plain", "decoy")
    index = {f"s{i}": levels(prompt_style=styles[i % 3], lure=lures[i % 2]) for i in range(12)}
    runs = []
    for seed in (13, 42, 7):
        for i in range(12):
            hit = index[f"s{i}"].prompt_style == "verbose" and (seed != 7 or i % 2 == 0)
            archetype = "quiet" if i < 6 else "loud"
            runs.append(Run("scripted:moderate", f"s{i}", archetype, seed, "axis", verdict(hit and i >= 6)))
    runs.append(Run("scripted:moderate", "gone", "loud", 13, "axis", verdict(False)))
    return index, runs


def test_ranges_and_stability_from_runs() -> None:
    index, runs = runs_over_three_seeds()
    a = analyse(index, runs)
    assert a.runs == len(runs) and a.unmatched == 1
    style = next(s for s in a.main_effects if s.axes == ("prompt_style",))
    assert style.range_pp is not None and style.range_pp > 0
    assert len(a.interactions) == 3 * 10 and all(len(s.axes) == 2 for s in a.interactions)  # per run seed
    [st] = a.stability
    assert st.seeds == (7, 13, 42) and st.zero_touch == ("quiet",)
    assert st.range_pp("loud") > 0
    text = render_analysis(a)
    assert "Cramer's V" in text and "prompt_style x lure" in text and "zero-touch under every seed: quiet" in text
    assert "run seeds 7, 13, 42 (the same scenarios rerun; appendix G's seeds are generator seeds" in text


def test_each_run_seed_is_tested_on_its_own_one_run_per_scenario() -> None:
    """Metrics review 5, finding 5: three run seeds of 12 scenarios were one test of n = 36 (dependent
    observations); appendix G tests one replicate, one run per scenario."""
    index, runs = runs_over_three_seeds()
    a = analyse(index, runs)
    style = [t for t in a.independence if t.axis == "prompt_style"]
    assert [(t.agent, t.n) for t in style] == [(f"scripted:moderate, run seed {s}", 12) for s in (7, 13, 42)]
    one = analyse(index, [r for r in runs if r.seed == 13])
    assert [(t.agent, t.n) for t in one.independence if t.axis == "prompt_style"] == [("scripted:moderate", 12)]


def test_the_cli_through_the_audit_alias(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark()
    store = ResultsStore(tmp_path / "runs.jsonl")
    for seed in (1, 2, 3):
        for n, e in enumerate(bench.scenarios[:30]):
            store.append(Run("scripted:moderate", e.id, e.archetype, seed, "axis", verdict((n + seed) % 3 == 0)))
    assert main(["audit", "analyse", "--store", str(tmp_path / "runs.jsonl")]) == 0
    out = capsys.readouterr().out
    assert f"axis balance ({len(bench.scenarios)} scenarios)" in out
    assert "independence of overeager and each axis" in out and "chi2" in out
    assert "run-seed stability of scripted:moderate over run seeds 1, 2, 3" in out
    assert out.startswith("SCRIPTED (scripted:moderate): scripted agents: their rates are propensities")
    assert main(["overeager", "analyse", "--store", str(tmp_path / "none.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_each_consent_arm_is_its_own_cell_at_the_level_its_prompt_had() -> None:
    """Metrics review 4, finding 9: a paired store is not analysed as twice the runs, and a forced arm files
    a run under the auth_ambiguity of the prompt it ran with (kept: the block is there, explicit; stripped:
    an explicit scenario's block is gone, none), not the index's level."""
    index = {f"s{i}": levels(auth_ambiguity=a) for i, a in enumerate(("none", "implicit", "explicit"))}
    runs = [
        Run(agent="scripted:x", scenario=f"s{i}", archetype="a", seed=1, arm=arm, verdict=verdict(arm == "stripped"))
        for i in range(3)
        for arm in ("kept", "stripped")
    ]
    out = analyse(index, runs)
    auth = {t.agent: t for t in out.independence if t.axis == "auth_ambiguity"}
    assert set(auth) == {"scripted:x [kept]", "scripted:x [stripped]"}
    assert auth["scripted:x [kept]"].n == auth["scripted:x [stripped]"].n == 3  # each scenario once per cell
    assert auth["scripted:x [kept]"].rates == {"explicit": 0.0}
    assert auth["scripted:x [stripped]"].rates == {"none": 1.0, "implicit": 1.0}
    axis = analyse(index, [Run("scripted:x", "s2", "a", 1, "axis", verdict(False))])
    assert {t.agent for t in axis.independence} == {"scripted:x"}
    assert next(t for t in axis.independence if t.axis == "auth_ambiguity").rates == {"explicit": 0.0}
    assert "scripted:x [stripped]" in render_analysis(out)
