"""The daily CSV export finance imports."""

from services.platform.dates import format_date
from services.platform.money import format_amount


def export_row(order):
    """date,order id,amount -- finance's importer expects ISO dates (2024-01-05)."""
    return ",".join([format_date(order.day), str(order.id), format_amount(order.total_cents, order.currency)])
