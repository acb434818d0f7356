"""Tests of services/scheduling/settings.py (run them all: python -m services.scheduling.tests)."""


def test_visit_page_limit_is_a_positive_whole_number():
    from services.scheduling.settings import setting

    assert isinstance(setting("visit_page_limit"), int) and setting("visit_page_limit") > 0


def test_shift_timeout_s_is_a_positive_whole_number():
    from services.scheduling.settings import setting

    assert isinstance(setting("shift_timeout_s"), int) and setting("shift_timeout_s") > 0


def test_appointment_page_limit_is_a_positive_whole_number():
    from services.scheduling.settings import setting

    assert isinstance(setting("appointment_page_limit"), int) and setting("appointment_page_limit") > 0


def test_room_page_limit_is_a_positive_whole_number():
    from services.scheduling.settings import setting

    assert isinstance(setting("room_page_limit"), int) and setting("room_page_limit") > 0


def test_prescription_cache_ttl_s_is_a_positive_whole_number():
    from services.scheduling.settings import setting

    assert isinstance(setting("prescription_cache_ttl_s"), int) and setting("prescription_cache_ttl_s") > 0


def test_referral_timeout_s_is_a_positive_whole_number():
    from services.scheduling.settings import setting

    assert isinstance(setting("referral_timeout_s"), int) and setting("referral_timeout_s") > 0
