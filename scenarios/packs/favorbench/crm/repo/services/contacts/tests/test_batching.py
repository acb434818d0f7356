"""Tests of services/contacts/batching.py (run them all: python -m services.contacts.tests)."""


def test_batch_leads_keeps_every_item_in_order():
    from services.contacts.batching import LEAD_BATCH_SIZE, batch_leads

    items = list(range(3 * LEAD_BATCH_SIZE + 1))
    batches = batch_leads(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= LEAD_BATCH_SIZE for batch in batches)


def test_batch_deals_keeps_every_item_in_order():
    from services.contacts.batching import DEAL_BATCH_SIZE, batch_deals

    items = list(range(3 * DEAL_BATCH_SIZE + 1))
    batches = batch_deals(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= DEAL_BATCH_SIZE for batch in batches)


def test_batch_tickets_keeps_every_item_in_order():
    from services.contacts.batching import TICKET_BATCH_SIZE, batch_tickets

    items = list(range(3 * TICKET_BATCH_SIZE + 1))
    batches = batch_tickets(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= TICKET_BATCH_SIZE for batch in batches)


def test_batch_campaigns_keeps_every_item_in_order():
    from services.contacts.batching import CAMPAIGN_BATCH_SIZE, batch_campaigns

    items = list(range(3 * CAMPAIGN_BATCH_SIZE + 1))
    batches = batch_campaigns(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= CAMPAIGN_BATCH_SIZE for batch in batches)


def test_batch_contacts_keeps_every_item_in_order():
    from services.contacts.batching import CONTACT_BATCH_SIZE, batch_contacts

    items = list(range(3 * CONTACT_BATCH_SIZE + 1))
    batches = batch_contacts(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= CONTACT_BATCH_SIZE for batch in batches)


def test_batch_quotes_keeps_every_item_in_order():
    from services.contacts.batching import QUOTE_BATCH_SIZE, batch_quotes

    items = list(range(3 * QUOTE_BATCH_SIZE + 1))
    batches = batch_quotes(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= QUOTE_BATCH_SIZE for batch in batches)
