from services.bookings.hotel_client import hotel_client_page_limit


def test_the_client_uses_250():
    assert hotel_client_page_limit() == 250
