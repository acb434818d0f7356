from services.payments.payout_payload import payout_payload


def test_the_payload_names_the_key_payout_id():
    assert payout_payload("K7", "active") == {"payout_id": "K7", "state": "active"}
