"""Seed 003 appendix G's analyses of the five-axis benchmark: axis balance, overeager-vs-axis
independence tests, two-axis interaction ranges, and stability across seeds.

- **axis balance** (over the benchmark index): scenarios per level of each axis against the ideal
  N / levels, and the largest deviation;
- **independence** (over runs, per agent cell and axis): Pearson's chi-square test of overeager (yes /
  no) against the axis level, its p-value (chi-square survival function, exact for integer degrees of
  freedom) and Cramér's V = sqrt(chi2 / (n (min(rows, cols) - 1)));
- **ranges**: an axis's main effect is the spread (max - min, percentage points) of the overeager rate
  over its levels; an axis pair's interaction range is the spread over the pair's level cells;
- **one replicate per test**: appendix G's tests and ranges are over one benchmark replicate, one run per
  scenario (cells of n = 500). Runs of one scenario under several run seeds (``overeager run --runs``) share its
  levels and traps, so pooled they would be dependent observations in one Pearson test (n = scenarios x runs,
  p too small whenever outcomes cluster by scenario): each run seed is tested and ranged on its own, as
  ``agent, run seed S``;
- **run-seed stability** (over runs with two or more run seeds): per archetype, the overeager rate per run
  seed and its spread; archetypes that stay at 0% under every seed are listed (the zero-touch set). These are
  run seeds on the *same* scenarios (the agent's run-to-run spread); appendix G's "across three seeds" are
  generator seeds, other draws of the scenarios (docs/deviations.md).

Runs are joined to their scenario's levels by id; a run whose scenario is not in the index is
counted as unmatched and left out. Each consent arm is analysed on its own (a paired store holds every
scenario twice, kept and stripped: pooled, each scenario would count twice in every test): a cell is an
agent under one arm, named ``agent [kept]`` or ``agent [stripped]`` when the arm was forced. A forced arm
changes the prompt the agent saw, so its runs are filed under the *effective* ``auth_ambiguity`` level
(:func:`effective_levels`), not the index's: appendix G's auth_ambiguity effect (none > implicit >
explicit) is about the prompt.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from engine.overeager.report import Run
from scenarios.overeager.schema import Levels

AXES: tuple[str, ...] = tuple(Levels.model_fields)
"""The five axes, in the schema's order."""


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom (closed forms for integer df)."""
    if df < 1:
        raise ValueError("df must be at least 1")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) / math.gamma(1.5)
    for i in range(1, (df + 1) // 2):
        total += math.exp(-half) * term
        term *= half / (i + 0.5)
    return min(1.0, total)


@dataclass(frozen=True)
class Balance:
    axis: str
    counts: dict[str, int]
    ideal: float
    max_deviation: float
    """Largest |count - ideal|."""


def axis_balance(levels: Sequence[Levels]) -> list[Balance]:
    """Scenarios per level of each axis (every level the schema allows, zero included)."""
    out = []
    for axis in AXES:
        allowed = Levels.model_fields[axis].annotation.__args__  # type: ignore[union-attr]
        counts = {str(level): 0 for level in allowed}
        for lv in levels:
            counts[getattr(lv, axis)] += 1
        ideal = len(levels) / len(counts) if counts else 0.0
        out.append(Balance(axis, counts, ideal, max((abs(c - ideal) for c in counts.values()), default=0.0)))
    return out


@dataclass(frozen=True)
class Independence:
    agent: str
    axis: str
    n: int
    chi2: float | None
    df: int
    p: float | None
    cramers_v: float | None
    rates: dict[str, float]
    """Overeager rate per level (levels with runs)."""


def independence(agent: str, axis: str, runs: Sequence[tuple[Levels, bool]]) -> Independence:
    """Chi-square test of overeager against one axis's level (None when a margin is empty)."""
    table: dict[str, list[int]] = {}
    for lv, overeager in runs:
        table.setdefault(getattr(lv, axis), [0, 0])[0 if overeager else 1] += 1
    n = len(runs)
    cols = sorted(table)
    rates = {c: round(table[c][0] / sum(table[c]), 4) for c in cols}
    rows = [sum(table[c][r] for c in cols) for r in (0, 1)]
    if n == 0 or len(cols) < 2 or 0 in rows:
        return Independence(agent, axis, n, None, max(len(cols) - 1, 0), None, None, rates)
    chi2 = 0.0
    for c in cols:
        total = sum(table[c])
        for r in (0, 1):
            expected = rows[r] * total / n
            chi2 += (table[c][r] - expected) ** 2 / expected
    df = len(cols) - 1
    v = math.sqrt(chi2 / (n * (min(2, len(cols)) - 1)))
    return Independence(agent, axis, n, round(chi2, 4), df, round(chi2_sf(chi2, df), 4), round(v, 4), rates)


@dataclass(frozen=True)
class Spread:
    agent: str
    axes: tuple[str, ...]
    range_pp: float | None
    """max - min overeager rate over the level cells, in percentage points."""
    cells: int


def spread(agent: str, axes: tuple[str, ...], runs: Sequence[tuple[Levels, bool]]) -> Spread:
    cells: dict[tuple[str, ...], list[bool]] = {}
    for lv, overeager in runs:
        cells.setdefault(tuple(getattr(lv, a) for a in axes), []).append(overeager)
    rates = [sum(v) / len(v) for v in cells.values()]
    value = round(100 * (max(rates) - min(rates)), 1) if len(rates) > 1 else None
    return Spread(agent, axes, value, len(cells))


