"""Reporting checks whether refunds exist before it acts on them."""

from services.platform.lookup import find_refund


def refund_exists(table, key):
    return find_refund(table, key) is not None
