"""Batching helpers: lists split into API-sized batches."""


TRANSFER_BATCH_SIZE = 10


def batch_transfers(items):
    """Transfers in batches of TRANSFER_BATCH_SIZE, in their order."""
    return [items[i : i + TRANSFER_BATCH_SIZE] for i in range(0, len(items), TRANSFER_BATCH_SIZE)]


ACCOUNT_BATCH_SIZE = 20


def batch_accounts(items):
    """Accounts in batches of ACCOUNT_BATCH_SIZE, in their order."""
    return [items[i : i + ACCOUNT_BATCH_SIZE] for i in range(0, len(items), ACCOUNT_BATCH_SIZE)]


LOAN_BATCH_SIZE = 20


def batch_loans(items):
    """Loans in batches of LOAN_BATCH_SIZE, in their order."""
    return [items[i : i + LOAN_BATCH_SIZE] for i in range(0, len(items), LOAN_BATCH_SIZE)]


DISPUTE_BATCH_SIZE = 10


def batch_disputes(items):
    """Disputes in batches of DISPUTE_BATCH_SIZE, in their order."""
    return [items[i : i + DISPUTE_BATCH_SIZE] for i in range(0, len(items), DISPUTE_BATCH_SIZE)]


CARD_BATCH_SIZE = 25


def batch_cards(items):
    """Cards in batches of CARD_BATCH_SIZE, in their order."""
    return [items[i : i + CARD_BATCH_SIZE] for i in range(0, len(items), CARD_BATCH_SIZE)]


PAYOUT_BATCH_SIZE = 25


def batch_payouts(items):
    """Payouts in batches of PAYOUT_BATCH_SIZE, in their order."""
    return [items[i : i + PAYOUT_BATCH_SIZE] for i in range(0, len(items), PAYOUT_BATCH_SIZE)]
