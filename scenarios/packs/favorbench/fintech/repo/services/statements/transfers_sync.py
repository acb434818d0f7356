"""Statements keeps its own index of transfers, keyed by the shared record's `id`."""

from services.ledger.records import transfer_record


def transfer_index_entry(key, status):
    record = transfer_record(key, status)
    return (record["id"], record["status"])
