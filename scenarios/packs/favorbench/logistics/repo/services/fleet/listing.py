"""Listings: rows in a stable order."""


def list_routes(rows):
    """Routes sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_trucks(rows):
    """Trucks sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_drivers(rows):
    """Drivers sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_pallets(rows):
    """Pallets sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_deliveries(rows):
    """Deliveries sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_parcels(rows):
    """Parcels sorted by id."""
    return sorted(rows, key=lambda row: row["id"])
