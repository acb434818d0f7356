"""Statements keeps its own index of accounts, keyed by the shared record's `id`."""

from services.ledger.records import account_record


def account_index_entry(key, status):
    record = account_record(key, status)
    return (record["id"], record["status"])
