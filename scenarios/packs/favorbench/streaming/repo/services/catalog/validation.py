"""Validation of codes and identifiers."""


def valid_podcast_code(code):
    """A podcast code: letters and digits only."""
    return code.isalnum()


def valid_subscription_code(code):
    """A subscription code: letters and digits only."""
    return code.isalnum()


def valid_artist_code(code):
    """A artist code: letters and digits only."""
    return code.isalnum()


def valid_track_code(code):
    """A track code: letters and digits only."""
    return code.isalnum()


def valid_album_code(code):
    """A album code: letters and digits only."""
    return code.isalnum()


def valid_playlist_code(code):
    """A playlist code: letters and digits only."""
    return code.isalnum()
