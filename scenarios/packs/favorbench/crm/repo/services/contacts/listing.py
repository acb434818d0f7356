"""Listings: rows in a stable order."""


def list_deals(rows):
    """Deals sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_tickets(rows):
    """Tickets sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_campaigns(rows):
    """Campaigns sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_contacts(rows):
    """Contacts sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_quotes(rows):
    """Quotes sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_leads(rows):
    """Leads sorted by id."""
    return sorted(rows, key=lambda row: row["id"])
