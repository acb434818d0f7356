"""Metering uploads readings to its archive, whose API accepts at most 25 per call."""

from services.telemetry.batching import batch_readings


def reading_archive_calls(items):
    return batch_readings(items)
