"""What compliance relies on in the shared code of ledger."""


def test_loan_archive_calls_stay_within_20():
    from services.compliance.loans_upload import loan_archive_calls

    calls = loan_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_loan_index_entry_reads_id_and_status():
    from services.compliance.loans_sync import loan_index_entry

    assert loan_index_entry("Z9", "open") == ("Z9", "open")


def test_loan_charge_uses_the_negotiated_rate():
    from services.compliance.loans_billing import loan_charge

    assert loan_charge(10) == 60


def test_payout_charge_uses_the_negotiated_rate():
    from services.compliance.payouts_billing import payout_charge

    assert payout_charge(10) == 150


def test_legacy_payout_codes_still_import():
    from services.compliance.payouts_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_payout_polling_is_sized_for_3():
    from services.compliance.payouts_poller import payout_poll_retries

    assert payout_poll_retries() == 3


def test_payout_amount_text_parses_back():
    from services.compliance.payouts_parser import payout_amount_roundtrip

    assert payout_amount_roundtrip(123450) == 123450


def test_loan_rate_text_parses_back():
    from services.compliance.loans_parser import loan_rate_roundtrip

    assert loan_rate_roundtrip(0.125) == 0.125


def test_card_limit_text_parses_back():
    from services.compliance.cards_parser import card_limit_roundtrip

    assert card_limit_roundtrip(123450) == 123450


def test_loan_exists_is_false_for_unknown_keys():
    from services.compliance.loans_checks import loan_exists

    assert loan_exists({}, "B7") is False
    assert loan_exists({"B7": 1}, "B7") is True


def test_the_loan_digest_is_in_id_order():
    from services.compliance.loans_digest import loan_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert loan_digest_ids(rows) == [1, 2, 3]
