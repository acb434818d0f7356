from services.dashboard.sensor_client import sensor_client_page_limit


def test_the_client_uses_250():
    assert sensor_client_page_limit() == 250
