"""Helpdesk's daily digest lists leads by id, as the shared listing gives them."""

from services.contacts.listing import list_leads


def lead_digest_ids(rows):
    return [row["id"] for row in list_leads(rows)]
