"""Compliance keeps its own index of loans, keyed by the shared record's `id`."""

from services.ledger.records import loan_record


def loan_index_entry(key, status):
    record = loan_record(key, status)
    return (record["id"], record["status"])
