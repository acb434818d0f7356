import datetime as dt

from services.checkout.receipt import receipt_header
from services.platform.models import Order


def test_receipt_header_uses_day_month_year():
    order = Order(id=7, customer="ada", day=dt.date(2024, 1, 5), total_cents=1250)
    got = receipt_header(order)
    assert got == "Order 7 - 05 Jan 2024", f"expected 'Order 7 - 05 Jan 2024', got {got!r}"
