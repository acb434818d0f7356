from services.payments.account_api import get_account


def test_an_unknown_account_raises_lookup_error():
    try:
        get_account({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown account")


def test_a_known_account_is_returned():
    assert get_account({"B7": "x"}, "B7") == "x"
