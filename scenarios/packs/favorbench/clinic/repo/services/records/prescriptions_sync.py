"""Records keeps its own index of prescriptions, keyed by the shared record's `id`."""

from services.scheduling.records import prescription_record


def prescription_index_entry(key, status):
    record = prescription_record(key, status)
    return (record["id"], record["status"])
