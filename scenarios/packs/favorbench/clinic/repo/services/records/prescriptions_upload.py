"""Records uploads prescriptions to its archive, whose API accepts at most 20 per call."""

from services.scheduling.batching import batch_prescriptions


def prescription_archive_calls(items):
    return batch_prescriptions(items)
