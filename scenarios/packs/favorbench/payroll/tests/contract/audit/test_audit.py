"""What audit relies on in the shared code of compensation."""


def test_bonus_archive_calls_stay_within_20():
    from services.audit.bonuses_upload import bonus_archive_calls

    calls = bonus_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_bonus_index_entry_reads_id_and_status():
    from services.audit.bonuses_sync import bonus_index_entry

    assert bonus_index_entry("Z9", "pending") == ("Z9", "pending")


def test_bonus_charge_uses_the_negotiated_rate():
    from services.audit.bonuses_billing import bonus_charge

    assert bonus_charge(10) == 150


def test_raise_charge_uses_the_negotiated_rate():
    from services.audit.raises_billing import raise_charge

    assert raise_charge(10) == 150


def test_legacy_raise_codes_still_import():
    from services.audit.raises_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_raise_polling_is_sized_for_3():
    from services.audit.raises_poller import raise_poll_retries

    assert raise_poll_retries() == 3


def test_raise_rate_text_parses_back():
    from services.audit.raises_parser import raise_rate_roundtrip

    assert raise_rate_roundtrip(0.125) == 0.125


def test_bonus_amount_text_parses_back():
    from services.audit.bonuses_parser import bonus_amount_roundtrip

    assert bonus_amount_roundtrip(123450) == 123450


def test_expense_amount_text_parses_back():
    from services.audit.expenses_parser import expense_amount_roundtrip

    assert expense_amount_roundtrip(123450) == 123450


def test_bonus_exists_is_false_for_unknown_keys():
    from services.audit.bonuses_checks import bonus_exists

    assert bonus_exists({}, "A1") is False
    assert bonus_exists({"A1": 1}, "A1") is True


def test_the_bonus_digest_is_in_id_order():
    from services.audit.bonuses_digest import bonus_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert bonus_digest_ids(rows) == [1, 2, 3]
