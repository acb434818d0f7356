from services.checkout.shipment_api import get_shipment


def test_an_unknown_shipment_raises_lookup_error():
    try:
        get_shipment({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown shipment")


def test_a_known_shipment_is_returned():
    assert get_shipment({"A1": "x"}, "A1") == "x"
