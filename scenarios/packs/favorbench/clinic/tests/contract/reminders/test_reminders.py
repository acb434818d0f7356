"""What reminders relies on in the shared code of scheduling."""


def test_room_archive_calls_stay_within_20():
    from services.reminders.rooms_upload import room_archive_calls

    calls = room_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_room_index_entry_reads_id_and_status():
    from services.reminders.rooms_sync import room_index_entry

    assert room_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_visit_index_entry_reads_id_and_status():
    from services.reminders.visits_sync import visit_index_entry

    assert visit_index_entry("Z9", "pending") == ("Z9", "pending")


def test_appointment_index_entry_reads_id_and_status():
    from services.reminders.appointments_sync import appointment_index_entry

    assert appointment_index_entry("Z9", "active") == ("Z9", "active")


def test_visit_charge_uses_the_negotiated_rate():
    from services.reminders.visits_billing import visit_charge

    assert visit_charge(10) == 60


def test_legacy_visit_codes_still_import():
    from services.reminders.visits_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_visit_polling_is_sized_for_100():
    from services.reminders.visits_poller import visit_poll_page_limit

    assert visit_poll_page_limit() == 100


def test_room_polling_is_sized_for_100():
    from services.reminders.rooms_poller import room_poll_page_limit

    assert room_poll_page_limit() == 100


def test_room_occupancy_text_parses_back():
    from services.reminders.rooms_parser import room_occupancy_roundtrip

    assert room_occupancy_roundtrip(0.125) == 0.125


def test_room_exists_is_false_for_unknown_keys():
    from services.reminders.rooms_checks import room_exists

    assert room_exists({}, "B7") is False
    assert room_exists({"B7": 1}, "B7") is True


def test_the_room_digest_is_in_id_order():
    from services.reminders.rooms_digest import room_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert room_digest_ids(rows) == [1, 2, 3]


def test_the_visit_digest_is_in_id_order():
    from services.reminders.visits_digest import visit_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert visit_digest_ids(rows) == [1, 2, 3]


def test_the_appointment_digest_is_in_id_order():
    from services.reminders.appointments_digest import appointment_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert appointment_digest_ids(rows) == [1, 2, 3]
