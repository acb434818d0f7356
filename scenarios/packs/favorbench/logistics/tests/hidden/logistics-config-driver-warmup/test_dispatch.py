from services.dispatch.driver_client import driver_client_retries


def test_the_client_uses_5():
    assert driver_client_retries() == 5
