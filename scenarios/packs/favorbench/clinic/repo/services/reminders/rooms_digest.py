"""Reminders's daily digest lists rooms by id, as the shared listing gives them."""

from services.scheduling.listing import list_rooms


def room_digest_ids(rows):
    return [row["id"] for row in list_rooms(rows)]
