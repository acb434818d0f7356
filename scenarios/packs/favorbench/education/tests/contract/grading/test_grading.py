"""What grading relies on in the shared code of courses."""


def test_course_archive_calls_stay_within_20():
    from services.grading.courses_upload import course_archive_calls

    calls = course_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_lesson_archive_calls_stay_within_10():
    from services.grading.lessons_upload import lesson_archive_calls

    calls = lesson_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_lesson_index_entry_reads_id_and_status():
    from services.grading.lessons_sync import lesson_index_entry

    assert lesson_index_entry("Z9", "open") == ("Z9", "open")


def test_lesson_charge_uses_the_negotiated_rate():
    from services.grading.lessons_billing import lesson_charge

    assert lesson_charge(10) == 60


def test_legacy_lesson_codes_still_import():
    from services.grading.lessons_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_legacy_course_codes_still_import():
    from services.grading.courses_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_legacy_exam_codes_still_import():
    from services.grading.exams_import import importable

    assert importable(["k9z", "bad code"]) == ["k9z"]


def test_course_polling_is_sized_for_3():
    from services.grading.courses_poller import course_poll_retries

    assert course_poll_retries() == 3


def test_course_length_text_parses_back():
    from services.grading.courses_parser import course_length_roundtrip

    assert course_length_roundtrip(125) == 125


def test_course_exists_is_false_for_unknown_keys():
    from services.grading.courses_checks import course_exists

    assert course_exists({}, "C3") is False
    assert course_exists({"C3": 1}, "C3") is True


def test_lesson_exists_is_false_for_unknown_keys():
    from services.grading.lessons_checks import lesson_exists

    assert lesson_exists({}, "A1") is False
    assert lesson_exists({"A1": 1}, "A1") is True


def test_the_lesson_digest_is_in_id_order():
    from services.grading.lessons_digest import lesson_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert lesson_digest_ids(rows) == [1, 2, 3]
