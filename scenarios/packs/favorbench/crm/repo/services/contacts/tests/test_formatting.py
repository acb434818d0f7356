"""Tests of services/contacts/formatting.py (run them all: python -m services.contacts.tests)."""


def test_format_quote_discount_gives_distinct_text():
    from services.contacts.formatting import format_quote_discount

    assert isinstance(format_quote_discount(0.125), str)
    assert format_quote_discount(0.125) != format_quote_discount(0.25)


def test_format_lead_value_gives_distinct_text():
    from services.contacts.formatting import format_lead_value

    assert isinstance(format_lead_value(123450), str)
    assert format_lead_value(123450) != format_lead_value(246900)


def test_format_deal_amount_gives_distinct_text():
    from services.contacts.formatting import format_deal_amount

    assert isinstance(format_deal_amount(123450), str)
    assert format_deal_amount(123450) != format_deal_amount(246900)


def test_format_ticket_age_gives_distinct_text():
    from services.contacts.formatting import format_ticket_age

    assert isinstance(format_ticket_age(125), str)
    assert format_ticket_age(125) != format_ticket_age(250)


def test_format_campaign_budget_gives_distinct_text():
    from services.contacts.formatting import format_campaign_budget

    assert isinstance(format_campaign_budget(123450), str)
    assert format_campaign_budget(123450) != format_campaign_budget(246900)


def test_format_contact_response_gives_distinct_text():
    from services.contacts.formatting import format_contact_response

    assert isinstance(format_contact_response(125), str)
    assert format_contact_response(125) != format_contact_response(250)
