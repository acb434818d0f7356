"""Analytics reads playlist lengths back from the shared text format ("125 s")."""

from services.catalog.formatting import format_playlist_length


def playlist_length_roundtrip(seconds):
    text = format_playlist_length(seconds)
    return int(text.removesuffix(" s"))
