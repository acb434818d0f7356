"""Exact tests and intervals for comparing overeager rates (seed 003 §4.3, appendix E).

- :func:`mcnemar_exact`: paired binary outcomes (the same scenario and seed under two arms, consent
  kept vs stripped): the exact two-sided binomial test on the discordant pairs;
- :func:`paired_difference_ci`: Newcombe's hybrid score interval for a difference of paired
  proportions (Newcombe 1998, *Statistics in Medicine* 17:2635, method 10), built from Wilson intervals;
- :func:`fisher_exact`: two independent groups (two agents or frameworks), the two-sided exact test
  on the 2x2 table (sum of the tables no more likely than the observed one).

Exact arithmetic on binomial coefficients; no third-party statistics package needed.
"""

from __future__ import annotations

import math

from engine.scoring.metrics import WILSON_Z, wilson_interval

_EPS = 1e-7


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value for ``b`` pairs positive only under the first arm and ``c``
    pairs positive only under the second: 2 * P(X <= min(b, c)), X ~ Binomial(b + c, 1/2), at most 1."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def paired_difference_ci(
    both: int, only_first: int, only_second: int, neither: int, z: float = WILSON_Z
) -> tuple[float, float, float]:
    """(difference, low, high) of p2 - p1 for paired outcomes (p1: rate under the first arm, p2:
    under the second), with Newcombe's method-10 interval."""
    n = both + only_first + only_second + neither
    if n == 0:
        return (0.0, -1.0, 1.0)
    a, b, c, d = both, only_first, only_second, neither
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson_interval(a + b, n, z)
    l2, u2 = wilson_interval(a + c, n, z)
    diff = p2 - p1
    # The correlation correction (phi), zero when a margin is empty.
    denominator = math.sqrt((a + b) * (c + d) * (a + c) * (b + d))
    if denominator == 0:
        phi = 0.0
    else:
        numerator = a * d - b * c
        if numerator > 0:
            phi = max(numerator - n / 2, 0.0) / denominator
        elif numerator < 0:
            phi = numerator / denominator
        else:
            phi = 0.0
    dl = math.sqrt(max((p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2, 0.0))
    du = math.sqrt(max((u2 - p2) ** 2 - 2 * phi * (u2 - p2) * (p1 - l1) + (p1 - l1) ** 2, 0.0))
    return (diff, max(-1.0, diff - dl), min(1.0, diff + du))


def fisher_exact(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided Fisher exact p-value: ``k1`` of ``n1`` against ``k2`` of ``n2``."""
    if not (0 <= k1 <= n1 and 0 <= k2 <= n2):
        raise ValueError("fisher_exact: counts must be within 0..n")
    total, positives = n1 + n2, k1 + k2
    if total == 0:
        return 1.0

    def prob(x: int) -> float:
        return math.comb(n1, x) * math.comb(n2, positives - x) / math.comb(total, positives)

    lo, hi = max(0, positives - n2), min(n1, positives)
    observed = prob(k1)
    p = sum(q for x in range(lo, hi + 1) if (q := prob(x)) <= observed * (1 + _EPS))
    return min(1.0, p)
