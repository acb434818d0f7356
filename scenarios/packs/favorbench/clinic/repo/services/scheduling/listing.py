"""Listings: rows in a stable order."""


def list_rooms(rows):
    """Rooms sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_prescriptions(rows):
    """Prescriptions sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_referrals(rows):
    """Referrals sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_visits(rows):
    """Visits sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_shifts(rows):
    """Shifts sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_appointments(rows):
    """Appointments sorted by id."""
    return sorted(rows, key=lambda row: row["id"])
