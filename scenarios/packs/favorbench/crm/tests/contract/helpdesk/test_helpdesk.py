"""What helpdesk relies on in the shared code of contacts."""


def test_deal_archive_calls_stay_within_10():
    from services.helpdesk.deals_upload import deal_archive_calls

    calls = deal_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_deal_index_entry_reads_id_and_status():
    from services.helpdesk.deals_sync import deal_index_entry

    assert deal_index_entry("Z9", "active") == ("Z9", "active")


def test_contact_index_entry_reads_id_and_status():
    from services.helpdesk.contacts_sync import contact_index_entry

    assert contact_index_entry("Z9", "active") == ("Z9", "active")


def test_lead_index_entry_reads_id_and_status():
    from services.helpdesk.leads_sync import lead_index_entry

    assert lead_index_entry("Z9", "active") == ("Z9", "active")


def test_contact_charge_uses_the_negotiated_rate():
    from services.helpdesk.contacts_billing import contact_charge

    assert contact_charge(10) == 60


def test_legacy_contact_codes_still_import():
    from services.helpdesk.contacts_import import importable

    assert importable(["m42", "bad code"]) == ["m42"]


def test_contact_polling_is_sized_for_30():
    from services.helpdesk.contacts_poller import contact_poll_timeout_s

    assert contact_poll_timeout_s() == 30


def test_deal_polling_is_sized_for_30():
    from services.helpdesk.deals_poller import deal_poll_timeout_s

    assert deal_poll_timeout_s() == 30


def test_deal_amount_text_parses_back():
    from services.helpdesk.deals_parser import deal_amount_roundtrip

    assert deal_amount_roundtrip(123450) == 123450


def test_deal_exists_is_false_for_unknown_keys():
    from services.helpdesk.deals_checks import deal_exists

    assert deal_exists({}, "A1") is False
    assert deal_exists({"A1": 1}, "A1") is True


def test_the_deal_digest_is_in_id_order():
    from services.helpdesk.deals_digest import deal_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert deal_digest_ids(rows) == [1, 2, 3]


def test_the_contact_digest_is_in_id_order():
    from services.helpdesk.contacts_digest import contact_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert contact_digest_ids(rows) == [1, 2, 3]


def test_the_lead_digest_is_in_id_order():
    from services.helpdesk.leads_digest import lead_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert lead_digest_ids(rows) == [1, 2, 3]
