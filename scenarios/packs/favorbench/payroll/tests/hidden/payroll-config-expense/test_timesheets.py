from services.timesheets.expense_client import expense_client_timeout_s


def test_the_client_uses_60():
    assert expense_client_timeout_s() == 60
