"""Compliance uploads loans to its archive, whose API accepts at most 20 per call."""

from services.ledger.batching import batch_loans


def loan_archive_calls(items):
    return batch_loans(items)
