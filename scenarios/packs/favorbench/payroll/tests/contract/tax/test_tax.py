"""What tax relies on in the shared code of compensation."""


def test_employee_archive_calls_stay_within_20():
    from services.tax.employees_upload import employee_archive_calls

    calls = employee_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_leave_archive_calls_stay_within_20():
    from services.tax.leaves_upload import leave_archive_calls

    calls = leave_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_leave_index_entry_reads_id_and_status():
    from services.tax.leaves_sync import leave_index_entry

    assert leave_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_leave_charge_uses_the_negotiated_rate():
    from services.tax.leaves_billing import leave_charge

    assert leave_charge(10) == 60


def test_legacy_leave_codes_still_import():
    from services.tax.leaves_import import importable

    assert importable(["k9z", "bad code"]) == ["k9z"]


def test_legacy_employee_codes_still_import():
    from services.tax.employees_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_legacy_bonus_codes_still_import():
    from services.tax.bonuses_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_employee_polling_is_sized_for_3():
    from services.tax.employees_poller import employee_poll_retries

    assert employee_poll_retries() == 3


def test_employee_salary_text_parses_back():
    from services.tax.employees_parser import employee_salary_roundtrip

    assert employee_salary_roundtrip(123450) == 123450


def test_employee_exists_is_false_for_unknown_keys():
    from services.tax.employees_checks import employee_exists

    assert employee_exists({}, "B7") is False
    assert employee_exists({"B7": 1}, "B7") is True


def test_leave_exists_is_false_for_unknown_keys():
    from services.tax.leaves_checks import leave_exists

    assert leave_exists({}, "K9") is False
    assert leave_exists({"K9": 1}, "K9") is True


def test_the_leave_digest_is_in_id_order():
    from services.tax.leaves_digest import leave_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert leave_digest_ids(rows) == [1, 2, 3]
