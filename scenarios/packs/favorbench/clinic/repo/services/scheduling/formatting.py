"""Formatting values as text."""


def format_shift_length(seconds):
    """The length as text, e.g. 125 s."""
    return f"{seconds} s"


def format_appointment_length(seconds):
    """The length as text, e.g. 125 s."""
    return f"{seconds} s"


def format_room_occupancy(ratio):
    """The occupancy as text, e.g. 0.125."""
    return f"{ratio:.3f}"


def format_prescription_dose(grams):
    """The dose as text, e.g. 1500 g."""
    return f"{grams} g"


def format_referral_wait(seconds):
    """The wait as text, e.g. 125 s."""
    return f"{seconds} s"


def format_visit_fee(cents):
    """The fee as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"
