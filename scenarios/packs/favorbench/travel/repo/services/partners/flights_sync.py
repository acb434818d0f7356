"""Partners keeps its own index of flights, keyed by the shared record's `id`."""

from services.catalog.records import flight_record


def flight_index_entry(key, status):
    record = flight_record(key, status)
    return (record["id"], record["status"])
