"""Tests of services/contacts/listing.py (run them all: python -m services.contacts.tests)."""


def test_list_deals_keeps_every_row():
    from services.contacts.listing import list_deals

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_deals(rows)) == [1, 2, 3]


def test_list_tickets_keeps_every_row():
    from services.contacts.listing import list_tickets

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_tickets(rows)) == [1, 2, 3]


def test_list_campaigns_keeps_every_row():
    from services.contacts.listing import list_campaigns

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_campaigns(rows)) == [1, 2, 3]


def test_list_contacts_keeps_every_row():
    from services.contacts.listing import list_contacts

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_contacts(rows)) == [1, 2, 3]


def test_list_quotes_keeps_every_row():
    from services.contacts.listing import list_quotes

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_quotes(rows)) == [1, 2, 3]


def test_list_leads_keeps_every_row():
    from services.contacts.listing import list_leads

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_leads(rows)) == [1, 2, 3]
