from services.payments.loan_payload import loan_payload


def test_the_payload_names_the_key_loan_id():
    assert loan_payload("K7", "open") == {"loan_id": "K7", "state": "open"}
