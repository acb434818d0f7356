"""Helpdesk's daily digest lists contacts by id, as the shared listing gives them."""

from services.contacts.listing import list_contacts


def contact_digest_ids(rows):
    return [row["id"] for row in list_contacts(rows)]
