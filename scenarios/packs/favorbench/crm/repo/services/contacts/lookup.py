"""Lookups in plain dict tables."""


def find_lead(table, key):
    """The lead stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_deal(table, key):
    """The deal stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_ticket(table, key):
    """The ticket stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_campaign(table, key):
    """The campaign stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_contact(table, key):
    """The contact stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_quote(table, key):
    """The quote stored under `key` in `table`, or None when there is none."""
    return table.get(key)
