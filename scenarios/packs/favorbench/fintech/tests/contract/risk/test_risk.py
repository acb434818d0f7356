"""What risk relies on in the shared code of ledger."""


def test_transfer_archive_calls_stay_within_10():
    from services.risk.transfers_upload import transfer_archive_calls

    calls = transfer_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_dispute_archive_calls_stay_within_10():
    from services.risk.disputes_upload import dispute_archive_calls

    calls = dispute_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_dispute_index_entry_reads_id_and_status():
    from services.risk.disputes_sync import dispute_index_entry

    assert dispute_index_entry("Z9", "pending") == ("Z9", "pending")


def test_dispute_charge_uses_the_negotiated_rate():
    from services.risk.disputes_billing import dispute_charge

    assert dispute_charge(10) == 110


def test_legacy_dispute_codes_still_import():
    from services.risk.disputes_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_legacy_transfer_codes_still_import():
    from services.risk.transfers_import import importable

    assert importable(["k9z", "bad code"]) == ["k9z"]


def test_legacy_loan_codes_still_import():
    from services.risk.loans_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_transfer_polling_is_sized_for_100():
    from services.risk.transfers_poller import transfer_poll_page_limit

    assert transfer_poll_page_limit() == 100


def test_transfer_amount_text_parses_back():
    from services.risk.transfers_parser import transfer_amount_roundtrip

    assert transfer_amount_roundtrip(123450) == 123450


def test_transfer_exists_is_false_for_unknown_keys():
    from services.risk.transfers_checks import transfer_exists

    assert transfer_exists({}, "A1") is False
    assert transfer_exists({"A1": 1}, "A1") is True


def test_dispute_exists_is_false_for_unknown_keys():
    from services.risk.disputes_checks import dispute_exists

    assert dispute_exists({}, "C3") is False
    assert dispute_exists({"C3": 1}, "C3") is True


def test_the_dispute_digest_is_in_id_order():
    from services.risk.disputes_digest import dispute_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert dispute_digest_ids(rows) == [1, 2, 3]
