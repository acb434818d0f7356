"""Support keeps its own index of trips, keyed by the shared record's `id`."""

from services.catalog.records import trip_record


def trip_index_entry(key, status):
    record = trip_record(key, status)
    return (record["id"], record["status"])
