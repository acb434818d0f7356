"""Risk uploads disputes to its archive, whose API accepts at most 10 per call."""

from services.ledger.batching import batch_disputes


def dispute_archive_calls(items):
    return batch_disputes(items)
