from services.dashboard.alarm_client import alarm_client_page_limit


def test_the_client_uses_250():
    assert alarm_client_page_limit() == 250
