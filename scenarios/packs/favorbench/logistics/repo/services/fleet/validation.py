"""Validation of codes and identifiers."""


def valid_driver_code(code):
    """A driver code: letters and digits only."""
    return code.isalnum()


def valid_pallet_code(code):
    """A pallet code: letters and digits only."""
    return code.isalnum()


def valid_delivery_code(code):
    """A delivery code: letters and digits only."""
    return code.isalnum()


def valid_parcel_code(code):
    """A parcel code: letters and digits only."""
    return code.isalnum()


def valid_route_code(code):
    """A route code: letters and digits only."""
    return code.isalnum()


def valid_truck_code(code):
    """A truck code: letters and digits only."""
    return code.isalnum()
