"""Shared settings: every service reads them by name."""

DEFAULTS = {
    "product_page_limit": 100,  # products per page
    "cart_retries": 3,  # attempts per cart call
    "order_retries": 3,  # attempts per order call
    "shipment_retries": 3,  # attempts per shipment call
    "coupon_page_limit": 100,  # coupons per page
    "refund_page_limit": 100,  # refunds per page
}


def setting(name):
    """A shared setting by name."""
    return DEFAULTS[name]
