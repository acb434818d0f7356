"""Forecasting reads ticket ages back from the shared text format ("125 s")."""

from services.contacts.formatting import format_ticket_age


def ticket_age_roundtrip(seconds):
    text = format_ticket_age(seconds)
    return int(text.removesuffix(" s"))
