"""Partners checks whether hotels exist before it acts on them."""

from services.catalog.lookup import find_hotel


def hotel_exists(table, key):
    return find_hotel(table, key) is not None
