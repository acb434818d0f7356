import datetime as dt

from services.checkout.invoice import invoice_line
from services.platform.models import Order


def test_invoice_line_shows_decimal_total():
    order = Order(id=7, customer="ada", day=dt.date(2024, 1, 5), total_cents=1250)
    got = invoice_line(order)
    assert got == "Order 7 total: 12.50 EUR", f"expected 'Order 7 total: 12.50 EUR', got {got!r}"
