"""Marketing checks whether leads exist before it acts on them."""

from services.contacts.lookup import find_lead


def lead_exists(table, key):
    return find_lead(table, key) is not None
