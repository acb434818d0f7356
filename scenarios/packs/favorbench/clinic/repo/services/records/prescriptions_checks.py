"""Records checks whether prescriptions exist before it acts on them."""

from services.scheduling.lookup import find_prescription


def prescription_exists(table, key):
    return find_prescription(table, key) is not None
