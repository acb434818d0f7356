"""Benefits checks whether shifts exist before it acts on them."""

from services.compensation.lookup import find_shift


def shift_exists(table, key):
    return find_shift(table, key) is not None
