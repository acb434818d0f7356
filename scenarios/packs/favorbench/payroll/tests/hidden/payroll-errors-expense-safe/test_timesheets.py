from services.timesheets.expense_api import get_expense


def test_an_unknown_expense_raises_lookup_error():
    try:
        get_expense({}, "K9")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown expense")


def test_a_known_expense_is_returned():
    assert get_expense({"K9": "x"}, "K9") == "x"
