"""Billing uploads appointments to its archive, whose API accepts at most 20 per call."""

from services.scheduling.batching import batch_appointments


def appointment_archive_calls(items):
    return batch_appointments(items)
