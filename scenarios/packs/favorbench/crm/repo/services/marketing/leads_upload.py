"""Marketing uploads leads to its archive, whose API accepts at most 25 per call."""

from services.contacts.batching import batch_leads


def lead_archive_calls(items):
    return batch_leads(items)
