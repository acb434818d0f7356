"""Helpdesk uploads deals to its archive, whose API accepts at most 10 per call."""

from services.contacts.batching import batch_deals


def deal_archive_calls(items):
    return batch_deals(items)
