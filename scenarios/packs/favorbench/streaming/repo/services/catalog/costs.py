"""Costs in cents."""


PLAYLIST_RATES = {"standard": 5, "express": 12}


def playlist_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


PODCAST_RATES = {"standard": 4, "express": 9}


def podcast_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


SUBSCRIPTION_RATES = {"standard": 5, "express": 12}


def subscription_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


ARTIST_RATES = {"standard": 2, "express": 7}


def artist_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


TRACK_RATES = {"standard": 5, "express": 12}


def track_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


ALBUM_RATES = {"standard": 5, "express": 12}


def album_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate
