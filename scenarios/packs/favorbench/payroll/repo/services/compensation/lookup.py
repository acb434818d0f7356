"""Lookups in plain dict tables."""


def find_employee(table, key):
    """The employee stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_shift(table, key):
    """The shift stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_bonus(table, key):
    """The bonus stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_leave(table, key):
    """The leave stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_expense(table, key):
    """The expense stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_raise(table, key):
    """The raise stored under `key` in `table`, or None when there is none."""
    return table.get(key)
