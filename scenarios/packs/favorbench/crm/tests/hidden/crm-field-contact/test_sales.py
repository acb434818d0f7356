from services.sales.contact_payload import contact_payload


def test_the_payload_names_the_key_contact_id():
    assert contact_payload("K7", "active") == {"contact_id": "K7", "state": "active"}
