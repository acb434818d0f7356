"""Reporting's daily digest lists refunds by id, as the shared listing gives them."""

from services.platform.listing import list_refunds


def refund_digest_ids(rows):
    return [row["id"] for row in list_refunds(rows)]
