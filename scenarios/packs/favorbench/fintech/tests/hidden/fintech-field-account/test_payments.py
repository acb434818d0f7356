from services.payments.account_payload import account_payload


def test_the_payload_names_the_key_account_id():
    assert account_payload("K7", "active") == {"account_id": "K7", "state": "active"}
