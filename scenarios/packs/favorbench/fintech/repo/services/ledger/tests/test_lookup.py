"""Tests of services/ledger/lookup.py (run them all: python -m services.ledger.tests)."""


def test_find_transfer_returns_what_is_stored():
    from services.ledger.lookup import find_transfer

    assert find_transfer({"A1": 1}, "A1") == 1


def test_find_account_returns_what_is_stored():
    from services.ledger.lookup import find_account

    assert find_account({"B7": 1}, "B7") == 1


def test_find_loan_returns_what_is_stored():
    from services.ledger.lookup import find_loan

    assert find_loan({"B7": 1}, "B7") == 1


def test_find_dispute_returns_what_is_stored():
    from services.ledger.lookup import find_dispute

    assert find_dispute({"C3": 1}, "C3") == 1


def test_find_card_returns_what_is_stored():
    from services.ledger.lookup import find_card

    assert find_card({"K9": 1}, "K9") == 1


def test_find_payout_returns_what_is_stored():
    from services.ledger.lookup import find_payout

    assert find_payout({"B7": 1}, "B7") == 1
