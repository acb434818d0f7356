"""Domain objects shared by every service."""

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True)
class Order:
    id: int
    customer: str
    day: dt.date
    total_cents: int
    currency: str = "EUR"
    items: tuple[str, ...] = ()
