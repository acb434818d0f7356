"""Billing keeps its own index of referrals, keyed by the shared record's `id`."""

from services.scheduling.records import referral_record


def referral_index_entry(key, status):
    record = referral_record(key, status)
    return (record["id"], record["status"])
