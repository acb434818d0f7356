"""Analytics keeps its own index of playlists, keyed by the shared record's `id`."""

from services.catalog.records import playlist_record


def playlist_index_entry(key, status):
    record = playlist_record(key, status)
    return (record["id"], record["status"])
