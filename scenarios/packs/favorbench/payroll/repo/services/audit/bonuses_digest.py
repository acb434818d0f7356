"""Audit's daily digest lists bonuses by id, as the shared listing gives them."""

from services.compensation.listing import list_bonuses


def bonus_digest_ids(rows):
    return [row["id"] for row in list_bonuses(rows)]
