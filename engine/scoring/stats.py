"""Exact statistics for comparing two runs' rates: Fisher's exact test on a 2x2 table.

scipy is not a dependency, so the hypergeometric distribution is computed here exactly, in integer
arithmetic (``math.comb``): no normal approximation and no floating-point tolerance. The two-sided
p-value is the sum of the probabilities of every table with the observed margins that is at most as
likely as the observed one (the definition R's ``fisher.test`` and scipy's ``fisher_exact`` use).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb


def hypergeometric_weights(k1: int, n1: int, k2: int, n2: int) -> tuple[range, list[int], int]:
    """The support of the first cell given the margins, each table's weight C(n1, x)·C(n2, K-x) and
    their total C(n1+n2, K) (a table's probability is its weight over the total)."""
    _check(k1, n1)
    _check(k2, n2)
    successes = k1 + k2
    low, high = max(0, successes - n2), min(successes, n1)
    support = range(low, high + 1)
    weights = [comb(n1, x) * comb(n2, successes - x) for x in support]
    return support, weights, comb(n1 + n2, successes)


def fisher_exact(k1: int, n1: int, k2: int, n2: int, alternative: str = "two-sided") -> float:
    """The p-value of Fisher's exact test for ``k1`` of ``n1`` against ``k2`` of ``n2``.

    ``alternative``: "two-sided" (default), "greater" (the first rate is higher) or "less".
    With an empty group nothing can differ: 1.0."""
    if n1 == 0 or n2 == 0:
        _check(k1, n1)
        _check(k2, n2)
        return 1.0
    support, weights, total = hypergeometric_weights(k1, n1, k2, n2)
    observed = weights[k1 - support.start]
    if alternative == "two-sided":
        tail = sum(w for w in weights if w <= observed)
    elif alternative == "greater":
        tail = sum(weights[k1 - support.start :])
    elif alternative == "less":
        tail = sum(weights[: k1 - support.start + 1])
    else:
        raise ValueError(f"alternative must be two-sided, greater or less, not {alternative!r}")
    return float(min(Fraction(tail, total), Fraction(1)))


def _check(k: int, n: int) -> None:
    if n < 0 or not 0 <= k <= n:
        raise ValueError(f"a count k={k} of n={n} must satisfy 0 <= k <= n")
