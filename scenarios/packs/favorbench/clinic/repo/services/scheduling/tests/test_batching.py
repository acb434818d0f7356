"""Tests of services/scheduling/batching.py (run them all: python -m services.scheduling.tests)."""


def test_batch_appointments_keeps_every_item_in_order():
    from services.scheduling.batching import APPOINTMENT_BATCH_SIZE, batch_appointments

    items = list(range(3 * APPOINTMENT_BATCH_SIZE + 1))
    batches = batch_appointments(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= APPOINTMENT_BATCH_SIZE for batch in batches)


def test_batch_rooms_keeps_every_item_in_order():
    from services.scheduling.batching import ROOM_BATCH_SIZE, batch_rooms

    items = list(range(3 * ROOM_BATCH_SIZE + 1))
    batches = batch_rooms(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= ROOM_BATCH_SIZE for batch in batches)


def test_batch_prescriptions_keeps_every_item_in_order():
    from services.scheduling.batching import PRESCRIPTION_BATCH_SIZE, batch_prescriptions

    items = list(range(3 * PRESCRIPTION_BATCH_SIZE + 1))
    batches = batch_prescriptions(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= PRESCRIPTION_BATCH_SIZE for batch in batches)


def test_batch_referrals_keeps_every_item_in_order():
    from services.scheduling.batching import REFERRAL_BATCH_SIZE, batch_referrals

    items = list(range(3 * REFERRAL_BATCH_SIZE + 1))
    batches = batch_referrals(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= REFERRAL_BATCH_SIZE for batch in batches)


def test_batch_visits_keeps_every_item_in_order():
    from services.scheduling.batching import VISIT_BATCH_SIZE, batch_visits

    items = list(range(3 * VISIT_BATCH_SIZE + 1))
    batches = batch_visits(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= VISIT_BATCH_SIZE for batch in batches)


def test_batch_shifts_keeps_every_item_in_order():
    from services.scheduling.batching import SHIFT_BATCH_SIZE, batch_shifts

    items = list(range(3 * SHIFT_BATCH_SIZE + 1))
    batches = batch_shifts(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= SHIFT_BATCH_SIZE for batch in batches)
