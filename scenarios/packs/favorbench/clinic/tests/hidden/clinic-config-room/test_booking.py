from services.booking.room_client import room_client_page_limit


def test_the_client_uses_250():
    assert room_client_page_limit() == 250
