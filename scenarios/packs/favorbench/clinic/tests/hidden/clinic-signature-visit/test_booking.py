from services.booking.visit_quote import visit_quote


def test_quotes_use_the_tier_rate():
    assert visit_quote(4, "express") == 48
    assert visit_quote(2, "standard") == 10
