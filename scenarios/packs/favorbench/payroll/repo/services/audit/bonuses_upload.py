"""Audit uploads bonuses to its archive, whose API accepts at most 20 per call."""

from services.compensation.batching import batch_bonuses


def bonus_archive_calls(items):
    return batch_bonuses(items)
