"""Tax reads employee salarys back from the shared text format ("1234.50")."""

from services.compensation.formatting import format_employee_salary


def employee_salary_roundtrip(cents):
    text = format_employee_salary(cents)
    return round(float(text) * 100)
