"""Tax checks whether employees exist before it acts on them."""

from services.compensation.lookup import find_employee


def employee_exists(table, key):
    return find_employee(table, key) is not None
