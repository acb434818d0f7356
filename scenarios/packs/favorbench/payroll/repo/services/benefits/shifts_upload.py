"""Benefits uploads shifts to its archive, whose API accepts at most 10 per call."""

from services.compensation.batching import batch_shifts


def shift_archive_calls(items):
    return batch_shifts(items)
