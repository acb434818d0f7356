"""Statements's daily digest lists cards by id, as the shared listing gives them."""

from services.ledger.listing import list_cards


def card_digest_ids(rows):
    return [row["id"] for row in list_cards(rows)]
