from services.booking.visit_client import visit_client_page_limit


def test_the_client_uses_250():
    assert visit_client_page_limit() == 250
