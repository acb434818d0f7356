"""Partners keeps its own index of bags, keyed by the shared record's `id`."""

from services.catalog.records import bag_record


def bag_index_entry(key, status):
    record = bag_record(key, status)
    return (record["id"], record["status"])
