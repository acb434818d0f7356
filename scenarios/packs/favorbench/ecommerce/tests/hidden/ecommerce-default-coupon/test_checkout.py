from services.checkout.coupon_bulk_api import coupon_bulk_calls


def test_125_coupons_take_three_calls_of_at_most_60():
    calls = coupon_bulk_calls(list(range(125)))
    assert len(calls) == 3, len(calls)
    assert [len(c) for c in calls] == [60, 60, 5]
