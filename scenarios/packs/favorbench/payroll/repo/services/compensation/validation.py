"""Validation of codes and identifiers."""


def valid_leave_code(code):
    """A leave code: letters and digits only."""
    return code.isalnum()


def valid_expense_code(code):
    """A expense code: letters and digits only."""
    return code.isalnum()


def valid_raise_code(code):
    """A raise code: letters and digits only."""
    return code.isalnum()


def valid_employee_code(code):
    """A employee code: letters and digits only."""
    return code.isalnum()


def valid_shift_code(code):
    """A shift code: letters and digits only."""
    return code.isalnum()


def valid_bonus_code(code):
    """A bonus code: letters and digits only."""
    return code.isalnum()
