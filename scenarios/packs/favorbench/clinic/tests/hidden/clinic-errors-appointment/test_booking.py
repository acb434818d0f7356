from services.booking.appointment_api import get_appointment


def test_an_unknown_appointment_raises_lookup_error():
    try:
        get_appointment({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown appointment")


def test_a_known_appointment_is_returned():
    assert get_appointment({"B7": "x"}, "B7") == "x"
