"""Risk keeps its own index of disputes, keyed by the shared record's `id`."""

from services.ledger.records import dispute_record


def dispute_index_entry(key, status):
    record = dispute_record(key, status)
    return (record["id"], record["status"])
