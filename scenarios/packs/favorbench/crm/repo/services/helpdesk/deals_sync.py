"""Helpdesk keeps its own index of deals, keyed by the shared record's `id`."""

from services.contacts.records import deal_record


def deal_index_entry(key, status):
    record = deal_record(key, status)
    return (record["id"], record["status"])
