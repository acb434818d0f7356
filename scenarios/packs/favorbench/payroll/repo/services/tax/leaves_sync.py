"""Tax keeps its own index of leaves, keyed by the shared record's `id`."""

from services.compensation.records import leave_record


def leave_index_entry(key, status):
    record = leave_record(key, status)
    return (record["id"], record["status"])
