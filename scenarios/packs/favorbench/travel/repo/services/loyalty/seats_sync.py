"""Loyalty keeps its own index of seats, keyed by the shared record's `id`."""

from services.catalog.records import seat_record


def seat_index_entry(key, status):
    record = seat_record(key, status)
    return (record["id"], record["status"])
