"""Tests of services/scheduling/lookup.py (run them all: python -m services.scheduling.tests)."""


def test_find_appointment_returns_what_is_stored():
    from services.scheduling.lookup import find_appointment

    assert find_appointment({"B7": 1}, "B7") == 1


def test_find_room_returns_what_is_stored():
    from services.scheduling.lookup import find_room

    assert find_room({"B7": 1}, "B7") == 1


def test_find_prescription_returns_what_is_stored():
    from services.scheduling.lookup import find_prescription

    assert find_prescription({"A1": 1}, "A1") == 1


def test_find_referral_returns_what_is_stored():
    from services.scheduling.lookup import find_referral

    assert find_referral({"A1": 1}, "A1") == 1


def test_find_visit_returns_what_is_stored():
    from services.scheduling.lookup import find_visit

    assert find_visit({"A1": 1}, "A1") == 1


def test_find_shift_returns_what_is_stored():
    from services.scheduling.lookup import find_shift

    assert find_shift({"C3": 1}, "C3") == 1
