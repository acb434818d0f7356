from services.timesheets.employee_api import get_employee


def test_an_unknown_employee_raises_lookup_error():
    try:
        get_employee({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown employee")


def test_a_known_employee_is_returned():
    assert get_employee({"B7": "x"}, "B7") == "x"
