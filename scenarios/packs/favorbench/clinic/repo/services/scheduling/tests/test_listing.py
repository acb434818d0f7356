"""Tests of services/scheduling/listing.py (run them all: python -m services.scheduling.tests)."""


def test_list_rooms_keeps_every_row():
    from services.scheduling.listing import list_rooms

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_rooms(rows)) == [1, 2, 3]


def test_list_prescriptions_keeps_every_row():
    from services.scheduling.listing import list_prescriptions

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_prescriptions(rows)) == [1, 2, 3]


def test_list_referrals_keeps_every_row():
    from services.scheduling.listing import list_referrals

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_referrals(rows)) == [1, 2, 3]


def test_list_visits_keeps_every_row():
    from services.scheduling.listing import list_visits

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_visits(rows)) == [1, 2, 3]


def test_list_shifts_keeps_every_row():
    from services.scheduling.listing import list_shifts

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_shifts(rows)) == [1, 2, 3]


def test_list_appointments_keeps_every_row():
    from services.scheduling.listing import list_appointments

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_appointments(rows)) == [1, 2, 3]
