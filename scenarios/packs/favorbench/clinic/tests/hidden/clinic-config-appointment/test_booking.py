from services.booking.appointment_client import appointment_client_page_limit


def test_the_client_uses_250():
    assert appointment_client_page_limit() == 250
