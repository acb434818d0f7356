from services.sales.ticket_api import get_ticket


def test_an_unknown_ticket_raises_lookup_error():
    try:
        get_ticket({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown ticket")


def test_a_known_ticket_is_returned():
    assert get_ticket({"B7": "x"}, "B7") == "x"
