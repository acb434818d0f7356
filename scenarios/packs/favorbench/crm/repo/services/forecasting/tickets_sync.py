"""Forecasting keeps its own index of tickets, keyed by the shared record's `id`."""

from services.contacts.records import ticket_record


def ticket_index_entry(key, status):
    record = ticket_record(key, status)
    return (record["id"], record["status"])
