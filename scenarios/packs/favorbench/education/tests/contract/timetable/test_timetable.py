"""What timetable relies on in the shared code of courses."""


def test_student_archive_calls_stay_within_25():
    from services.timetable.students_upload import student_archive_calls

    calls = student_archive_calls(list(range(51)))
    assert [len(c) for c in calls] == [25, 25, 1]


def test_student_index_entry_reads_id_and_status():
    from services.timetable.students_sync import student_index_entry

    assert student_index_entry("Z9", "pending") == ("Z9", "pending")


def test_tuition_index_entry_reads_id_and_status():
    from services.timetable.tuitions_sync import tuition_index_entry

    assert tuition_index_entry("Z9", "open") == ("Z9", "open")


def test_course_index_entry_reads_id_and_status():
    from services.timetable.courses_sync import course_index_entry

    assert course_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_tuition_charge_uses_the_negotiated_rate():
    from services.timetable.tuitions_billing import tuition_charge

    assert tuition_charge(10) == 150


def test_legacy_tuition_codes_still_import():
    from services.timetable.tuitions_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_tuition_polling_is_sized_for_30():
    from services.timetable.tuitions_poller import tuition_poll_timeout_s

    assert tuition_poll_timeout_s() == 30


def test_student_polling_is_sized_for_300():
    from services.timetable.students_poller import student_poll_cache_ttl_s

    assert student_poll_cache_ttl_s() == 300


def test_student_attendance_text_parses_back():
    from services.timetable.students_parser import student_attendance_roundtrip

    assert student_attendance_roundtrip(0.125) == 0.125


def test_student_exists_is_false_for_unknown_keys():
    from services.timetable.students_checks import student_exists

    assert student_exists({}, "B7") is False
    assert student_exists({"B7": 1}, "B7") is True


def test_the_student_digest_is_in_id_order():
    from services.timetable.students_digest import student_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert student_digest_ids(rows) == [1, 2, 3]


def test_the_tuition_digest_is_in_id_order():
    from services.timetable.tuitions_digest import tuition_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert tuition_digest_ids(rows) == [1, 2, 3]


def test_the_course_digest_is_in_id_order():
    from services.timetable.courses_digest import course_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert course_digest_ids(rows) == [1, 2, 3]
