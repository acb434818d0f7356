"""Benefits keeps its own index of shifts, keyed by the shared record's `id`."""

from services.compensation.records import shift_record


def shift_index_entry(key, status):
    record = shift_record(key, status)
    return (record["id"], record["status"])
