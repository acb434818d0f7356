"""Formatting values as text."""


def format_cart_value(cents):
    """The value as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_order_total(cents):
    """The total as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_shipment_weight(grams):
    """The weight as text, e.g. 1500 g."""
    return f"{grams} g"


def format_coupon_discount(ratio):
    """The discount as text, e.g. 0.125."""
    return f"{ratio:.3f}"


def format_refund_amount(cents):
    """The amount as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_product_weight(grams):
    """The weight as text, e.g. 1500 g."""
    return f"{grams} g"
