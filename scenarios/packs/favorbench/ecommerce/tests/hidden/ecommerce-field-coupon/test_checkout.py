from services.checkout.coupon_payload import coupon_payload


def test_the_payload_names_the_key_coupon_id():
    assert coupon_payload("K7", "open") == {"coupon_id": "K7", "state": "open"}
