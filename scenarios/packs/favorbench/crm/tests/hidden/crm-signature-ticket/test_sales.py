from services.sales.ticket_quote import ticket_quote


def test_quotes_use_the_tier_rate():
    assert ticket_quote(4, "express") == 32
    assert ticket_quote(2, "standard") == 6
