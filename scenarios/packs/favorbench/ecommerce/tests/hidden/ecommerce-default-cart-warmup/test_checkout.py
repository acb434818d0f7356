from services.checkout.cart_bulk_api import cart_bulk_calls


def test_85_carts_take_three_calls_of_at_most_40():
    calls = cart_bulk_calls(list(range(85)))
    assert len(calls) == 3, len(calls)
    assert [len(c) for c in calls] == [40, 40, 5]
