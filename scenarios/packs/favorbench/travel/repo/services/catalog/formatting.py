"""Formatting values as text."""


def format_transfer_distance(meters):
    """The distance as text, e.g. 2500 m."""
    return f"{meters} m"


def format_flight_distance(meters):
    """The distance as text, e.g. 2500 m."""
    return f"{meters} m"


def format_hotel_rate(cents):
    """The rate as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_trip_length(seconds):
    """The length as text, e.g. 125 s."""
    return f"{seconds} s"


def format_seat_price(cents):
    """The price as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_bag_weight(grams):
    """The weight as text, e.g. 1500 g."""
    return f"{grams} g"
