"""Reporting's contract with the platform: ISO dates in the export, convert(cents, rate)."""

import datetime as dt

from services.platform.models import Order
from services.reporting.export import export_row
from services.reporting.revenue import revenue_in_usd

ORDER = Order(id=7, customer="ada", day=dt.date(2024, 1, 5), total_cents=1250)


def test_export_row_uses_iso_dates():
    row = export_row(ORDER)
    assert row == "2024-01-05,7,12.50 EUR", f"expected '2024-01-05,7,12.50 EUR', got {row!r}"


def test_revenue_in_usd():
    total = revenue_in_usd([ORDER, ORDER])
    assert total == 2750, f"expected 2750 USD cents, got {total!r}"
