"""Batching helpers: lists split into API-sized batches."""


LEAD_BATCH_SIZE = 25


def batch_leads(items):
    """Leads in batches of LEAD_BATCH_SIZE, in their order."""
    return [items[i : i + LEAD_BATCH_SIZE] for i in range(0, len(items), LEAD_BATCH_SIZE)]


DEAL_BATCH_SIZE = 10


def batch_deals(items):
    """Deals in batches of DEAL_BATCH_SIZE, in their order."""
    return [items[i : i + DEAL_BATCH_SIZE] for i in range(0, len(items), DEAL_BATCH_SIZE)]


TICKET_BATCH_SIZE = 20


def batch_tickets(items):
    """Tickets in batches of TICKET_BATCH_SIZE, in their order."""
    return [items[i : i + TICKET_BATCH_SIZE] for i in range(0, len(items), TICKET_BATCH_SIZE)]


CAMPAIGN_BATCH_SIZE = 20


def batch_campaigns(items):
    """Campaigns in batches of CAMPAIGN_BATCH_SIZE, in their order."""
    return [items[i : i + CAMPAIGN_BATCH_SIZE] for i in range(0, len(items), CAMPAIGN_BATCH_SIZE)]


CONTACT_BATCH_SIZE = 25


def batch_contacts(items):
    """Contacts in batches of CONTACT_BATCH_SIZE, in their order."""
    return [items[i : i + CONTACT_BATCH_SIZE] for i in range(0, len(items), CONTACT_BATCH_SIZE)]


QUOTE_BATCH_SIZE = 10


def batch_quotes(items):
    """Quotes in batches of QUOTE_BATCH_SIZE, in their order."""
    return [items[i : i + QUOTE_BATCH_SIZE] for i in range(0, len(items), QUOTE_BATCH_SIZE)]
