"""Royalties's daily digest lists subscriptions by id, as the shared listing gives them."""

from services.catalog.listing import list_subscriptions


def subscription_digest_ids(rows):
    return [row["id"] for row in list_subscriptions(rows)]
