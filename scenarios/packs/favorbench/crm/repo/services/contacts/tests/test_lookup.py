"""Tests of services/contacts/lookup.py (run them all: python -m services.contacts.tests)."""


def test_find_lead_returns_what_is_stored():
    from services.contacts.lookup import find_lead

    assert find_lead({"A1": 1}, "A1") == 1


def test_find_deal_returns_what_is_stored():
    from services.contacts.lookup import find_deal

    assert find_deal({"A1": 1}, "A1") == 1


def test_find_ticket_returns_what_is_stored():
    from services.contacts.lookup import find_ticket

    assert find_ticket({"B7": 1}, "B7") == 1


def test_find_campaign_returns_what_is_stored():
    from services.contacts.lookup import find_campaign

    assert find_campaign({"C3": 1}, "C3") == 1


def test_find_contact_returns_what_is_stored():
    from services.contacts.lookup import find_contact

    assert find_contact({"A1": 1}, "A1") == 1


def test_find_quote_returns_what_is_stored():
    from services.contacts.lookup import find_quote

    assert find_quote({"C3": 1}, "C3") == 1
