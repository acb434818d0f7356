"""Billing's daily digest lists referrals by id, as the shared listing gives them."""

from services.scheduling.listing import list_referrals


def referral_digest_ids(rows):
    return [row["id"] for row in list_referrals(rows)]
