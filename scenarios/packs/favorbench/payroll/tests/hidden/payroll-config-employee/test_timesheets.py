from services.timesheets.employee_client import employee_client_retries


def test_the_client_uses_5():
    assert employee_client_retries() == 5
