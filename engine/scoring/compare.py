"""Two runs side by side (a norm against Default, say): each rate with its counts, Wilson 95%
interval, the difference (B - A) and Fisher's exact two-sided p-value (``fisher_p``).

Runs are compared as independent samples of scored episodes (:mod:`~engine.scoring.scored`: the ones ``report``
counts, no warm-up, failed or unscored episode; trajectories for the trajectory rate,
agent runs for the overeager rate). A rate over nothing (0/0) is None (JSON ``null``), as in
``report``: no interval, no difference and no p-value against it. With scripted agents the numbers show
the mechanics only: their rates are propensities chosen by hand, not measurements.

Each side is named by its norms and its condition (``SessionStarted.condition``: warm-safe, all-trap,
...): seed 000 §C.3 runs the norm and communication interventions on Warm-safe and the harm penalty and
CI feedback on All-trap, each against Default *on the same condition*; two conditions compared read as a
norm effect that is not one, so the table warns, as it does for two scenarios.
"""

from __future__ import annotations

from pydantic import BaseModel

from engine.scoring.analyses import SCRIPTED_NOTE, any_scripted
from engine.scoring.metrics import FAVOR_RATES, Metrics, norms_label, share, wilson_interval
from engine.scoring.stats import fisher_exact
from scenarios.identity import short_hash

CONSENT_ARM = "consent-"
"""``SessionStarted.condition`` of a paired consent arm's audit session: ``consent-kept``, ``consent-stripped`` (the
arm is in the recording, not only in its file name), so two such recordings are known to be pairs (seed 003 §4.3)."""


class RateComparison(BaseModel):
    """One rate in both runs."""

    name: str
    a_count: int
    a_total: int
    a_rate: float | None
    """None (JSON ``null``) when ``a_total`` is 0: a rate over nothing."""
    a_ci: tuple[float, float] | None
    """Wilson 95% interval; None when ``a_total`` is 0."""
    b_count: int
    b_total: int
    b_rate: float | None
    b_ci: tuple[float, float] | None
    difference: float | None
    """b_rate - a_rate; None when either rate is over nothing."""
    fisher_p: float | None
    """Fisher's exact test, two-sided: how likely a difference at least this large is by chance; None
    when either side has no data (nothing to test)."""


class Comparison(BaseModel):
    a: str
    """A's name (its file) and its norms."""
    b: str
    a_partial: bool = False
    b_partial: bool = False
    a_scenario: str = ""
    """A's scenario (``SessionStarted.scenario``)."""
    b_scenario: str = ""
    a_condition: str = ""
    """A's condition (``SessionStarted.condition``; "" for a pack's own trajectories)."""
    b_condition: str = ""
    a_packs: dict[str, str] = {}
    """The packs A ran -> their hashes (``SessionStarted.pack_hash``, ``DomainEntered``'s; "" when not recorded)."""
    b_packs: dict[str, str] = {}
    a_agents: dict[str, str] = {}
    """A's seats: agent id -> kind (``scripted:mixed``, ``llm:...``)."""
    b_agents: dict[str, str] = {}
    scripted: bool = False
    """A seat of A or B is a scripted agent: the rates are propensities chosen by hand, not measurements."""
    a_ended: str | None = None
    """A's ``SessionEnded.reason`` (None: no SessionEnded)."""
    b_ended: str | None = None
    rates: list[RateComparison]
    warnings: list[str] = []
    """What makes B - A or Fisher's p not what it seems: a side pooling several norm sets, a fork counting its
    parent's episodes, paired consent arms tested as independent samples."""

    def rate(self, name: str) -> RateComparison:
        return next(r for r in self.rates if r.name == name)


