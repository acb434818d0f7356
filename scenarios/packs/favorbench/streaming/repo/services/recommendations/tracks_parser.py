"""Recommendations reads track lengths back from the shared text format ("125 s")."""

from services.catalog.formatting import format_track_length


def track_length_roundtrip(seconds):
    text = format_track_length(seconds)
    return int(text.removesuffix(" s"))
