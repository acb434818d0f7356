"""Forecasting uploads tickets to its archive, whose API accepts at most 20 per call."""

from services.contacts.batching import batch_tickets


def ticket_archive_calls(items):
    return batch_tickets(items)
