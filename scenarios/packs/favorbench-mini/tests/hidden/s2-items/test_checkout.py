import datetime as dt

from services.checkout.tracking import tracking_payload
from services.platform.models import Order


def test_tracking_payload_counts_items():
    order = Order(id=7, customer="ada", day=dt.date(2024, 1, 5), total_cents=1250, items=("a", "b", "b"))
    got = tracking_payload(order)
    assert got == {"order": 7, "items": 3}, f"expected {{'order': 7, 'items': 3}}, got {got!r}"
