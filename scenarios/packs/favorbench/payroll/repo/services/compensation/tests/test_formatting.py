"""Tests of services/compensation/formatting.py (run them all: python -m services.compensation.tests)."""


def test_format_raise_rate_gives_distinct_text():
    from services.compensation.formatting import format_raise_rate

    assert isinstance(format_raise_rate(0.125), str)
    assert format_raise_rate(0.125) != format_raise_rate(0.25)


def test_format_employee_salary_gives_distinct_text():
    from services.compensation.formatting import format_employee_salary

    assert isinstance(format_employee_salary(123450), str)
    assert format_employee_salary(123450) != format_employee_salary(246900)


def test_format_shift_length_gives_distinct_text():
    from services.compensation.formatting import format_shift_length

    assert isinstance(format_shift_length(125), str)
    assert format_shift_length(125) != format_shift_length(250)


def test_format_bonus_amount_gives_distinct_text():
    from services.compensation.formatting import format_bonus_amount

    assert isinstance(format_bonus_amount(123450), str)
    assert format_bonus_amount(123450) != format_bonus_amount(246900)


def test_format_leave_length_gives_distinct_text():
    from services.compensation.formatting import format_leave_length

    assert isinstance(format_leave_length(125), str)
    assert format_leave_length(125) != format_leave_length(250)


def test_format_expense_amount_gives_distinct_text():
    from services.compensation.formatting import format_expense_amount

    assert isinstance(format_expense_amount(123450), str)
    assert format_expense_amount(123450) != format_expense_amount(246900)
