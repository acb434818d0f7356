from services.booking.prescription_api import get_prescription


def test_an_unknown_prescription_raises_lookup_error():
    try:
        get_prescription({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown prescription")


def test_a_known_prescription_is_returned():
    assert get_prescription({"A1": "x"}, "A1") == "x"
