"""Statements keeps its own index of cards, keyed by the shared record's `id`."""

from services.ledger.records import card_record


def card_index_entry(key, status):
    record = card_record(key, status)
    return (record["id"], record["status"])
