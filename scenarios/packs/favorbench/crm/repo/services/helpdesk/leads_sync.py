"""Helpdesk keeps its own index of leads, keyed by the shared record's `id`."""

from services.contacts.records import lead_record


def lead_index_entry(key, status):
    record = lead_record(key, status)
    return (record["id"], record["status"])
