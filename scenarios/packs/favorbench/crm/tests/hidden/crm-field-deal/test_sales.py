from services.sales.deal_payload import deal_payload


def test_the_payload_names_the_key_deal_id():
    assert deal_payload("K7", "active") == {"deal_id": "K7", "state": "active"}
