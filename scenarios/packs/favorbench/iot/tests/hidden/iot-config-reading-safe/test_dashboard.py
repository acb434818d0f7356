from services.dashboard.reading_client import reading_client_retries


def test_the_client_uses_5():
    assert reading_client_retries() == 5
