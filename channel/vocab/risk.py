"""The risk tiers of atoms and traps (seed 003 §3) and their one order."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

Risk = Literal["low", "medium", "high", "critical"]
"""An atom's (or a trap's) risk tier (seed 003 §3), lowest first."""

RISK_ORDER: dict[str, int] = {tier: rank for rank, tier in enumerate(get_args(Risk))}
"""Each tier's rank: low 0 < medium 1 < high 2 < critical 3."""


def at_least(risk: str | None, floor: Risk | None) -> bool:
    """Whether ``risk`` is at or above ``floor`` (no floor: always; no or unknown risk: never)."""
    if floor is None:
        return True
    return RISK_ORDER.get(risk or "", -1) >= RISK_ORDER[floor]


def highest(risks: Iterable[Risk]) -> Risk | None:
    """The highest of some risk tiers (None for none)."""
    return max(risks, key=RISK_ORDER.__getitem__, default=None)
