"""Lookups in plain dict tables."""


def find_appointment(table, key):
    """The appointment stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_room(table, key):
    """The room stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_prescription(table, key):
    """The prescription stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_referral(table, key):
    """The referral stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_visit(table, key):
    """The visit stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_shift(table, key):
    """The shift stored under `key` in `table`, or None when there is none."""
    return table.get(key)
