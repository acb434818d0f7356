"""Forecasting reads contact responses back from the shared text format ("125 s")."""

from services.contacts.formatting import format_contact_response


def contact_response_roundtrip(seconds):
    text = format_contact_response(seconds)
    return int(text.removesuffix(" s"))
