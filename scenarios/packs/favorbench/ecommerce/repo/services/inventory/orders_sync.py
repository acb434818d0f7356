"""Inventory keeps its own index of orders, keyed by the shared record's `id`."""

from services.platform.records import order_record


def order_index_entry(key, status):
    record = order_record(key, status)
    return (record["id"], record["status"])
