"""Tests of services/scheduling/validation.py (run them all: python -m services.scheduling.tests)."""


def test_valid_referral_code_rejects_punctuation():
    from services.scheduling.validation import valid_referral_code

    assert valid_referral_code("AB12CD34EF")
    assert not valid_referral_code("AB12-CD34EF")


def test_valid_visit_code_rejects_punctuation():
    from services.scheduling.validation import valid_visit_code

    assert valid_visit_code("AB12CD34EF56")
    assert not valid_visit_code("AB12-CD34EF56")


def test_valid_shift_code_rejects_punctuation():
    from services.scheduling.validation import valid_shift_code

    assert valid_shift_code("AB12CD34EF")
    assert not valid_shift_code("AB12-CD34EF")


def test_valid_appointment_code_rejects_punctuation():
    from services.scheduling.validation import valid_appointment_code

    assert valid_appointment_code("AB12CD34")
    assert not valid_appointment_code("AB12-CD34")


def test_valid_room_code_rejects_punctuation():
    from services.scheduling.validation import valid_room_code

    assert valid_room_code("AB12CD34")
    assert not valid_room_code("AB12-CD34")


def test_valid_prescription_code_rejects_punctuation():
    from services.scheduling.validation import valid_prescription_code

    assert valid_prescription_code("AB12CD34")
    assert not valid_prescription_code("AB12-CD34")
