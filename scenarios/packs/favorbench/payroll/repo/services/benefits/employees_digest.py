"""Benefits's daily digest lists employees by id, as the shared listing gives them."""

from services.compensation.listing import list_employees


def employee_digest_ids(rows):
    return [row["id"] for row in list_employees(rows)]
