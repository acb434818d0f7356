from services.sales.campaign_payload import campaign_payload


def test_the_payload_names_the_key_campaign_id():
    assert campaign_payload("K7", "active") == {"campaign_id": "K7", "state": "active"}
