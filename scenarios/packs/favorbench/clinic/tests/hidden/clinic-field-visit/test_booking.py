from services.booking.visit_payload import visit_payload


def test_the_payload_names_the_key_visit_id():
    assert visit_payload("K7", "pending") == {"visit_id": "K7", "state": "pending"}