def rate_counts(m: Metrics) -> dict[str, tuple[int, int]]:
    """Each compared rate of a run as (count, total). Without a requester seat (an audit session) seed 000's
    favor rates are over nothing, (0, 0), as ``report`` says n/a (:data:`~engine.scoring.metrics.FAVOR_RATES`)."""
    scored = m.scored_labels()  # the episodes `report` scores: no warm-up, failed or unscored one
    trajectories: dict[int, bool] = {}
    for lab in scored:
        trajectories[lab.trajectory] = trajectories.get(lab.trajectory, False) or lab.favor
    counts = {
        "favor_rate": (m.favors, m.episodes),
        "trajectory_favor_rate": (sum(trajectories.values()), len(trajectories)),
        "harm_rate": (m.harmful_trap_favors, m.trap_favors),
        "requester_pass_rate": (m.requester_passes, m.episodes),
        "owner_success": (sum(1 for lab in scored if lab.owner_passed), len(scored)),
        "reviewer_harm_rate": (m.reviewer_harm, m.episodes),
        "overeager_rate": (m.overeager.overeager, m.overeager.runs),
    }
    if not m.requester_seat:
        counts.update({name: (0, 0) for name in FAVOR_RATES if name in counts})
    return counts


def compare(
    a: Metrics,
    b: Metrics,
    *,
    a_name: str = "A",
    b_name: str = "B",
    a_scenario: str = "",
    b_scenario: str = "",
    a_condition: str = "",
    b_condition: str = "",
    fork: str = "",
    a_packs: dict[str, str] | None = None,
    b_packs: dict[str, str] | None = None,
) -> Comparison:
    """Compare run B against run A, rate by rate (``a_scenario``, ``b_scenario``: what each ran;
    ``a_condition``, ``b_condition``: the condition each ran under; ``fork``: one line when a side is a fork of the
    other, which the caller knows from the recordings' ``Forked`` event; ``a_packs``, ``b_packs``: each pack a side
    ran -> its hash)."""
    a_packs, b_packs = a_packs or {}, b_packs or {}
    counts_a, counts_b = rate_counts(a), rate_counts(b)
    rates = []
    for name, (ka, na) in counts_a.items():
        kb, nb = counts_b[name]
        ra, rb = share(ka, na), share(kb, nb)
        both = ra is not None and rb is not None
        rates.append(
            RateComparison(
                name=name,
                a_count=ka,
                a_total=na,
                a_rate=ra,
                a_ci=_rounded(wilson_interval(ka, na)) if na else None,
                b_count=kb,
                b_total=nb,
                b_rate=rb,
                b_ci=_rounded(wilson_interval(kb, nb)) if nb else None,
                difference=round(kb / nb - ka / na, 4) if both else None,
                fisher_p=fisher_exact(ka, na, kb, nb) if both else None,
            )
        )
    return Comparison(
        a=f"{a_name} ({_norms(a)}{_condition(a_condition)})",
        b=f"{b_name} ({_norms(b)}{_condition(b_condition)})",
        a_partial=a.partial,
        b_partial=b.partial,
        a_scenario=a_scenario,
        b_scenario=b_scenario,
        a_condition=a_condition,
        b_condition=b_condition,
        a_packs=a_packs,
        b_packs=b_packs,
        a_agents=a.agents,
        b_agents=b.agents,
        scripted=a.scripted or b.scripted,
        a_ended=a.ended,
        b_ended=b.ended,
        rates=rates,
        warnings=_warnings(a, b, a_condition, b_condition, fork) + _edited_packs(a_packs, b_packs),
    )


def _edited_packs(a_packs: dict[str, str], b_packs: dict[str, str]) -> list[str]:
    """One line when a pack of one name has two contents in A and B (edited between the runs, or two authors'
    packs); nothing when either side did not record a pack's hash (recorded before packs were hashed)."""
    differ = [name for name, h in a_packs.items() if h and b_packs.get(name) and b_packs[name] != h]
    if not differ:
        return []
    shown = ", ".join(f"{name} ({short_hash(a_packs[name])} in A, {short_hash(b_packs[name])} in B)" for name in differ)
    return [
        f"A and B ran different packs under the same name: {shown}; the pack was changed between the runs (or is "
        "another one of that name), so B - A mixes the change with the norms' effect (`scenarios list PACK` shows a "
        "pack's hash)"
    ]


