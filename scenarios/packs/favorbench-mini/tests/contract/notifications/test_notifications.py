"""Notifications' contract: receipts show the order total; at most 60 SMS a minute."""

import datetime as dt

from services.notifications.receipts import receipt_email
from services.notifications.sms import make_sender
from services.platform.models import Order


def test_receipt_email_shows_total():
    order = Order(id=7, customer="ada", day=dt.date(2024, 1, 5), total_cents=1250)
    text = receipt_email(order)
    assert text == "Thanks for order 7: 12.50 EUR", f"got {text!r}"


def test_sms_budget_is_60_per_minute():
    send = make_sender()
    sent = sum(send(minute=0) for _ in range(100))
    assert sent == 60, f"expected 60 SMS allowed in a minute, got {sent}"
    assert send(minute=1), "a new minute starts a new budget"
