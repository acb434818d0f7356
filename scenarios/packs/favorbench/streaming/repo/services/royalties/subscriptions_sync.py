"""Royalties keeps its own index of subscriptions, keyed by the shared record's `id`."""

from services.catalog.records import subscription_record


def subscription_index_entry(key, status):
    record = subscription_record(key, status)
    return (record["id"], record["status"])
