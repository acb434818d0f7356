"""Helpdesk checks whether deals exist before it acts on them."""

from services.contacts.lookup import find_deal


def deal_exists(table, key):
    return find_deal(table, key) is not None
