"""What loyalty relies on in the shared code of catalog."""


def test_flight_archive_calls_stay_within_10():
    from services.loyalty.flights_upload import flight_archive_calls

    calls = flight_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_seat_archive_calls_stay_within_20():
    from services.loyalty.seats_upload import seat_archive_calls

    calls = seat_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_seat_index_entry_reads_id_and_status():
    from services.loyalty.seats_sync import seat_index_entry

    assert seat_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_seat_charge_uses_the_negotiated_rate():
    from services.loyalty.seats_billing import seat_charge

    assert seat_charge(10) == 110


def test_legacy_seat_codes_still_import():
    from services.loyalty.seats_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_legacy_flight_codes_still_import():
    from services.loyalty.flights_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_legacy_trip_codes_still_import():
    from services.loyalty.trips_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_flight_polling_is_sized_for_300():
    from services.loyalty.flights_poller import flight_poll_cache_ttl_s

    assert flight_poll_cache_ttl_s() == 300


def test_flight_distance_text_parses_back():
    from services.loyalty.flights_parser import flight_distance_roundtrip

    assert flight_distance_roundtrip(2500) == 2500


def test_flight_exists_is_false_for_unknown_keys():
    from services.loyalty.flights_checks import flight_exists

    assert flight_exists({}, "B7") is False
    assert flight_exists({"B7": 1}, "B7") is True


def test_seat_exists_is_false_for_unknown_keys():
    from services.loyalty.seats_checks import seat_exists

    assert seat_exists({}, "A1") is False
    assert seat_exists({"A1": 1}, "A1") is True


def test_the_seat_digest_is_in_id_order():
    from services.loyalty.seats_digest import seat_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert seat_digest_ids(rows) == [1, 2, 3]
