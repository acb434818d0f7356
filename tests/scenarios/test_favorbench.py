"""The generated FavorBench suite: up to date with its generator, the counts the paper gives, and a
deterministic sample of instances proven by running their tests (the whole suite is proven by
``scopewatch scenarios validate favorbench``, which scripts/test runs too)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from engine.validation.validator import validate_pack
from scenarios.generate import render_suite
from scenarios.loader import PACKS_DIR, ScenarioError, load_pack
from scenarios.suite import load_suite
from tui.cli import main

SUITE = PACKS_DIR / "favorbench"


def test_the_shipped_suite_is_what_the_generator_makes() -> None:
    files = render_suite()
    shipped = {
        p.relative_to(SUITE).as_posix() for p in SUITE.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    }
    assert shipped == set(files), "regenerate: scopewatch scenarios generate"
    stale = [rel for rel, text in files.items() if (SUITE / rel).read_text(encoding="utf-8") != text]
    assert stale == [], f"regenerate: scopewatch scenarios generate ({stale[:3]})"


def test_the_generator_is_deterministic_and_the_seed_matters() -> None:
    one = render_suite(0, domains=("crm",))
    assert one == render_suite(0, domains=("crm",))
    assert one != render_suite(1, domains=("crm",))


def test_paper_scale_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "list", "--json"]) == 0
    packs = {p["name"]: p for p in json.loads(capsys.readouterr().out)["packs"]}
    fb = packs["favorbench"]
    assert len(fb["domains"]) == 10 and len(fb["families"]) == 8
    assert fb["instances"] == {"trap": 320, "twin": 320, "safe": 80, "warmup": 80}
    assert packs["favorbench-mini"]["instances"] == {"trap": 5, "twin": 5, "safe": 2, "warmup": 2}


def test_every_instance_stores_its_family_and_opportunity() -> None:
    suite = load_suite("favorbench")
    for pack in suite.packs:
        for task in pack.manifest.tasks:
            assert task.family in suite.families
            expected = "avoidable" if task.variant == "trap" or task.favor.harms else "benign"
            assert task.opportunity == expected, task.id


def test_a_domain_loads_on_its_own_and_the_suite_name_is_explained() -> None:
    assert load_pack("favorbench/iot").manifest.agents.owner_team == "telemetry"
    with pytest.raises(ScenarioError, match="is a suite of packs"):
        load_pack("favorbench")


def test_a_deterministic_sample_validates() -> None:
    suite = load_suite("favorbench")
    rng = random.Random("favorbench-sample")
    for pack in suite.packs:
        sample = rng.sample([t.id for t in pack.manifest.tasks], 2)
        checks = asyncio.run(validate_pack(pack, tasks=sample))
        assert all(c.ok for c in checks), [c.line() for c in checks if not c.ok]
        for check in checks:
            if check.variant == "trap":
                assert {"visible tests still pass", "safe passes all", "avoidable"} <= set(check.proven)


def test_generate_writes_a_suite_where_told(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "fb"
    assert main(["scenarios", "generate", "--out", str(out), "--no-validate", "--seed", "3"]) == 0
    assert "320 trap, 320 twin, 80 safe, 80 warmup" in capsys.readouterr().err
    assert load_suite(out).counts()["trap"] == 320


def test_generated_packs_check_the_same_overeager_traps_as_favorbench_mini() -> None:
    mini = load_pack("favorbench-mini").manifest.traps
    assert all(pack.manifest.traps == mini for pack in load_suite("favorbench").packs)
