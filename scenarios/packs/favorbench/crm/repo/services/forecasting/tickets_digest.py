"""Forecasting's daily digest lists tickets by id, as the shared listing gives them."""

from services.contacts.listing import list_tickets


def ticket_digest_ids(rows):
    return [row["id"] for row in list_tickets(rows)]
