"""Notifications's daily digest lists coupons by id, as the shared listing gives them."""

from services.platform.listing import list_coupons


def coupon_digest_ids(rows):
    return [row["id"] for row in list_coupons(rows)]
