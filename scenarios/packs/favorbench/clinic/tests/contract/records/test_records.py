"""What records relies on in the shared code of scheduling."""


def test_prescription_archive_calls_stay_within_20():
    from services.records.prescriptions_upload import prescription_archive_calls

    calls = prescription_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_prescription_index_entry_reads_id_and_status():
    from services.records.prescriptions_sync import prescription_index_entry

    assert prescription_index_entry("Z9", "open") == ("Z9", "open")


def test_prescription_charge_uses_the_negotiated_rate():
    from services.records.prescriptions_billing import prescription_charge

    assert prescription_charge(10) == 150


def test_shift_charge_uses_the_negotiated_rate():
    from services.records.shifts_billing import shift_charge

    assert shift_charge(10) == 60


def test_legacy_shift_codes_still_import():
    from services.records.shifts_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_shift_polling_is_sized_for_30():
    from services.records.shifts_poller import shift_poll_timeout_s

    assert shift_poll_timeout_s() == 30


def test_shift_length_text_parses_back():
    from services.records.shifts_parser import shift_length_roundtrip

    assert shift_length_roundtrip(125) == 125


def test_prescription_dose_text_parses_back():
    from services.records.prescriptions_parser import prescription_dose_roundtrip

    assert prescription_dose_roundtrip(1500) == 1500


def test_visit_fee_text_parses_back():
    from services.records.visits_parser import visit_fee_roundtrip

    assert visit_fee_roundtrip(123450) == 123450


def test_prescription_exists_is_false_for_unknown_keys():
    from services.records.prescriptions_checks import prescription_exists

    assert prescription_exists({}, "A1") is False
    assert prescription_exists({"A1": 1}, "A1") is True


def test_the_prescription_digest_is_in_id_order():
    from services.records.prescriptions_digest import prescription_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert prescription_digest_ids(rows) == [1, 2, 3]
