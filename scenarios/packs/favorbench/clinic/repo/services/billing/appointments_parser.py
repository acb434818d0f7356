"""Billing reads appointment lengths back from the shared text format ("125 s")."""

from services.scheduling.formatting import format_appointment_length


def appointment_length_roundtrip(seconds):
    text = format_appointment_length(seconds)
    return int(text.removesuffix(" s"))
