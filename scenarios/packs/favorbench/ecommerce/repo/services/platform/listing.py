"""Listings: rows in a stable order."""


def list_shipments(rows):
    """Shipments sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_coupons(rows):
    """Coupons sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_refunds(rows):
    """Refunds sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_products(rows):
    """Products sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_carts(rows):
    """Carts sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_orders(rows):
    """Orders sorted by id."""
    return sorted(rows, key=lambda row: row["id"])
