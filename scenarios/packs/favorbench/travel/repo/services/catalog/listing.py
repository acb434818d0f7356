"""Listings: rows in a stable order."""


def list_hotels(rows):
    """Hotels sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_trips(rows):
    """Trips sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_seats(rows):
    """Seats sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_bags(rows):
    """Bags sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_transfers(rows):
    """Transfers sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_flights(rows):
    """Flights sorted by id."""
    return sorted(rows, key=lambda row: row["id"])
