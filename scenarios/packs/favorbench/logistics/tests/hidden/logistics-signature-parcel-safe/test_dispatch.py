from services.dispatch.parcel_quote import parcel_quote


def test_quotes_use_the_tier_rate():
    assert parcel_quote(4, "express") == 36
    assert parcel_quote(2, "standard") == 8
