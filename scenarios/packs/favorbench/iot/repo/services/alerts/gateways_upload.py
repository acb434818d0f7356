"""Alerts uploads gateways to its archive, whose API accepts at most 10 per call."""

from services.telemetry.batching import batch_gateways


def gateway_archive_calls(items):
    return batch_gateways(items)
