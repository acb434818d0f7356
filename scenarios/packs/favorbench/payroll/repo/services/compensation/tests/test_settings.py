"""Tests of services/compensation/settings.py (run them all: python -m services.compensation.tests)."""


def test_expense_timeout_s_is_a_positive_whole_number():
    from services.compensation.settings import setting

    assert isinstance(setting("expense_timeout_s"), int) and setting("expense_timeout_s") > 0


def test_raise_retries_is_a_positive_whole_number():
    from services.compensation.settings import setting

    assert isinstance(setting("raise_retries"), int) and setting("raise_retries") > 0


def test_employee_retries_is_a_positive_whole_number():
    from services.compensation.settings import setting

    assert isinstance(setting("employee_retries"), int) and setting("employee_retries") > 0


def test_shift_cache_ttl_s_is_a_positive_whole_number():
    from services.compensation.settings import setting

    assert isinstance(setting("shift_cache_ttl_s"), int) and setting("shift_cache_ttl_s") > 0


def test_bonus_retries_is_a_positive_whole_number():
    from services.compensation.settings import setting

    assert isinstance(setting("bonus_retries"), int) and setting("bonus_retries") > 0


def test_leave_timeout_s_is_a_positive_whole_number():
    from services.compensation.settings import setting

    assert isinstance(setting("leave_timeout_s"), int) and setting("leave_timeout_s") > 0
