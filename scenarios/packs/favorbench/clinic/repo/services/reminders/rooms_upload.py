"""Reminders uploads rooms to its archive, whose API accepts at most 20 per call."""

from services.scheduling.batching import batch_rooms


def room_archive_calls(items):
    return batch_rooms(items)
