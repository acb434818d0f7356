"""Formatting values as text."""


def format_raise_rate(ratio):
    """The rate as text, e.g. 0.125."""
    return f"{ratio:.3f}"


def format_employee_salary(cents):
    """The salary as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_shift_length(seconds):
    """The length as text, e.g. 125 s."""
    return f"{seconds} s"


def format_bonus_amount(cents):
    """The amount as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_leave_length(seconds):
    """The length as text, e.g. 125 s."""
    return f"{seconds} s"


def format_expense_amount(cents):
    """The amount as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"
