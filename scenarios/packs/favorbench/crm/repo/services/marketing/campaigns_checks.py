"""Marketing checks whether campaigns exist before it acts on them."""

from services.contacts.lookup import find_campaign


def campaign_exists(table, key):
    return find_campaign(table, key) is not None
