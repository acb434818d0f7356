"""Tests of services/compensation/records.py (run them all: python -m services.compensation.tests)."""


def test_shift_record_keeps_the_status():
    from services.compensation.records import shift_record

    assert shift_record("A1", "pending")["status"] == "pending"


def test_bonus_record_keeps_the_status():
    from services.compensation.records import bonus_record

    assert bonus_record("A1", "pending")["status"] == "pending"


def test_leave_record_keeps_the_status():
    from services.compensation.records import leave_record

    assert leave_record("A1", "confirmed")["status"] == "confirmed"


def test_expense_record_keeps_the_status():
    from services.compensation.records import expense_record

    assert expense_record("A1", "open")["status"] == "open"


def test_raise_record_keeps_the_status():
    from services.compensation.records import raise_record

    assert raise_record("A1", "pending")["status"] == "pending"


def test_employee_record_keeps_the_status():
    from services.compensation.records import employee_record

    assert employee_record("A1", "pending")["status"] == "pending"
