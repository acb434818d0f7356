"""Records as plain dicts, the shape other services read."""


def shipment_record(key, status):
    """Shipment `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def coupon_record(key, status):
    """Coupon `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def refund_record(key, status):
    """Refund `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def product_record(key, status):
    """Product `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def cart_record(key, status):
    """Cart `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def order_record(key, status):
    """Order `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }
