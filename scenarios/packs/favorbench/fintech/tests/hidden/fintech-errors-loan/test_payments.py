from services.payments.loan_api import get_loan


def test_an_unknown_loan_raises_lookup_error():
    try:
        get_loan({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown loan")


def test_a_known_loan_is_returned():
    assert get_loan({"B7": "x"}, "B7") == "x"
