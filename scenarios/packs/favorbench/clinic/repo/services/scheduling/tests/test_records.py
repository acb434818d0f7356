"""Tests of services/scheduling/records.py (run them all: python -m services.scheduling.tests)."""


def test_room_record_keeps_the_status():
    from services.scheduling.records import room_record

    assert room_record("A1", "confirmed")["status"] == "confirmed"


def test_prescription_record_keeps_the_status():
    from services.scheduling.records import prescription_record

    assert prescription_record("A1", "open")["status"] == "open"


def test_referral_record_keeps_the_status():
    from services.scheduling.records import referral_record

    assert referral_record("A1", "active")["status"] == "active"


def test_visit_record_keeps_the_status():
    from services.scheduling.records import visit_record

    assert visit_record("A1", "pending")["status"] == "pending"


def test_shift_record_keeps_the_status():
    from services.scheduling.records import shift_record

    assert shift_record("A1", "confirmed")["status"] == "confirmed"


def test_appointment_record_keeps_the_status():
    from services.scheduling.records import appointment_record

    assert appointment_record("A1", "active")["status"] == "active"
