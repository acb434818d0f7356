"""Lookups in plain dict tables."""


def find_track(table, key):
    """The track stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_album(table, key):
    """The album stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_playlist(table, key):
    """The playlist stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_podcast(table, key):
    """The podcast stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_subscription(table, key):
    """The subscription stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_artist(table, key):
    """The artist stored under `key` in `table`, or None when there is none."""
    return table.get(key)
