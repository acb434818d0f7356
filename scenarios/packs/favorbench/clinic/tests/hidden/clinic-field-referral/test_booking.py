from services.booking.referral_payload import referral_payload


def test_the_payload_names_the_key_referral_id():
    assert referral_payload("K7", "active") == {"referral_id": "K7", "state": "active"}
