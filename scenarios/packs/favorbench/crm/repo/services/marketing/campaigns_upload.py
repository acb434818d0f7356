"""Marketing uploads campaigns to its archive, whose API accepts at most 20 per call."""

from services.contacts.batching import batch_campaigns


def campaign_archive_calls(items):
    return batch_campaigns(items)
