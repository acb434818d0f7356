from services.payments.card_payload import card_payload


def test_the_payload_names_the_key_card_id():
    assert card_payload("K7", "confirmed") == {"card_id": "K7", "state": "confirmed"}
