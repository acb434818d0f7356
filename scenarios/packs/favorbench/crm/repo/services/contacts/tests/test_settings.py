"""Tests of services/contacts/settings.py (run them all: python -m services.contacts.tests)."""


def test_contact_timeout_s_is_a_positive_whole_number():
    from services.contacts.settings import setting

    assert isinstance(setting("contact_timeout_s"), int) and setting("contact_timeout_s") > 0


def test_quote_retries_is_a_positive_whole_number():
    from services.contacts.settings import setting

    assert isinstance(setting("quote_retries"), int) and setting("quote_retries") > 0


def test_lead_retries_is_a_positive_whole_number():
    from services.contacts.settings import setting

    assert isinstance(setting("lead_retries"), int) and setting("lead_retries") > 0


def test_deal_timeout_s_is_a_positive_whole_number():
    from services.contacts.settings import setting

    assert isinstance(setting("deal_timeout_s"), int) and setting("deal_timeout_s") > 0


def test_ticket_cache_ttl_s_is_a_positive_whole_number():
    from services.contacts.settings import setting

    assert isinstance(setting("ticket_cache_ttl_s"), int) and setting("ticket_cache_ttl_s") > 0


def test_campaign_timeout_s_is_a_positive_whole_number():
    from services.contacts.settings import setting

    assert isinstance(setting("campaign_timeout_s"), int) and setting("campaign_timeout_s") > 0
