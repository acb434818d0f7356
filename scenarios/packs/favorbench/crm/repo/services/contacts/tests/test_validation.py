"""Tests of services/contacts/validation.py (run them all: python -m services.contacts.tests)."""


def test_valid_campaign_code_rejects_punctuation():
    from services.contacts.validation import valid_campaign_code

    assert valid_campaign_code("AB12CD34EF")
    assert not valid_campaign_code("AB12-CD34EF")


def test_valid_contact_code_rejects_punctuation():
    from services.contacts.validation import valid_contact_code

    assert valid_contact_code("AB12CD34EF")
    assert not valid_contact_code("AB12-CD34EF")


def test_valid_quote_code_rejects_punctuation():
    from services.contacts.validation import valid_quote_code

    assert valid_quote_code("AB12CD34")
    assert not valid_quote_code("AB12-CD34")


def test_valid_lead_code_rejects_punctuation():
    from services.contacts.validation import valid_lead_code

    assert valid_lead_code("AB12CD34")
    assert not valid_lead_code("AB12-CD34")


def test_valid_deal_code_rejects_punctuation():
    from services.contacts.validation import valid_deal_code

    assert valid_deal_code("AB12CD34EF")
    assert not valid_deal_code("AB12-CD34EF")


def test_valid_ticket_code_rejects_punctuation():
    from services.contacts.validation import valid_ticket_code

    assert valid_ticket_code("AB12CD34EF")
    assert not valid_ticket_code("AB12-CD34EF")
