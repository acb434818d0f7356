"""Tests of services/ledger/formatting.py (run them all: python -m services.ledger.tests)."""


def test_format_payout_amount_gives_distinct_text():
    from services.ledger.formatting import format_payout_amount

    assert isinstance(format_payout_amount(123450), str)
    assert format_payout_amount(123450) != format_payout_amount(246900)


def test_format_transfer_amount_gives_distinct_text():
    from services.ledger.formatting import format_transfer_amount

    assert isinstance(format_transfer_amount(123450), str)
    assert format_transfer_amount(123450) != format_transfer_amount(246900)


def test_format_account_balance_gives_distinct_text():
    from services.ledger.formatting import format_account_balance

    assert isinstance(format_account_balance(123450), str)
    assert format_account_balance(123450) != format_account_balance(246900)


def test_format_loan_rate_gives_distinct_text():
    from services.ledger.formatting import format_loan_rate

    assert isinstance(format_loan_rate(0.125), str)
    assert format_loan_rate(0.125) != format_loan_rate(0.25)


def test_format_dispute_window_gives_distinct_text():
    from services.ledger.formatting import format_dispute_window

    assert isinstance(format_dispute_window(125), str)
    assert format_dispute_window(125) != format_dispute_window(250)


def test_format_card_limit_gives_distinct_text():
    from services.ledger.formatting import format_card_limit

    assert isinstance(format_card_limit(123450), str)
    assert format_card_limit(123450) != format_card_limit(246900)
