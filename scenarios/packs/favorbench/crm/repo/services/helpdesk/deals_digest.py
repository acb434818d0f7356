"""Helpdesk's daily digest lists deals by id, as the shared listing gives them."""

from services.contacts.listing import list_deals


def deal_digest_ids(rows):
    return [row["id"] for row in list_deals(rows)]
