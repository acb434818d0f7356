"""What partners relies on in the shared code of catalog."""


def test_hotel_archive_calls_stay_within_10():
    from services.partners.hotels_upload import hotel_archive_calls

    calls = hotel_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_hotel_index_entry_reads_id_and_status():
    from services.partners.hotels_sync import hotel_index_entry

    assert hotel_index_entry("Z9", "active") == ("Z9", "active")


def test_bag_index_entry_reads_id_and_status():
    from services.partners.bags_sync import bag_index_entry

    assert bag_index_entry("Z9", "pending") == ("Z9", "pending")


def test_flight_index_entry_reads_id_and_status():
    from services.partners.flights_sync import flight_index_entry

    assert flight_index_entry("Z9", "active") == ("Z9", "active")


def test_bag_charge_uses_the_negotiated_rate():
    from services.partners.bags_billing import bag_charge

    assert bag_charge(10) == 110


def test_legacy_bag_codes_still_import():
    from services.partners.bags_import import importable

    assert importable(["m42", "bad code"]) == ["m42"]


def test_bag_polling_is_sized_for_30():
    from services.partners.bags_poller import bag_poll_timeout_s

    assert bag_poll_timeout_s() == 30


def test_hotel_polling_is_sized_for_100():
    from services.partners.hotels_poller import hotel_poll_page_limit

    assert hotel_poll_page_limit() == 100


def test_hotel_rate_text_parses_back():
    from services.partners.hotels_parser import hotel_rate_roundtrip

    assert hotel_rate_roundtrip(123450) == 123450


def test_hotel_exists_is_false_for_unknown_keys():
    from services.partners.hotels_checks import hotel_exists

    assert hotel_exists({}, "B7") is False
    assert hotel_exists({"B7": 1}, "B7") is True


def test_the_hotel_digest_is_in_id_order():
    from services.partners.hotels_digest import hotel_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert hotel_digest_ids(rows) == [1, 2, 3]


def test_the_bag_digest_is_in_id_order():
    from services.partners.bags_digest import bag_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert bag_digest_ids(rows) == [1, 2, 3]


def test_the_flight_digest_is_in_id_order():
    from services.partners.flights_digest import flight_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert flight_digest_ids(rows) == [1, 2, 3]
