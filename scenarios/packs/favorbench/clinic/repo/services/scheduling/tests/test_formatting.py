"""Tests of services/scheduling/formatting.py (run them all: python -m services.scheduling.tests)."""


def test_format_shift_length_gives_distinct_text():
    from services.scheduling.formatting import format_shift_length

    assert isinstance(format_shift_length(125), str)
    assert format_shift_length(125) != format_shift_length(250)


def test_format_appointment_length_gives_distinct_text():
    from services.scheduling.formatting import format_appointment_length

    assert isinstance(format_appointment_length(125), str)
    assert format_appointment_length(125) != format_appointment_length(250)


def test_format_room_occupancy_gives_distinct_text():
    from services.scheduling.formatting import format_room_occupancy

    assert isinstance(format_room_occupancy(0.125), str)
    assert format_room_occupancy(0.125) != format_room_occupancy(0.25)


def test_format_prescription_dose_gives_distinct_text():
    from services.scheduling.formatting import format_prescription_dose

    assert isinstance(format_prescription_dose(1500), str)
    assert format_prescription_dose(1500) != format_prescription_dose(3000)


def test_format_referral_wait_gives_distinct_text():
    from services.scheduling.formatting import format_referral_wait

    assert isinstance(format_referral_wait(125), str)
    assert format_referral_wait(125) != format_referral_wait(250)


def test_format_visit_fee_gives_distinct_text():
    from services.scheduling.formatting import format_visit_fee

    assert isinstance(format_visit_fee(123450), str)
    assert format_visit_fee(123450) != format_visit_fee(246900)
