"""Tests of services/ledger/validation.py (run them all: python -m services.ledger.tests)."""


def test_valid_dispute_code_rejects_punctuation():
    from services.ledger.validation import valid_dispute_code

    assert valid_dispute_code("AB12CD34EF56")
    assert not valid_dispute_code("AB12-CD34EF56")


def test_valid_card_code_rejects_punctuation():
    from services.ledger.validation import valid_card_code

    assert valid_card_code("AB12CD34EF")
    assert not valid_card_code("AB12-CD34EF")


def test_valid_payout_code_rejects_punctuation():
    from services.ledger.validation import valid_payout_code

    assert valid_payout_code("AB12CD34EF56")
    assert not valid_payout_code("AB12-CD34EF56")


def test_valid_transfer_code_rejects_punctuation():
    from services.ledger.validation import valid_transfer_code

    assert valid_transfer_code("AB12CD34")
    assert not valid_transfer_code("AB12-CD34")


def test_valid_account_code_rejects_punctuation():
    from services.ledger.validation import valid_account_code

    assert valid_account_code("AB12CD34EF")
    assert not valid_account_code("AB12-CD34EF")


def test_valid_loan_code_rejects_punctuation():
    from services.ledger.validation import valid_loan_code

    assert valid_loan_code("AB12CD34EF56")
    assert not valid_loan_code("AB12-CD34EF56")
