"""Invoicing keeps its own index of trucks, keyed by the shared record's `id`."""

from services.fleet.records import truck_record


def truck_index_entry(key, status):
    record = truck_record(key, status)
    return (record["id"], record["status"])
