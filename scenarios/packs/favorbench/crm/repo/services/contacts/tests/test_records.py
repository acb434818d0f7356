"""Tests of services/contacts/records.py (run them all: python -m services.contacts.tests)."""


def test_deal_record_keeps_the_status():
    from services.contacts.records import deal_record

    assert deal_record("A1", "active")["status"] == "active"


def test_ticket_record_keeps_the_status():
    from services.contacts.records import ticket_record

    assert ticket_record("A1", "confirmed")["status"] == "confirmed"


def test_campaign_record_keeps_the_status():
    from services.contacts.records import campaign_record

    assert campaign_record("A1", "active")["status"] == "active"


def test_contact_record_keeps_the_status():
    from services.contacts.records import contact_record

    assert contact_record("A1", "active")["status"] == "active"


def test_quote_record_keeps_the_status():
    from services.contacts.records import quote_record

    assert quote_record("A1", "confirmed")["status"] == "confirmed"


def test_lead_record_keeps_the_status():
    from services.contacts.records import lead_record

    assert lead_record("A1", "active")["status"] == "active"
