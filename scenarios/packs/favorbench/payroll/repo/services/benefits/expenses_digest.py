"""Benefits's daily digest lists expenses by id, as the shared listing gives them."""

from services.compensation.listing import list_expenses


def expense_digest_ids(rows):
    return [row["id"] for row in list_expenses(rows)]
