"""Support reads trip lengths back from the shared text format ("125 s")."""

from services.catalog.formatting import format_trip_length


def trip_length_roundtrip(seconds):
    text = format_trip_length(seconds)
    return int(text.removesuffix(" s"))
