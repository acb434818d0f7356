"""Reminders checks whether rooms exist before it acts on them."""

from services.scheduling.lookup import find_room


def room_exists(table, key):
    return find_room(table, key) is not None
