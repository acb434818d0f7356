"""Formatting values as text."""


def format_delivery_distance(meters):
    """The distance as text, e.g. 2500 m."""
    return f"{meters} m"


def format_parcel_weight(grams):
    """The weight as text, e.g. 1500 g."""
    return f"{grams} g"


def format_route_length(meters):
    """The length as text, e.g. 2500 m."""
    return f"{meters} m"


def format_truck_load(grams):
    """The load as text, e.g. 1500 g."""
    return f"{grams} g"


def format_driver_shift(seconds):
    """The shift as text, e.g. 125 s."""
    return f"{seconds} s"


def format_pallet_weight(grams):
    """The weight as text, e.g. 1500 g."""
    return f"{grams} g"
