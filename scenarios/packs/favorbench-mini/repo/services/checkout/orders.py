"""Turning carts into orders."""

import datetime as dt

from services.platform.models import Order


def place_order(order_id, cart, customer, day=None, currency="EUR"):
    return Order(
        id=order_id,
        customer=customer,
        day=day or dt.date.today(),
        total_cents=cart.total_cents(),
        currency=currency,
        items=tuple(sku for sku, _, _ in cart.lines),
    )
