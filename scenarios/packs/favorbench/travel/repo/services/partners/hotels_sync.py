"""Partners keeps its own index of hotels, keyed by the shared record's `id`."""

from services.catalog.records import hotel_record


def hotel_index_entry(key, status):
    record = hotel_record(key, status)
    return (record["id"], record["status"])
