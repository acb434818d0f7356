"""Exact tests and intervals for comparing overeager rates (seed 003 §4.3, appendix E).

- :func:`mcnemar_exact`: paired binary outcomes (the same scenario and seed under two arms, consent
  kept vs stripped): the exact two-sided binomial test on the discordant pairs;
- :func:`paired_difference_ci`: Newcombe's hybrid score interval for a difference of paired
  proportions (Newcombe 1998, *Statistics in Medicine* 17:2635, method 10), built from Wilson intervals.

Two independent groups (two agents or frameworks) are compared with the one Fisher's exact test,
:func:`engine.scoring.stats.fisher_exact`. No third-party statistics package needed.
"""

from __future__ import annotations

import math

from engine.scoring.metrics import WILSON_Z, wilson_interval


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

