from services.timesheets.employee_payload import employee_payload


def test_the_payload_names_the_key_employee_id():
    assert employee_payload("K7", "pending") == {"employee_id": "K7", "state": "pending"}
