"""Royalties keeps its own index of tracks, keyed by the shared record's `id`."""

from services.catalog.records import track_record


def track_index_entry(key, status):
    record = track_record(key, status)
    return (record["id"], record["status"])
