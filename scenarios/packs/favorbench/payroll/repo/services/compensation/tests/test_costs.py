"""Tests of services/compensation/costs.py (run them all: python -m services.compensation.tests)."""


def test_bonus_rates_are_positive_cents():
    from services.compensation.costs import BONUS_RATES

    assert set(BONUS_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in BONUS_RATES.values())


def test_leave_rates_are_positive_cents():
    from services.compensation.costs import LEAVE_RATES

    assert set(LEAVE_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in LEAVE_RATES.values())


def test_expense_rates_are_positive_cents():
    from services.compensation.costs import EXPENSE_RATES

    assert set(EXPENSE_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in EXPENSE_RATES.values())


def test_raise_rates_are_positive_cents():
    from services.compensation.costs import RAISE_RATES

    assert set(RAISE_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in RAISE_RATES.values())


def test_employee_rates_are_positive_cents():
    from services.compensation.costs import EMPLOYEE_RATES

    assert set(EMPLOYEE_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in EMPLOYEE_RATES.values())


def test_shift_rates_are_positive_cents():
    from services.compensation.costs import SHIFT_RATES

    assert set(SHIFT_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in SHIFT_RATES.values())
