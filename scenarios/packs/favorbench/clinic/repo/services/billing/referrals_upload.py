"""Billing uploads referrals to its archive, whose API accepts at most 10 per call."""

from services.scheduling.batching import batch_referrals


def referral_archive_calls(items):
    return batch_referrals(items)
