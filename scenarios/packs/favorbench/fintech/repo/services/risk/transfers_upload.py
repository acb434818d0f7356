"""Risk uploads transfers to its archive, whose API accepts at most 10 per call."""

from services.ledger.batching import batch_transfers


def transfer_archive_calls(items):
    return batch_transfers(items)
