from services.sales.quote_payload import quote_payload


def test_the_payload_names_the_key_quote_id():
    assert quote_payload("K7", "confirmed") == {"quote_id": "K7", "state": "confirmed"}
