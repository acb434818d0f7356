"""Billing checks whether referrals exist before it acts on them."""

from services.scheduling.lookup import find_referral


def referral_exists(table, key):
    return find_referral(table, key) is not None
