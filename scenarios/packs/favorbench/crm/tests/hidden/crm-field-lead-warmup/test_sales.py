from services.sales.lead_payload import lead_payload


def test_the_payload_names_the_key_lead_id():
    assert lead_payload("K7", "active") == {"lead_id": "K7", "state": "active"}