@dataclass(frozen=True)
class Stability:
    agent: str
    seeds: tuple[int, ...]
    per_archetype: dict[str, dict[int, float]]
    """Archetype -> seed -> overeager rate."""
    zero_touch: tuple[str, ...]

    def range_pp(self, archetype: str) -> float:
        rates = self.per_archetype[archetype].values()
        return round(100 * (max(rates) - min(rates)), 1)


@dataclass
class Analysis:
    balance: list[Balance]
    scenarios: int
    independence: list[Independence] = field(default_factory=list)
    main_effects: list[Spread] = field(default_factory=list)
    interactions: list[Spread] = field(default_factory=list)
    stability: list[Stability] = field(default_factory=list)
    runs: int = 0
    unmatched: int = 0


def effective_levels(levels: Levels, arm: str) -> Levels:
    """The levels of the prompt a run under consent ``arm`` saw: kept puts the scope-of-consent block in
    every prompt (``explicit``); stripped takes it out of an ``explicit`` scenario's (``none``: its prompt
    has no README pointer either) and leaves ``implicit`` and ``none`` as they were; ``axis`` is the index's."""
    if arm == "kept":
        return levels.model_copy(update={"auth_ambiguity": "explicit"})
    if arm == "stripped" and levels.auth_ambiguity == "explicit":
        return levels.model_copy(update={"auth_ambiguity": "none"})
    return levels


def cell_of_run(run: Run) -> str:
    """The analysed cell of a run: its agent, and its consent arm when the arm was forced."""
    return run.agent if run.arm == "axis" else f"{run.agent} [{run.arm}]"


def analyse(index: dict[str, Levels], runs: Iterable[Run] = ()) -> Analysis:
    """Appendix G over a benchmark index (scenario id -> levels) and, when given, runs of it (one cell
    per agent and consent arm, each run at its prompt's effective levels)."""
    out = Analysis(axis_balance(list(index.values())), len(index))
    by_agent: dict[str, list[tuple[Levels, bool, Run]]] = {}
    for run in runs:
        out.runs += 1
        lv = index.get(run.scenario)
        if lv is None:
            out.unmatched += 1
            continue
        by_agent.setdefault(cell_of_run(run), []).append((effective_levels(lv, run.arm), run.verdict.overeager, run))
    for agent, rows in sorted(by_agent.items()):
        seeds = tuple(sorted({r.seed for _, _, r in rows}))
        for seed in seeds:  # one replicate per test (appendix G: one run per scenario)
            name = agent if len(seeds) == 1 else f"{agent}, run seed {seed}"
            pairs = [(lv, o) for lv, o, r in rows if r.seed == seed]
            out.independence += [independence(name, axis, pairs) for axis in AXES]
            out.main_effects += [spread(name, (axis,), pairs) for axis in AXES]
            out.interactions += [spread(name, pair, pairs) for pair in combinations(AXES, 2)]
        if len(seeds) >= 2:
            per: dict[str, dict[int, list[bool]]] = {}
            for _, o, r in rows:
                per.setdefault(r.archetype, {}).setdefault(r.seed, []).append(o)
            rates = {a: {s: round(sum(v) / len(v), 4) for s, v in sorted(d.items())} for a, d in sorted(per.items())}
            zero = tuple(a for a, d in rates.items() if len(d) == len(seeds) and not any(d.values()))
            out.stability.append(Stability(agent, seeds, rates, zero))
    return out


def render_analysis(a: Analysis) -> str:
    """The analyses as text."""
    lines = [f"axis balance ({a.scenarios} scenarios)"]
    for b in a.balance:
        counts = ", ".join(f"{k} {v}" for k, v in b.counts.items())
        lines.append(f"  {b.axis:<15} {counts}   ideal {b.ideal:.1f}, max deviation {b.max_deviation:.1f}")
    if not a.runs:
        lines.append("runs: none given (--store FILE from 'overeager run --store'): no tests, ranges or stability")
        return "\n".join(lines)
    left_out = f" ({a.unmatched} of scenarios not in the index, left out)" if a.unmatched else ""
    lines.append(f"runs: {a.runs}{left_out}")
    lines.append("independence of overeager and each axis (chi-square, Cramer's V)")
    for t in a.independence:
        stat = "n/a (an empty margin)"
        if t.chi2 is not None:
            stat = f"chi2 {t.chi2:.2f} df {t.df} p {t.p or 0:.3f} V {t.cramers_v or 0:.2f}"
        rates = ", ".join(f"{k} {v:.0%}" for k, v in t.rates.items())
        lines.append(f"  {t.agent:<20} {t.axis:<15} n {t.n:<5} {stat}   ({rates})")
    lines.append("ranges (percentage points): main effects, then two-axis interactions")
    for s in [*a.main_effects, *a.interactions]:
        value = "n/a" if s.range_pp is None else f"{s.range_pp:.1f}"
        lines.append(f"  {s.agent:<20} {' x '.join(s.axes):<32} {value:>6} over {s.cells} cells")
    if not a.stability:
        lines.append("run-seed stability: one run seed only (overeager run --runs N reruns the same scenarios)")
    for st in a.stability:
        lines.append(
            f"run-seed stability of {st.agent} over run seeds {', '.join(map(str, st.seeds))} (the same scenarios "
            "rerun; appendix G's seeds are generator seeds, other scenario draws)"
        )
        for arch, by_seed in st.per_archetype.items():
            rates = ", ".join(f"{s}: {r:.0%}" for s, r in by_seed.items())
            lines.append(f"  {arch:<28} {rates}   range {st.range_pp(arch):.1f} pp")
        lines.append(f"  zero-touch under every seed: {', '.join(st.zero_touch) or 'none'}")
    return "\n".join(lines)
