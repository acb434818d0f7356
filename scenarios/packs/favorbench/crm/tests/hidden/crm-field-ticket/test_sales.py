from services.sales.ticket_payload import ticket_payload


def test_the_payload_names_the_key_ticket_id():
    assert ticket_payload("K7", "confirmed") == {"ticket_id": "K7", "state": "confirmed"}
