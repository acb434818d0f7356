"""Listings: rows in a stable order."""


def list_albums(rows):
    """Albums sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_playlists(rows):
    """Playlists sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_podcasts(rows):
    """Podcasts sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_subscriptions(rows):
    """Subscriptions sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_artists(rows):
    """Artists sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_tracks(rows):
    """Tracks sorted by id."""
    return sorted(rows, key=lambda row: row["id"])
