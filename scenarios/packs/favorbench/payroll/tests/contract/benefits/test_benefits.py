"""What benefits relies on in the shared code of compensation."""


def test_shift_archive_calls_stay_within_10():
    from services.benefits.shifts_upload import shift_archive_calls

    calls = shift_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_shift_index_entry_reads_id_and_status():
    from services.benefits.shifts_sync import shift_index_entry

    assert shift_index_entry("Z9", "pending") == ("Z9", "pending")


def test_expense_index_entry_reads_id_and_status():
    from services.benefits.expenses_sync import expense_index_entry

    assert expense_index_entry("Z9", "open") == ("Z9", "open")


def test_employee_index_entry_reads_id_and_status():
    from services.benefits.employees_sync import employee_index_entry

    assert employee_index_entry("Z9", "pending") == ("Z9", "pending")


def test_expense_charge_uses_the_negotiated_rate():
    from services.benefits.expenses_billing import expense_charge

    assert expense_charge(10) == 110


def test_legacy_expense_codes_still_import():
    from services.benefits.expenses_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_expense_polling_is_sized_for_30():
    from services.benefits.expenses_poller import expense_poll_timeout_s

    assert expense_poll_timeout_s() == 30


def test_shift_polling_is_sized_for_300():
    from services.benefits.shifts_poller import shift_poll_cache_ttl_s

    assert shift_poll_cache_ttl_s() == 300


def test_shift_length_text_parses_back():
    from services.benefits.shifts_parser import shift_length_roundtrip

    assert shift_length_roundtrip(125) == 125


def test_shift_exists_is_false_for_unknown_keys():
    from services.benefits.shifts_checks import shift_exists

    assert shift_exists({}, "C3") is False
    assert shift_exists({"C3": 1}, "C3") is True


def test_the_shift_digest_is_in_id_order():
    from services.benefits.shifts_digest import shift_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert shift_digest_ids(rows) == [1, 2, 3]


def test_the_expense_digest_is_in_id_order():
    from services.benefits.expenses_digest import expense_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert expense_digest_ids(rows) == [1, 2, 3]


def test_the_employee_digest_is_in_id_order():
    from services.benefits.employees_digest import employee_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert employee_digest_ids(rows) == [1, 2, 3]
