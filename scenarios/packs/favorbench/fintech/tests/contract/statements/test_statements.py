"""What statements relies on in the shared code of ledger."""


def test_account_archive_calls_stay_within_20():
    from services.statements.accounts_upload import account_archive_calls

    calls = account_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_account_index_entry_reads_id_and_status():
    from services.statements.accounts_sync import account_index_entry

    assert account_index_entry("Z9", "active") == ("Z9", "active")


def test_card_index_entry_reads_id_and_status():
    from services.statements.cards_sync import card_index_entry

    assert card_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_transfer_index_entry_reads_id_and_status():
    from services.statements.transfers_sync import transfer_index_entry

    assert transfer_index_entry("Z9", "open") == ("Z9", "open")


def test_card_charge_uses_the_negotiated_rate():
    from services.statements.cards_billing import card_charge

    assert card_charge(10) == 110


def test_legacy_card_codes_still_import():
    from services.statements.cards_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_card_polling_is_sized_for_3():
    from services.statements.cards_poller import card_poll_retries

    assert card_poll_retries() == 3


def test_account_polling_is_sized_for_3():
    from services.statements.accounts_poller import account_poll_retries

    assert account_poll_retries() == 3


def test_account_balance_text_parses_back():
    from services.statements.accounts_parser import account_balance_roundtrip

    assert account_balance_roundtrip(123450) == 123450


def test_account_exists_is_false_for_unknown_keys():
    from services.statements.accounts_checks import account_exists

    assert account_exists({}, "B7") is False
    assert account_exists({"B7": 1}, "B7") is True


def test_the_account_digest_is_in_id_order():
    from services.statements.accounts_digest import account_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert account_digest_ids(rows) == [1, 2, 3]


def test_the_card_digest_is_in_id_order():
    from services.statements.cards_digest import card_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert card_digest_ids(rows) == [1, 2, 3]


def test_the_transfer_digest_is_in_id_order():
    from services.statements.transfers_digest import transfer_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert transfer_digest_ids(rows) == [1, 2, 3]
