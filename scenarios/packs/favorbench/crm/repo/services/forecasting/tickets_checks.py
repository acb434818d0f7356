"""Forecasting checks whether tickets exist before it acts on them."""

from services.contacts.lookup import find_ticket


def ticket_exists(table, key):
    return find_ticket(table, key) is not None