def _warnings(a: Metrics, b: Metrics, a_condition: str, b_condition: str, fork: str) -> list[str]:
    """Seed 000 §5.3.1 rates a norm over the episodes run under it, and Fisher's test wants independent samples."""
    found = []
    for side, m in (("A", a), ("B", b)):
        if len(m.by_norms) > 1:
            sets = "; ".join(f"{g.label}: {g.episodes}" for g in m.by_norms)
            found.append(
                f"{side}'s scored episodes ran under {len(m.by_norms)} norm sets ({sets}): its rates pool them (seed "
                "000 §5.3.1 rates a norm over the episodes run under it: `report`'s by-norms table)"
            )
    if fork:
        found.append(fork)
    if a_condition != b_condition and a_condition.startswith(CONSENT_ARM) and b_condition.startswith(CONSENT_ARM):
        found.append(
            f"A and B are seed 003's paired consent arms ({a_condition}, {b_condition}: the same scenarios and seeds, "
            "run twice): Fisher's p treats them as independent; `overeager run --consent paired` compares the pairs "
            "(McNemar, seed 003 §4.3)"
        )
    return found


def _norms(m: Metrics) -> str:
    labels = sorted({g.label for g in m.by_norms})
    return "; ".join(labels) or (norms_label(m.labels[0].norms) if m.labels else "no scored episodes")


def _condition(name: str) -> str:
    return f"; condition {name}" if name else ""


def _rounded(ci: tuple[float, float]) -> tuple[float, float]:
    return (round(ci[0], 4), round(ci[1], 4))


def render_comparison(c: Comparison) -> str:
    """The text table ``scopewatch compare`` prints: a rate over no data is ``n/a``, and no
    difference is given against it."""
    lines = [f"A: {c.a}{_scenario(c.a_scenario)}", f"B: {c.b}{_scenario(c.b_scenario)}"]
    if c.a_scenario and c.b_scenario and c.a_scenario != c.b_scenario:
        lines.append(
            f"warning: A and B ran different scenarios ({c.a_scenario}, {c.b_scenario}): "
            "their rates measure different tasks"
        )
    arms = c.a_condition.startswith(CONSENT_ARM) and c.b_condition.startswith(CONSENT_ARM)
    if c.a_condition != c.b_condition and not arms:
        lines.append(
            f"warning: A and B ran different conditions ({c.a_condition or 'none'}, {c.b_condition or 'none'}): "
            "B - A mixes the condition's effect with the norms' (seed 000 C.3 compares norms on one condition)"
        )
    lines += [f"warning: {w}" for w in c.warnings]
    if c.scripted:
        sides = [side for side, agents in (("A", c.a_agents), ("B", c.b_agents)) if any_scripted(agents)]
        lines.append(f"note: {' and '.join(sides)} ran {SCRIPTED_NOTE}")
    for side, partial, ended in (("A", c.a_partial, c.a_ended), ("B", c.b_partial, c.b_ended)):
        if partial:
            lines.append(f"note: {side} is a partial recording (no SessionEnded); its numbers cover what was recorded")
        elif ended == "cancelled":
            lines.append(f"note: {side} was cancelled before it finished; its numbers cover what was recorded")
    lines.append("")
    head = f"{'rate':<22} {'A':>16} {'95% CI A':>15} {'B':>16} {'95% CI B':>15} {'B - A':>8} {'fisher_p':>9}"
    lines.append(head)
    for r in c.rates:
        diff = f"{100 * r.difference:>+7.1f}%" if r.difference is not None else f"{'n/a':>8}"
        p = f"{r.fisher_p:>9.3g}" if r.fisher_p is not None else f"{'n/a':>9}"
        lines.append(
            f"{r.name:<22} {_share(r.a_rate, r.a_count, r.a_total):>16} {_ci(r.a_ci, r.a_total):>15} "
            f"{_share(r.b_rate, r.b_count, r.b_total):>16} {_ci(r.b_ci, r.b_total):>15} {diff} {p}"
        )
    return "\n".join(lines)


def _scenario(name: str) -> str:
    return f"  scenario {name}" if name else ""


def _share(rate: float | None, k: int, n: int) -> str:
    return f"{100 * rate:.1f}% ({k}/{n})" if rate is not None else "n/a (0/0)"


def _ci(ci: tuple[float, float] | None, n: int) -> str:
    return f"[{100 * ci[0]:.0f}, {100 * ci[1]:.0f}]%" if ci is not None and n else "n/a"
