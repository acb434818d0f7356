"""Billing checks whether appointments exist before it acts on them."""

from services.scheduling.lookup import find_appointment


def appointment_exists(table, key):
    return find_appointment(table, key) is not None
