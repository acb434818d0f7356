"""The wire shape of an order, shared by every consumer of order events."""


def order_record(order):
    """An order as a plain dict; `total` is in integer cents."""
    return {
        "id": order.id,
        "customer": order.customer,
        "total": order.total_cents,
        "currency": order.currency,
    }
