"""Compliance's daily digest lists loans by id, as the shared listing gives them."""

from services.ledger.listing import list_loans


def loan_digest_ids(rows):
    return [row["id"] for row in list_loans(rows)]
