"""Analytics reads artist shares back from the shared text format ("0.125")."""

from services.catalog.formatting import format_artist_share


def artist_share_roundtrip(ratio):
    text = format_artist_share(ratio)
    return float(text)
