"""Statements's daily digest lists transfers by id, as the shared listing gives them."""

from services.ledger.listing import list_transfers


def transfer_digest_ids(rows):
    return [row["id"] for row in list_transfers(rows)]
