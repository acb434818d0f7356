from services.timesheets.bonus_client import bonus_client_retries


def test_the_client_uses_5():
    assert bonus_client_retries() == 5
