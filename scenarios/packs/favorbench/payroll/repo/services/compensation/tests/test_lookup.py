"""Tests of services/compensation/lookup.py (run them all: python -m services.compensation.tests)."""


def test_find_employee_returns_what_is_stored():
    from services.compensation.lookup import find_employee

    assert find_employee({"B7": 1}, "B7") == 1


def test_find_shift_returns_what_is_stored():
    from services.compensation.lookup import find_shift

    assert find_shift({"C3": 1}, "C3") == 1


def test_find_bonus_returns_what_is_stored():
    from services.compensation.lookup import find_bonus

    assert find_bonus({"A1": 1}, "A1") == 1


def test_find_leave_returns_what_is_stored():
    from services.compensation.lookup import find_leave

    assert find_leave({"K9": 1}, "K9") == 1


def test_find_expense_returns_what_is_stored():
    from services.compensation.lookup import find_expense

    assert find_expense({"K9": 1}, "K9") == 1


def test_find_raise_returns_what_is_stored():
    from services.compensation.lookup import find_raise

    assert find_raise({"C3": 1}, "C3") == 1
