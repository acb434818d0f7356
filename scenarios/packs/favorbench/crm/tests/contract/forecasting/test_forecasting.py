"""What forecasting relies on in the shared code of contacts."""


def test_ticket_archive_calls_stay_within_20():
    from services.forecasting.tickets_upload import ticket_archive_calls

    calls = ticket_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_ticket_index_entry_reads_id_and_status():
    from services.forecasting.tickets_sync import ticket_index_entry

    assert ticket_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_ticket_charge_uses_the_negotiated_rate():
    from services.forecasting.tickets_billing import ticket_charge

    assert ticket_charge(10) == 60


def test_quote_charge_uses_the_negotiated_rate():
    from services.forecasting.quotes_billing import quote_charge

    assert quote_charge(10) == 110


def test_legacy_quote_codes_still_import():
    from services.forecasting.quotes_import import importable

    assert importable(["k9z", "bad code"]) == ["k9z"]


def test_quote_polling_is_sized_for_3():
    from services.forecasting.quotes_poller import quote_poll_retries

    assert quote_poll_retries() == 3


def test_quote_discount_text_parses_back():
    from services.forecasting.quotes_parser import quote_discount_roundtrip

    assert quote_discount_roundtrip(0.125) == 0.125


def test_ticket_age_text_parses_back():
    from services.forecasting.tickets_parser import ticket_age_roundtrip

    assert ticket_age_roundtrip(125) == 125


def test_contact_response_text_parses_back():
    from services.forecasting.contacts_parser import contact_response_roundtrip

    assert contact_response_roundtrip(125) == 125


def test_ticket_exists_is_false_for_unknown_keys():
    from services.forecasting.tickets_checks import ticket_exists

    assert ticket_exists({}, "B7") is False
    assert ticket_exists({"B7": 1}, "B7") is True


def test_the_ticket_digest_is_in_id_order():
    from services.forecasting.tickets_digest import ticket_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert ticket_digest_ids(rows) == [1, 2, 3]
