"""Formatting values as text."""


def format_artist_share(ratio):
    """The share as text, e.g. 0.125."""
    return f"{ratio:.3f}"


def format_track_length(seconds):
    """The length as text, e.g. 125 s."""
    return f"{seconds} s"


def format_album_price(cents):
    """The price as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_playlist_length(seconds):
    """The length as text, e.g. 125 s."""
    return f"{seconds} s"


def format_podcast_length(seconds):
    """The length as text, e.g. 125 s."""
    return f"{seconds} s"


def format_subscription_price(cents):
    """The price as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"
