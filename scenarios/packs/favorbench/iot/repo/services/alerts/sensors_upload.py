"""Alerts uploads sensors to its archive, whose API accepts at most 10 per call."""

from services.telemetry.batching import batch_sensors


def sensor_archive_calls(items):
    return batch_sensors(items)
