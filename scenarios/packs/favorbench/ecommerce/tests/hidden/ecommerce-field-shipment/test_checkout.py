from services.checkout.shipment_payload import shipment_payload


def test_the_payload_names_the_key_shipment_id():
    assert shipment_payload("K7", "confirmed") == {"shipment_id": "K7", "state": "confirmed"}
