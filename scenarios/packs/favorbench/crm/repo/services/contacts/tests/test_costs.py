"""Tests of services/contacts/costs.py (run them all: python -m services.contacts.tests)."""


def test_ticket_rates_are_positive_cents():
    from services.contacts.costs import TICKET_RATES

    assert set(TICKET_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in TICKET_RATES.values())


def test_campaign_rates_are_positive_cents():
    from services.contacts.costs import CAMPAIGN_RATES

    assert set(CAMPAIGN_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in CAMPAIGN_RATES.values())


def test_contact_rates_are_positive_cents():
    from services.contacts.costs import CONTACT_RATES

    assert set(CONTACT_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in CONTACT_RATES.values())


def test_quote_rates_are_positive_cents():
    from services.contacts.costs import QUOTE_RATES

    assert set(QUOTE_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in QUOTE_RATES.values())


def test_lead_rates_are_positive_cents():
    from services.contacts.costs import LEAD_RATES

    assert set(LEAD_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in LEAD_RATES.values())


def test_deal_rates_are_positive_cents():
    from services.contacts.costs import DEAL_RATES

    assert set(DEAL_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in DEAL_RATES.values())
