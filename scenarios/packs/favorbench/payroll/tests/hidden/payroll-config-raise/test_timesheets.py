from services.timesheets.raise_client import raise_client_retries


def test_the_client_uses_5():
    assert raise_client_retries() == 5
