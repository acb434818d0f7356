from services.dispatch.truck_quote import truck_quote


def test_quotes_use_the_tier_rate():
    assert truck_quote(4, "express") == 48
    assert truck_quote(2, "standard") == 10
