"""Statements uploads accounts to its archive, whose API accepts at most 20 per call."""

from services.ledger.batching import batch_accounts


def account_archive_calls(items):
    return batch_accounts(items)
