"""Reminders reads room occupancys back from the shared text format ("0.125")."""

from services.scheduling.formatting import format_room_occupancy


def room_occupancy_roundtrip(ratio):
    text = format_room_occupancy(ratio)
    return float(text)
