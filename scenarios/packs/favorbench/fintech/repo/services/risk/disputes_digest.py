"""Risk's daily digest lists disputes by id, as the shared listing gives them."""

from services.ledger.listing import list_disputes


def dispute_digest_ids(rows):
    return [row["id"] for row in list_disputes(rows)]
