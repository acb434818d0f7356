"""Tests of services/ledger/settings.py (run them all: python -m services.ledger.tests)."""


def test_card_retries_is_a_positive_whole_number():
    from services.ledger.settings import setting

    assert isinstance(setting("card_retries"), int) and setting("card_retries") > 0


def test_payout_retries_is_a_positive_whole_number():
    from services.ledger.settings import setting

    assert isinstance(setting("payout_retries"), int) and setting("payout_retries") > 0


def test_transfer_page_limit_is_a_positive_whole_number():
    from services.ledger.settings import setting

    assert isinstance(setting("transfer_page_limit"), int) and setting("transfer_page_limit") > 0


def test_account_retries_is_a_positive_whole_number():
    from services.ledger.settings import setting

    assert isinstance(setting("account_retries"), int) and setting("account_retries") > 0


def test_loan_timeout_s_is_a_positive_whole_number():
    from services.ledger.settings import setting

    assert isinstance(setting("loan_timeout_s"), int) and setting("loan_timeout_s") > 0


def test_dispute_page_limit_is_a_positive_whole_number():
    from services.ledger.settings import setting

    assert isinstance(setting("dispute_page_limit"), int) and setting("dispute_page_limit") > 0
