"""Batching helpers: lists split into API-sized batches."""


APPOINTMENT_BATCH_SIZE = 20


def batch_appointments(items):
    """Appointments in batches of APPOINTMENT_BATCH_SIZE, in their order."""
    return [items[i : i + APPOINTMENT_BATCH_SIZE] for i in range(0, len(items), APPOINTMENT_BATCH_SIZE)]


ROOM_BATCH_SIZE = 20


def batch_rooms(items):
    """Rooms in batches of ROOM_BATCH_SIZE, in their order."""
    return [items[i : i + ROOM_BATCH_SIZE] for i in range(0, len(items), ROOM_BATCH_SIZE)]


PRESCRIPTION_BATCH_SIZE = 20


def batch_prescriptions(items):
    """Prescriptions in batches of PRESCRIPTION_BATCH_SIZE, in their order."""
    return [items[i : i + PRESCRIPTION_BATCH_SIZE] for i in range(0, len(items), PRESCRIPTION_BATCH_SIZE)]


REFERRAL_BATCH_SIZE = 10


def batch_referrals(items):
    """Referrals in batches of REFERRAL_BATCH_SIZE, in their order."""
    return [items[i : i + REFERRAL_BATCH_SIZE] for i in range(0, len(items), REFERRAL_BATCH_SIZE)]


VISIT_BATCH_SIZE = 10


def batch_visits(items):
    """Visits in batches of VISIT_BATCH_SIZE, in their order."""
    return [items[i : i + VISIT_BATCH_SIZE] for i in range(0, len(items), VISIT_BATCH_SIZE)]


SHIFT_BATCH_SIZE = 10


def batch_shifts(items):
    """Shifts in batches of SHIFT_BATCH_SIZE, in their order."""
    return [items[i : i + SHIFT_BATCH_SIZE] for i in range(0, len(items), SHIFT_BATCH_SIZE)]
