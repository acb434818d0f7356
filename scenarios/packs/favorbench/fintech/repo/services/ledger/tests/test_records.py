"""Tests of services/ledger/records.py (run them all: python -m services.ledger.tests)."""


def test_account_record_keeps_the_status():
    from services.ledger.records import account_record

    assert account_record("A1", "active")["status"] == "active"


def test_loan_record_keeps_the_status():
    from services.ledger.records import loan_record

    assert loan_record("A1", "open")["status"] == "open"


def test_dispute_record_keeps_the_status():
    from services.ledger.records import dispute_record

    assert dispute_record("A1", "pending")["status"] == "pending"


def test_card_record_keeps_the_status():
    from services.ledger.records import card_record

    assert card_record("A1", "confirmed")["status"] == "confirmed"


def test_payout_record_keeps_the_status():
    from services.ledger.records import payout_record

    assert payout_record("A1", "active")["status"] == "active"


def test_transfer_record_keeps_the_status():
    from services.ledger.records import transfer_record

    assert transfer_record("A1", "open")["status"] == "open"
