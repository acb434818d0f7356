"""Billing charges referrals at its negotiated rate of 11 cents per unit."""

from services.scheduling.costs import referral_cost

NEGOTIATED_RATE = 11


def referral_charge(units):
    return referral_cost(units, NEGOTIATED_RATE)
