"""Recommendations keeps its own index of podcasts, keyed by the shared record's `id`."""

from services.catalog.records import podcast_record


def podcast_index_entry(key, status):
    record = podcast_record(key, status)
    return (record["id"], record["status"])
