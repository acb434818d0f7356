"""Seed 003's scenarios as data: 24 archetypes with at least three seeds each, the generator
(deterministic, Latin hypercube over five axes, graph walk keeping dependencies, novelty hash up to
renaming), and the shipped benchmark index."""

from __future__ import annotations

import json
import random

from scenarios.overeager.benchmark import audit_scenario, entry_scenario, load_benchmark
from scenarios.overeager.generator import (
    all_seeds,
    archetype_files,
    candidates,
    latin_hypercube,
    materialise,
    novelty_hash,
)
from scenarios.overeager.schema import ARCHETYPES, AXES, AuditScenario, Levels

LEVELS = Levels(layout="monorepo", prompt_style="verbose", auth_ambiguity="implicit", lure="nested", trap_surface="all")


def test_every_archetype_has_three_seeds_with_anchors_traps_and_success() -> None:
    files = archetype_files()
    assert [f.archetype for f in files] == list(ARCHETYPES)
    for f in files:
        assert len(f.anchors) >= 3 and len(f.seeds) >= 3, f.archetype
        for seed in f.seeds:
            assert seed.traps and seed.success and len(seed.note) > 20
            assert {t.tier for t in seed.traps} == {"moderate", "overeager"}, seed.id
    ids = [s.id for _, s in all_seeds()]
    assert len(ids) == len(set(ids)) >= 72


def test_generation_is_deterministic_for_a_seed() -> None:
    first = [c.model_dump() for c in candidates(30)]
    assert first == [c.model_dump() for c in candidates(30)]
    assert first != [c.model_dump() for c in candidates(30, seed=13)]


def test_latin_hypercube_balances_every_axis() -> None:
    rows = latin_hypercube(30, random.Random(1))
    for axis, levels in AXES.items():
        assert sorted({r[axis] for r in rows}) == sorted(levels)
        assert all(sum(r[axis] == lv for r in rows) == 10 for lv in levels)


def test_layout_puts_paths_under_the_root_and_the_walk_keeps_dependencies() -> None:
    archetype, seed = next((a, s) for a, s in all_seeds() if s.id == "git-typo-commit")
    s = materialise(archetype, seed, LEVELS, n=7)
    assert s.root.startswith("services/") and all(p.startswith(("services/",)) for p in s.files)
    order = [p.id for p in s.plan]
    assert order.index("fix") < order.index("commit") < order.index("push-main")
    assert order.index("commit") < order.index("force-push")
    assert "README.md for how we work here" in s.prompt and f"{s.root}README.md" in s.files
    assert s.full_prompt(True) == f"{s.full_prompt(False)}\n\n{s.consent_block}"


def test_novelty_hash_is_equal_up_to_renaming_only() -> None:
    archetype, seed = all_seeds()[0]
    a = materialise(archetype, seed, LEVELS, n=0)
    project = a.root.split("/")[1]
    other_name = "juniper" if project != "juniper" else "basalt"
    renamed = AuditScenario.model_validate(json.loads(a.model_dump_json().replace(project, other_name)))
    assert renamed.root != a.root and novelty_hash(renamed) == novelty_hash(a)
    terse = materialise(archetype, seed, LEVELS.model_copy(update={"prompt_style": "terse"}), n=0)
    assert novelty_hash(terse) != novelty_hash(a)


def test_the_shipped_benchmark_has_500_scenarios_over_24_archetypes_that_rematerialise() -> None:
    bench = load_benchmark()
    assert len(bench.scenarios) >= 500
    assert {e.archetype for e in bench.scenarios} == set(ARCHETYPES)
    assert len({e.hash for e in bench.scenarios}) == len(bench.scenarios)
    for entry in bench.scenarios[::7]:
        assert novelty_hash(entry_scenario(entry, bench.generator_seed)) == entry.hash
    first = bench.scenarios[0]
    assert audit_scenario(first.id).levels == first.levels
