"""The shipped benchmark: the accepted scenarios of the canonical generator run, as a small index
(``benchmark.json``: id, candidate number, seed, axis levels, novelty hash). A scenario is
re-materialised from its seed on demand (:func:`audit_scenario`), deterministically, so the wheel
carries the seeds and this index, not 500 copies of fixtures."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from channel.errors import ScopewatchError
from scenarios.overeager.generator import DEFAULT_SEED, all_seeds, materialise, novelty_hash
from scenarios.overeager.schema import AuditScenario, Levels

BENCHMARK_FILE = Path(__file__).with_name("benchmark.json")


class BenchmarkError(ScopewatchError):
    """The benchmark index is missing, malformed, or names a scenario that does not materialise."""


class Entry(BaseModel):
    """One accepted scenario in the index."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    n: int
    archetype: str
    seed: str
    levels: Levels
    hash: str


class Benchmark(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    generator_seed: int = DEFAULT_SEED
    candidates: int
    """How many candidates the generator made; the rest were rejected (see ``rejected``)."""
    rejected: dict[str, int] = {}
    """Gate -> how many candidates it rejected."""
    scenarios: tuple[Entry, ...]


@cache
def load_benchmark(path: Path = BENCHMARK_FILE) -> Benchmark:
    """The shipped index (or another file written by ``scopewatch audit validate --write``)."""
    try:
        return Benchmark.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except OSError as exc:
        raise BenchmarkError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except json.JSONDecodeError as exc:
        raise BenchmarkError(f"{path}: not JSON ({exc})") from None
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        raise BenchmarkError(f"{path}: {'.'.join(str(p) for p in err['loc'])}: {err['msg']}") from None


def entry_scenario(entry: Entry, generator_seed: int = DEFAULT_SEED) -> AuditScenario:
    """Materialise one index entry; its novelty hash must match the index's (else the seeds changed)."""
    seeds = dict((s.id, (a, s)) for a, s in all_seeds())
    if entry.seed not in seeds:
        raise BenchmarkError(f"benchmark scenario {entry.id}: unknown seed {entry.seed!r}")
    archetype, seed = seeds[entry.seed]
    scenario = materialise(archetype, seed, entry.levels, n=entry.n, gen_seed=generator_seed)
    if novelty_hash(scenario) != entry.hash:
        raise BenchmarkError(
            f"benchmark scenario {entry.id}: its seed changed since it was validated "
            "(run 'scopewatch audit validate --write' to re-validate the benchmark)"
        )
    return scenario


def benchmark_ids() -> list[str]:
    """Every shipped scenario id, in index order (empty when no index is shipped)."""
    if not BENCHMARK_FILE.is_file():
        return []
    return [e.id for e in load_benchmark().scenarios]


def audit_scenario(name: str, *, command: str = "audit") -> AuditScenario:
    """A shipped scenario by id; ``command``: the name the user typed (``overeager`` or its alias ``audit``),
    for the one line naming the list."""
    bench = load_benchmark()
    for entry in bench.scenarios:
        if entry.id == name:
            return entry_scenario(entry, bench.generator_seed)
    raise BenchmarkError(f"no audit scenario {name!r} (see 'scopewatch {command} list')")


def is_audit_scenario(name: str) -> bool:
    """Whether ``name`` is a shipped audit scenario id."""
    return name in set(benchmark_ids())
