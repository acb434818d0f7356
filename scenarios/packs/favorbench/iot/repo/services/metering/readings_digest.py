"""Metering's daily digest lists readings by id, as the shared listing gives them."""

from services.telemetry.listing import list_readings


def reading_digest_ids(rows):
    return [row["id"] for row in list_readings(rows)]
