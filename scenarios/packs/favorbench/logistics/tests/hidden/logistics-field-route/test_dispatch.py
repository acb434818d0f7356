from services.dispatch.route_payload import route_payload


def test_the_payload_names_the_key_route_id():
    assert route_payload("K7", "confirmed") == {"route_id": "K7", "state": "confirmed"}
