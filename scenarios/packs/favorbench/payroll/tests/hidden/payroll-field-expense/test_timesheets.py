from services.timesheets.expense_payload import expense_payload


def test_the_payload_names_the_key_expense_id():
    assert expense_payload("K7", "open") == {"expense_id": "K7", "state": "open"}
