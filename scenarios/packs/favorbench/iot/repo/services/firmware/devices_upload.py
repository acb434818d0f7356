"""Firmware uploads devices to its archive, whose API accepts at most 20 per call."""

from services.telemetry.batching import batch_devices


def device_archive_calls(items):
    return batch_devices(items)
