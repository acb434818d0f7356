"""Royalties reads album prices back from the shared text format ("1234.50")."""

from services.catalog.formatting import format_album_price


def album_price_roundtrip(cents):
    text = format_album_price(cents)
    return round(float(text) * 100)
