"""Revenue figures for the US board report."""

from services.platform.money import RATES, convert


def revenue_in_usd(orders):
    """Total revenue of EUR orders, in USD cents."""
    return sum(convert(order.total_cents, RATES["USD"]) for order in orders)
