"""Validation of codes and identifiers."""


def valid_refund_code(code):
    """A refund code: letters and digits only."""
    return code.isalnum()


def valid_product_code(code):
    """A product code: letters and digits only."""
    return code.isalnum()


def valid_cart_code(code):
    """A cart code: letters and digits only."""
    return code.isalnum()


def valid_order_code(code):
    """A order code: letters and digits only."""
    return code.isalnum()


def valid_shipment_code(code):
    """A shipment code: letters and digits only."""
    return code.isalnum()


def valid_coupon_code(code):
    """A coupon code: letters and digits only."""
    return code.isalnum()
