from services.dashboard.gateway_payload import gateway_payload


def test_the_payload_names_the_key_gateway_id():
    assert gateway_payload("K7", "open") == {"gateway_id": "K7", "state": "open"}
