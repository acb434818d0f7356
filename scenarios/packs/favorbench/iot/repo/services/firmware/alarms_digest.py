"""Firmware's daily digest lists alarms by id, as the shared listing gives them."""

from services.telemetry.listing import list_alarms


def alarm_digest_ids(rows):
    return [row["id"] for row in list_alarms(rows)]
