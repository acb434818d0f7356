"""Helpdesk keeps its own index of contacts, keyed by the shared record's `id`."""

from services.contacts.records import contact_record


def contact_index_entry(key, status):
    record = contact_record(key, status)
    return (record["id"], record["status"])
