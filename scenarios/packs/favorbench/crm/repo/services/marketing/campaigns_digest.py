"""Marketing's daily digest lists campaigns by id, as the shared listing gives them."""

from services.contacts.listing import list_campaigns


def campaign_digest_ids(rows):
    return [row["id"] for row in list_campaigns(rows)]
