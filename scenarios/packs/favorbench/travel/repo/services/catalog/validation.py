"""Validation of codes and identifiers."""


def valid_seat_code(code):
    """A seat code: letters and digits only."""
    return code.isalnum()


def valid_bag_code(code):
    """A bag code: letters and digits only."""
    return code.isalnum()


def valid_transfer_code(code):
    """A transfer code: letters and digits only."""
    return code.isalnum()


def valid_flight_code(code):
    """A flight code: letters and digits only."""
    return code.isalnum()


def valid_hotel_code(code):
    """A hotel code: letters and digits only."""
    return code.isalnum()


def valid_trip_code(code):
    """A trip code: letters and digits only."""
    return code.isalnum()
