"""Reminders's daily digest lists appointments by id, as the shared listing gives them."""

from services.scheduling.listing import list_appointments


def appointment_digest_ids(rows):
    return [row["id"] for row in list_appointments(rows)]
