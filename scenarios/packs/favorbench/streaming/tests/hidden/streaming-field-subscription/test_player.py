from services.player.subscription_payload import subscription_payload


def test_the_payload_names_the_key_subscription_id():
    assert subscription_payload("K7", "open") == {"subscription_id": "K7", "state": "open"}
