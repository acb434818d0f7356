"""Tests of services/ledger/costs.py (run them all: python -m services.ledger.tests)."""


def test_loan_rates_are_positive_cents():
    from services.ledger.costs import LOAN_RATES

    assert set(LOAN_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in LOAN_RATES.values())


def test_dispute_rates_are_positive_cents():
    from services.ledger.costs import DISPUTE_RATES

    assert set(DISPUTE_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in DISPUTE_RATES.values())


def test_card_rates_are_positive_cents():
    from services.ledger.costs import CARD_RATES

    assert set(CARD_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in CARD_RATES.values())


def test_payout_rates_are_positive_cents():
    from services.ledger.costs import PAYOUT_RATES

    assert set(PAYOUT_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in PAYOUT_RATES.values())


def test_transfer_rates_are_positive_cents():
    from services.ledger.costs import TRANSFER_RATES

    assert set(TRANSFER_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in TRANSFER_RATES.values())


def test_account_rates_are_positive_cents():
    from services.ledger.costs import ACCOUNT_RATES

    assert set(ACCOUNT_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in ACCOUNT_RATES.values())
