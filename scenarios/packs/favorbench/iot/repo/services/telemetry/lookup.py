"""Lookups in plain dict tables."""


def find_sensor(table, key):
    """The sensor stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_device(table, key):
    """The device stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_reading(table, key):
    """The reading stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_gateway(table, key):
    """The gateway stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_alarm(table, key):
    """The alarm stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_site(table, key):
    """The site stored under `key` in `table`, or None when there is none."""
    return table.get(key)
