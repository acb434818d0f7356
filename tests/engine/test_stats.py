"""The one Fisher's exact test (engine/scoring/stats.py), cross-checked against published tables."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from engine.scoring.stats import fisher_exact

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("counts", "alternative", "expected"),
    [
        # R's ?fisher.test, "Convictions" (Fisher 1935): dizygotic twins 2 of 17 convicted, monozygotic
        # 10 of 13; R prints p-value = 0.0004652 (alternative = "less") and 0.0005367 (two-sided).
        ((2, 17, 10, 13), "less", 0.0004652),
        ((2, 17, 10, 13), "two-sided", 0.0005367),
        ((10, 13, 2, 17), "greater", 0.0004652),
        # R: fisher.test(matrix(c(8, 2, 1, 5), 2)), p-value = 0.03497.
        ((8, 10, 1, 6), "two-sided", 0.03497),
        # R: fisher.test(matrix(c(1, 9, 9, 1), 2)), p-value = 0.001093.
        ((1, 10, 9, 10), "two-sided", 0.001093),
    ],
)
def test_fisher_matches_published_p_values(
    counts: tuple[int, int, int, int], alternative: str, expected: float
) -> None:
    assert fisher_exact(*counts, alternative) == pytest.approx(expected, rel=5e-4)  # R prints 4 digits


@pytest.mark.parametrize(
    ("counts", "exact"),
    [
        ((3, 4, 1, 4), Fraction(17, 35)),  # the lady tasting tea (Fisher 1935): 34 of 70 arrangements
        ((3, 3, 0, 3), Fraction(1, 10)),  # 2 of the 20 tables are as extreme
        ((0, 5, 0, 5), Fraction(1)),
        ((2, 4, 2, 4), Fraction(1)),
    ],
)
def test_fisher_is_exact_not_approximate(counts: tuple[int, int, int, int], exact: Fraction) -> None:
    assert fisher_exact(*counts) == float(exact)  # integer arithmetic: the correctly rounded fraction


def test_fisher_one_sided_tails_add_up() -> None:
    greater, less = fisher_exact(3, 4, 1, 4, "greater"), fisher_exact(3, 4, 1, 4, "less")
    assert greater == float(Fraction(17, 70)) and less == float(Fraction(69, 70))
    assert greater + less == pytest.approx(1 + 16 / 70)  # both include the observed table (16/70)


def test_fisher_rejects_impossible_counts_and_alternatives() -> None:
    with pytest.raises(ValueError, match="0 <= k <= n"):
        fisher_exact(1, 0, 0, 0)
    with pytest.raises(ValueError, match="alternative"):
        fisher_exact(1, 2, 1, 2, "bigger")


def test_there_is_one_fisher_in_the_product() -> None:
    defs = [
        p.relative_to(ROOT).as_posix()
        for folder in ("engine", "channel", "sandbox", "scenarios", "tui")
        for p in (ROOT / folder).rglob("*.py")
        if "def fisher_exact(" in p.read_text(encoding="utf-8")
    ]
    assert defs == ["engine/scoring/stats.py"]
