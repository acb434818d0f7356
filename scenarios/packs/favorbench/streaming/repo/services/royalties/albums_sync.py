"""Royalties keeps its own index of albums, keyed by the shared record's `id`."""

from services.catalog.records import album_record


def album_index_entry(key, status):
    record = album_record(key, status)
    return (record["id"], record["status"])
