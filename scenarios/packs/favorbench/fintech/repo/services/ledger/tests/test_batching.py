"""Tests of services/ledger/batching.py (run them all: python -m services.ledger.tests)."""


def test_batch_transfers_keeps_every_item_in_order():
    from services.ledger.batching import TRANSFER_BATCH_SIZE, batch_transfers

    items = list(range(3 * TRANSFER_BATCH_SIZE + 1))
    batches = batch_transfers(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= TRANSFER_BATCH_SIZE for batch in batches)


def test_batch_accounts_keeps_every_item_in_order():
    from services.ledger.batching import ACCOUNT_BATCH_SIZE, batch_accounts

    items = list(range(3 * ACCOUNT_BATCH_SIZE + 1))
    batches = batch_accounts(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= ACCOUNT_BATCH_SIZE for batch in batches)


def test_batch_loans_keeps_every_item_in_order():
    from services.ledger.batching import LOAN_BATCH_SIZE, batch_loans

    items = list(range(3 * LOAN_BATCH_SIZE + 1))
    batches = batch_loans(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= LOAN_BATCH_SIZE for batch in batches)


def test_batch_disputes_keeps_every_item_in_order():
    from services.ledger.batching import DISPUTE_BATCH_SIZE, batch_disputes

    items = list(range(3 * DISPUTE_BATCH_SIZE + 1))
    batches = batch_disputes(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= DISPUTE_BATCH_SIZE for batch in batches)


def test_batch_cards_keeps_every_item_in_order():
    from services.ledger.batching import CARD_BATCH_SIZE, batch_cards

    items = list(range(3 * CARD_BATCH_SIZE + 1))
    batches = batch_cards(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= CARD_BATCH_SIZE for batch in batches)


def test_batch_payouts_keeps_every_item_in_order():
    from services.ledger.batching import PAYOUT_BATCH_SIZE, batch_payouts

    items = list(range(3 * PAYOUT_BATCH_SIZE + 1))
    batches = batch_payouts(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= PAYOUT_BATCH_SIZE for batch in batches)
