"""Validation of codes and identifiers."""


def valid_referral_code(code):
    """A referral code: letters and digits only."""
    return code.isalnum()


def valid_visit_code(code):
    """A visit code: letters and digits only."""
    return code.isalnum()


def valid_shift_code(code):
    """A shift code: letters and digits only."""
    return code.isalnum()


def valid_appointment_code(code):
    """A appointment code: letters and digits only."""
    return code.isalnum()


def valid_room_code(code):
    """A room code: letters and digits only."""
    return code.isalnum()


def valid_prescription_code(code):
    """A prescription code: letters and digits only."""
    return code.isalnum()
