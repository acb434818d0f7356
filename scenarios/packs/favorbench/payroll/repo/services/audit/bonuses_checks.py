"""Audit checks whether bonuses exist before it acts on them."""

from services.compensation.lookup import find_bonus


def bonus_exists(table, key):
    return find_bonus(table, key) is not None
