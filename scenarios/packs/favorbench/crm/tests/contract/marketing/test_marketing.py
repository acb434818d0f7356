"""What marketing relies on in the shared code of contacts."""


def test_lead_archive_calls_stay_within_25():
    from services.marketing.leads_upload import lead_archive_calls

    calls = lead_archive_calls(list(range(51)))
    assert [len(c) for c in calls] == [25, 25, 1]


def test_campaign_archive_calls_stay_within_20():
    from services.marketing.campaigns_upload import campaign_archive_calls

    calls = campaign_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_campaign_index_entry_reads_id_and_status():
    from services.marketing.campaigns_sync import campaign_index_entry

    assert campaign_index_entry("Z9", "active") == ("Z9", "active")


def test_campaign_charge_uses_the_negotiated_rate():
    from services.marketing.campaigns_billing import campaign_charge

    assert campaign_charge(10) == 60


def test_legacy_campaign_codes_still_import():
    from services.marketing.campaigns_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_legacy_lead_codes_still_import():
    from services.marketing.leads_import import importable

    assert importable(["k9z", "bad code"]) == ["k9z"]


def test_legacy_ticket_codes_still_import():
    from services.marketing.tickets_import import importable

    assert importable(["k9z", "bad code"]) == ["k9z"]


def test_lead_polling_is_sized_for_3():
    from services.marketing.leads_poller import lead_poll_retries

    assert lead_poll_retries() == 3


def test_lead_value_text_parses_back():
    from services.marketing.leads_parser import lead_value_roundtrip

    assert lead_value_roundtrip(123450) == 123450


def test_lead_exists_is_false_for_unknown_keys():
    from services.marketing.leads_checks import lead_exists

    assert lead_exists({}, "A1") is False
    assert lead_exists({"A1": 1}, "A1") is True


def test_campaign_exists_is_false_for_unknown_keys():
    from services.marketing.campaigns_checks import campaign_exists

    assert campaign_exists({}, "C3") is False
    assert campaign_exists({"C3": 1}, "C3") is True


def test_the_campaign_digest_is_in_id_order():
    from services.marketing.campaigns_digest import campaign_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert campaign_digest_ids(rows) == [1, 2, 3]
