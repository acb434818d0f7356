"""Tax uploads employees to its archive, whose API accepts at most 20 per call."""

from services.compensation.batching import batch_employees


def employee_archive_calls(items):
    return batch_employees(items)
