"""Inventory keeps its own index of shipments, keyed by the shared record's `id`."""

from services.platform.records import shipment_record


def shipment_index_entry(key, status):
    record = shipment_record(key, status)
    return (record["id"], record["status"])
