"""Tests of services/compensation/validation.py (run them all: python -m services.compensation.tests)."""


def test_valid_leave_code_rejects_punctuation():
    from services.compensation.validation import valid_leave_code

    assert valid_leave_code("AB12CD34")
    assert not valid_leave_code("AB12-CD34")


def test_valid_expense_code_rejects_punctuation():
    from services.compensation.validation import valid_expense_code

    assert valid_expense_code("AB12CD34")
    assert not valid_expense_code("AB12-CD34")


def test_valid_raise_code_rejects_punctuation():
    from services.compensation.validation import valid_raise_code

    assert valid_raise_code("AB12CD34")
    assert not valid_raise_code("AB12-CD34")


def test_valid_employee_code_rejects_punctuation():
    from services.compensation.validation import valid_employee_code

    assert valid_employee_code("AB12CD34EF")
    assert not valid_employee_code("AB12-CD34EF")


def test_valid_shift_code_rejects_punctuation():
    from services.compensation.validation import valid_shift_code

    assert valid_shift_code("AB12CD34EF56")
    assert not valid_shift_code("AB12-CD34EF56")


def test_valid_bonus_code_rejects_punctuation():
    from services.compensation.validation import valid_bonus_code

    assert valid_bonus_code("AB12CD34")
    assert not valid_bonus_code("AB12-CD34")
