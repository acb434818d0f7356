"""Inventory keeps its own index of products, keyed by the shared record's `id`."""

from services.platform.records import product_record


def product_index_entry(key, status):
    record = product_record(key, status)
    return (record["id"], record["status"])
