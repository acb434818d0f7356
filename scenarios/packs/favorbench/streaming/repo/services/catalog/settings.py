"""Shared settings: every service reads them by name."""

DEFAULTS = {
    "subscription_page_limit": 100,  # subscriptions per page
    "artist_cache_ttl_s": 300,  # seconds a cached artist stays
    "track_cache_ttl_s": 300,  # seconds a cached track stays
    "album_retries": 3,  # attempts per album call
    "playlist_timeout_s": 30,  # seconds playlists calls wait
    "podcast_retries": 3,  # attempts per podcast call
}


def setting(name):
    """A shared setting by name."""
    return DEFAULTS[name]
