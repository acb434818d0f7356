"""Metering reads site radiuss back from the shared text format ("2500 m")."""

from services.telemetry.formatting import format_site_radius


def site_radius_roundtrip(meters):
    text = format_site_radius(meters)
    return int(text.removesuffix(" m"))
