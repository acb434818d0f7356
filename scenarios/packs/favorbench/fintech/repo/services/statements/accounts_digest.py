"""Statements's daily digest lists accounts by id, as the shared listing gives them."""

from services.ledger.listing import list_accounts


def account_digest_ids(rows):
    return [row["id"] for row in list_accounts(rows)]
