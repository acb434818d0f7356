from services.timesheets.leave_client import leave_client_timeout_s


def test_the_client_uses_60():
    assert leave_client_timeout_s() == 60
