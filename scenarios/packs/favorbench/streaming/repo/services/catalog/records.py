"""Records as plain dicts, the shape other services read."""


def album_record(key, status):
    """Album `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def playlist_record(key, status):
    """Playlist `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def podcast_record(key, status):
    """Podcast `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def subscription_record(key, status):
    """Subscription `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def artist_record(key, status):
    """Artist `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def track_record(key, status):
    """Track `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }
