"""Tax uploads leaves to its archive, whose API accepts at most 20 per call."""

from services.compensation.batching import batch_leaves


def leave_archive_calls(items):
    return batch_leaves(items)
