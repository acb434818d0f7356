"""What library relies on in the shared code of courses."""


def test_exam_archive_calls_stay_within_20():
    from services.library.exams_upload import exam_archive_calls

    calls = exam_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_exam_index_entry_reads_id_and_status():
    from services.library.exams_sync import exam_index_entry

    assert exam_index_entry("Z9", "open") == ("Z9", "open")


def test_exam_charge_uses_the_negotiated_rate():
    from services.library.exams_billing import exam_charge

    assert exam_charge(10) == 150


def test_assignment_charge_uses_the_negotiated_rate():
    from services.library.assignments_billing import assignment_charge

    assert assignment_charge(10) == 150


def test_legacy_assignment_codes_still_import():
    from services.library.assignments_import import importable

    assert importable(["k9z", "bad code"]) == ["k9z"]


def test_assignment_polling_is_sized_for_300():
    from services.library.assignments_poller import assignment_poll_cache_ttl_s

    assert assignment_poll_cache_ttl_s() == 300


def test_assignment_score_text_parses_back():
    from services.library.assignments_parser import assignment_score_roundtrip

    assert assignment_score_roundtrip(0.125) == 0.125


def test_exam_pass_mark_text_parses_back():
    from services.library.exams_parser import exam_pass_mark_roundtrip

    assert exam_pass_mark_roundtrip(0.125) == 0.125


def test_tuition_fee_text_parses_back():
    from services.library.tuitions_parser import tuition_fee_roundtrip

    assert tuition_fee_roundtrip(123450) == 123450


def test_exam_exists_is_false_for_unknown_keys():
    from services.library.exams_checks import exam_exists

    assert exam_exists({}, "K9") is False
    assert exam_exists({"K9": 1}, "K9") is True


def test_the_exam_digest_is_in_id_order():
    from services.library.exams_digest import exam_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert exam_digest_ids(rows) == [1, 2, 3]
