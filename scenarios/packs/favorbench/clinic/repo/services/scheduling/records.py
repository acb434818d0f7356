"""Records as plain dicts, the shape other services read."""


def room_record(key, status):
    """Room `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def prescription_record(key, status):
    """Prescription `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def referral_record(key, status):
    """Referral `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def visit_record(key, status):
    """Visit `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def shift_record(key, status):
    """Shift `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def appointment_record(key, status):
    """Appointment `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }
