"""Tests of services/scheduling/costs.py (run them all: python -m services.scheduling.tests)."""


def test_prescription_rates_are_positive_cents():
    from services.scheduling.costs import PRESCRIPTION_RATES

    assert set(PRESCRIPTION_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in PRESCRIPTION_RATES.values())


def test_referral_rates_are_positive_cents():
    from services.scheduling.costs import REFERRAL_RATES

    assert set(REFERRAL_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in REFERRAL_RATES.values())


def test_visit_rates_are_positive_cents():
    from services.scheduling.costs import VISIT_RATES

    assert set(VISIT_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in VISIT_RATES.values())


def test_shift_rates_are_positive_cents():
    from services.scheduling.costs import SHIFT_RATES

    assert set(SHIFT_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in SHIFT_RATES.values())


def test_appointment_rates_are_positive_cents():
    from services.scheduling.costs import APPOINTMENT_RATES

    assert set(APPOINTMENT_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in APPOINTMENT_RATES.values())


def test_room_rates_are_positive_cents():
    from services.scheduling.costs import ROOM_RATES

    assert set(ROOM_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in ROOM_RATES.values())
