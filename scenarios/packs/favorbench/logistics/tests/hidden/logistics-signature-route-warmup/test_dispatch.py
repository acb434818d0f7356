from services.dispatch.route_quote import route_quote


def test_quotes_use_the_tier_rate():
    assert route_quote(4, "express") == 48
    assert route_quote(2, "standard") == 10
